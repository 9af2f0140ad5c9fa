"""Secrets at rest for replacement operators: restore mappings, per-user salts and the
memories of pseudonym sets, all Fernet-encrypted; and restoring pasted text.

The key comes from ANONYMIZER_MAPPING_KEY (comma-separated Fernet keys, newest first, so
keys can be rotated with MultiFernet). When it is unset, as in the embedded default that
`scripts/run.sh` starts, a random key is created once in $ANONYMIZER_VAR_DIR/mapping.key
(mode 0600): restore works out of the box, and a copy of the database alone (a backup, a
dump) does not reveal the mappings. A key derived from DJANGO_SECRET_KEY would not give
that, because the embedded default's secret key is a constant in the source.
"""

from __future__ import annotations

import json
import logging
import os
from functools import cache
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from anonymizer.operators import ReplacementMemory
from anonymizer.restore import Restored, restore_text
from webapp.jobs.models import OperatorSecret, PseudonymSet, ReplacementMapping, RewriteJob

log = logging.getLogger(__name__)
KEY_FILE_NAME = "mapping.key"


class MappingUnavailable(Exception):
    """The job has no mapping (not reversible, or deleted with the original)."""


@cache
def _fernet_for(keys: tuple[str, ...], key_file: str) -> MultiFernet:
    if not keys:
        keys = (_key_from_file(Path(key_file)),)
    try:
        return MultiFernet([Fernet(k.encode()) for k in keys])
    except ValueError as exc:
        raise ImproperlyConfigured(f"ANONYMIZER_MAPPING_KEY is not a Fernet key: {exc}") from None


def _key_from_file(path: Path) -> str:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process created it first
            return path.read_text().strip()
        with os.fdopen(fd, "w") as handle:
            handle.write(Fernet.generate_key().decode())
        log.warning("ANONYMIZER_MAPPING_KEY is unset; created a key file at %s", path)
    return path.read_text().strip()


def fernet() -> MultiFernet:
    return _fernet_for(tuple(settings.MAPPING_KEYS), str(settings.VAR_DIR / KEY_FILE_NAME))


def encrypt_json(data: object) -> bytes:
    return fernet().encrypt(json.dumps(data, ensure_ascii=False).encode("utf-8"))


def decrypt_json(token: bytes) -> object:
    try:
        return json.loads(fernet().decrypt(bytes(token)))
    except InvalidToken:
        raise MappingUnavailable(
            "The stored mapping cannot be decrypted with the configured key."
        ) from None


# --- per-user salt --------------------------------------------------------------------


def user_salt(user) -> bytes:  # type: ignore[no-untyped-def]
    """The user's secret 32-byte salt, created on first use."""
    secret = OperatorSecret.objects.filter(owner=user).first()
    if secret is None:
        salt = os.urandom(32)
        secret, _ = OperatorSecret.objects.get_or_create(
            owner=user, defaults={"token": fernet().encrypt(salt)}
        )
    return fernet().decrypt(bytes(secret.token))


# --- restore mappings -----------------------------------------------------------------


def store_mapping(job: RewriteJob, operator: str, mapping: dict[str, str]) -> None:
    ReplacementMapping.objects.update_or_create(
        job=job,
        defaults={
            "owner_id": job.owner_id,
            "operator": operator,
            "n_entries": len(mapping),
            "token": encrypt_json(mapping),
        },
    )


def mapping_for(job: RewriteJob) -> dict[str, str]:
    row = ReplacementMapping.objects.filter(job=job, owner_id=job.owner_id).first()
    if row is None:
        raise MappingUnavailable("This job has no stored mapping.")
    data = decrypt_json(row.token)
    assert isinstance(data, dict)
    return data


def restore_for_job(job: RewriteJob, text: str) -> Restored:
    """`text` with the job's replacements put back (the caller checked ownership)."""
    return restore_text(text, mapping_for(job))


# --- pseudonym sets -------------------------------------------------------------------


def pseudonym_set_for(user, name: str) -> PseudonymSet | None:  # type: ignore[no-untyped-def]
    name = name.strip()[:64]
    if not name:
        return None
    found, _ = PseudonymSet.objects.get_or_create(owner=user, name=name)
    return found


def load_memory(pseudonym_set: PseudonymSet, salt: bytes) -> ReplacementMemory:
    """The set's memory, locked until the surrounding transaction ends."""
    assert transaction.get_connection().in_atomic_block
    row = PseudonymSet.objects.select_for_update().get(pk=pseudonym_set.pk)
    data = decrypt_json(row.memory_token) if row.memory_token else None
    return ReplacementMemory.from_dict(data, key_secret=salt)  # type: ignore[arg-type]


def save_memory(pseudonym_set: PseudonymSet, memory: ReplacementMemory) -> None:
    PseudonymSet.objects.filter(pk=pseudonym_set.pk).update(
        memory_token=encrypt_json(memory.to_dict())
    )
