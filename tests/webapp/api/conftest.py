"""API fixtures: a client per user with a personal token, and a queue that rings no broker."""

import pytest
from django.test import Client

from webapp.accounts.services import create_token


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def token_client(user) -> Client:  # type: ignore[no-untyped-def]
    _, secret = create_token(user, "tests")
    return Client(headers={"Authorization": f"Bearer {secret}"})


@pytest.fixture
def as_alice(alice) -> Client:  # type: ignore[no-untyped-def]
    return token_client(alice)


@pytest.fixture
def as_bob(bob) -> Client:  # type: ignore[no-untyped-def]
    return token_client(bob)


@pytest.fixture
def no_enqueue(monkeypatch):  # type: ignore[no-untyped-def]
    sent: list[int] = []
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", sent.append)
    return sent


from tests.webapp.ledger.conftest import gaussian_mechanism_available  # noqa: E402,F401
