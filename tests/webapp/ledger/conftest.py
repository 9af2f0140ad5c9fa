"""Ledger test fixtures: a staff user, and a throwaway PostgreSQL server for the concurrency test.

The PostgreSQL server comes from Debian's package (`scripts/test.sh` installs it); as root it
runs as the `postgres` user (or `nobody`), because postgres refuses to run as root.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from anonymizer import registry
from tests.processes import PostgresServer


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    """alice, bob and staff users are created in almost every test here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def gaussian_mechanism_available(monkeypatch):  # type: ignore[no-untyped-def]
    """Let dp-embed-invert be submitted without its weights: only its plan runs here."""
    info = registry.mechanism_info("dp-embed-invert")
    monkeypatch.setitem(
        registry._REGISTRY, "dp-embed-invert", replace(info, check_available=lambda: None)
    )
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", lambda job_id: None)
    registry.get_mechanism.cache_clear()
    yield
    registry.get_mechanism.cache_clear()


@pytest.fixture
def staff(django_user_model):  # type: ignore[no-untyped-def]
    return django_user_model.objects.create_user(
        "auditor", password="auditor-password-1", is_staff=True
    )


@pytest.fixture(scope="session")
def postgres_url() -> str:  # type: ignore[misc]
    """A fresh PostgreSQL cluster on a free loopback port (trust auth), with a `ledger` DB."""
    try:
        server = PostgresServer()
        server.start()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield server.create_database("ledger")
    server.stop()
