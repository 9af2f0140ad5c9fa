"""Batch fixtures: fast password hashing and a queue that rings no broker."""

import pytest

from tests.webapp.ledger.conftest import gaussian_mechanism_available  # noqa: F401


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def no_enqueue(monkeypatch):  # type: ignore[no-untyped-def]
    sent: list[int] = []
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", sent.append)
    return sent
