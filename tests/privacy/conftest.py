"""Fixtures for the privacy audit: a private candidate cache and a small deterministic embedder
(the token tests' own), and the ledger tests' users and dp-embed-invert stand-in."""

from __future__ import annotations

import pytest

from anonymizer.token_dp import candidates
from tests.anonymizer.token_dp.conftest import TrigramEmbedder
from tests.webapp.ledger.conftest import gaussian_mechanism_available, staff  # noqa: F401


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("ANONYMIZER_CACHE_DIR", str(tmp_path / "cache"))
    candidates.clear_memory_cache()
    yield
    candidates.clear_memory_cache()


@pytest.fixture
def embedder() -> TrigramEmbedder:
    return TrigramEmbedder()


@pytest.fixture
def fast_passwords(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
