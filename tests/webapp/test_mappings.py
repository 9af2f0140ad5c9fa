"""The Fernet key for restore mappings: from ANONYMIZER_MAPPING_KEY, or a 0600 key file."""

import stat

import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import ImproperlyConfigured

from webapp.jobs import mappings


def test_without_a_configured_key_a_private_key_file_is_created_once(settings, tmp_path):
    settings.MAPPING_KEYS = []
    settings.VAR_DIR = tmp_path
    token = mappings.encrypt_json({"[PERSON_1]": "Jane Doe"})
    key_file = tmp_path / mappings.KEY_FILE_NAME
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert b"Jane" not in token
    assert Fernet(key_file.read_text().encode()).decrypt(token)  # the file holds the key
    assert mappings.decrypt_json(token) == {"[PERSON_1]": "Jane Doe"}


def test_a_configured_key_is_used_and_an_old_key_still_decrypts(settings, tmp_path):
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    settings.VAR_DIR = tmp_path
    settings.MAPPING_KEYS = [old]
    token = mappings.encrypt_json(["x"])
    settings.MAPPING_KEYS = [new, old]  # rotated: newest first
    assert mappings.decrypt_json(token) == ["x"]
    assert not (tmp_path / mappings.KEY_FILE_NAME).exists()
    settings.MAPPING_KEYS = [new]
    with pytest.raises(mappings.MappingUnavailable):
        mappings.decrypt_json(token)


def test_a_malformed_key_fails_loudly(settings):
    settings.MAPPING_KEYS = ["not-a-fernet-key"]
    with pytest.raises(ImproperlyConfigured, match="ANONYMIZER_MAPPING_KEY"):
        mappings.encrypt_json({})
