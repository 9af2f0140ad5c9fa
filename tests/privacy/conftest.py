"""Fixtures for the privacy audit: the token tests' private candidate cache and small
deterministic embedder, and the ledger tests' staff user and dp-embed-invert stand-in."""

from __future__ import annotations

import pytest

from tests.anonymizer.token_dp.conftest import _private_cache, embedder  # noqa: F401
from tests.webapp.ledger.conftest import gaussian_mechanism_available, staff  # noqa: F401


@pytest.fixture
def fast_passwords(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
