"""Shared fixtures: media in a temp dir, users alice/bob/charlie, real Redis and Celery worker."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.processes import (
    ROOT,
    RedisServer,
    database_url,
    free_port,
    point_producer_at,
    wait_for,
    worker,
)

__all__ = ["ROOT", "free_port", "wait_for"]


@pytest.fixture(autouse=True)
def _media_in_tmp(request, tmp_path) -> None:  # type: ignore[no-untyped-def]
    if "settings" in request.fixturenames or request.node.get_closest_marker("django_db"):
        settings = request.getfixturevalue("settings")
        settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def _empty_caches() -> None:
    """Every test starts with empty per-process caches: the previous test's database was
    rolled back, so its ids (and totals cached under them) may come back with other rows."""
    from django.core.cache import caches

    for cache in caches.all(initialized_only=True):
        cache.clear()


@pytest.fixture
def alice(django_user_model):  # type: ignore[no-untyped-def]
    return django_user_model.objects.create_user("alice", password="alice-password-1")


@pytest.fixture
def bob(django_user_model):  # type: ignore[no-untyped-def]
    return django_user_model.objects.create_user("bob", password="bob-password-1")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> str:  # type: ignore[no-untyped-def]
    """A real redis-server on a free loopback port, for the whole test session."""
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    try:
        server.start()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield server.url
    server.stop()


# Random-weight stand-ins rarely stop generating; 16 tokens a step keeps worker tests quick.
TINY_MODEL_ENV = {"ANONYMIZER_GENERATION_MAX_LENGTH": "16", "ANONYMIZER_TORCH_THREADS": "1"}


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    """Tiny random-weight DP-Embed-Invert models saved where ANONYMIZER_MODEL_DIR can find them."""
    from anonymizer.models.standins import build_standins, save_standins

    return save_standins(build_standins("tiny", seed=0), tmp_path_factory.mktemp("tiny-models"))


@pytest.fixture
def tiny_models_available(tiny_model_dir, monkeypatch) -> Path:  # type: ignore[no-untyped-def]
    """Make dp-embed-invert available in this process too (the web form checks it)."""
    monkeypatch.setenv("ANONYMIZER_MODEL_DIR", str(tiny_model_dir))
    for name, value in TINY_MODEL_ENV.items():
        monkeypatch.setenv(name, value)
    return tiny_model_dir


def worker_env(broker_url: str, db_url: str, tmp_path_factory, tiny_model_dir) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The environment of a test worker: the test database, tiny models, no warm-up."""
    return {
        **os.environ,
        "CELERY_BROKER_URL": broker_url,
        "DATABASE_URL": db_url,
        "DJANGO_SETTINGS_MODULE": "webapp.settings",
        "PYTHONUNBUFFERED": "1",
        "ANONYMIZER_MODEL_DIR": str(tiny_model_dir),
        "ANONYMIZER_CACHE_DIR": str(tmp_path_factory.mktemp("cache")),
        "ANONYMIZER_WORKER_WARM_DETECTOR": "0",
        **TINY_MODEL_ENV,
    }


def shared_database_url(django_db_blocker) -> str:  # type: ignore[no-untyped-def]
    """The URL of the test database, which worker processes share (never :memory:)."""
    from django.db import connection

    with django_db_blocker.unblock():
        db_name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite" and (
        ":memory:" in str(db_name) or "mode=memory" in str(db_name)
    ):
        pytest.fail("integration tests need a file database (set TEST NAME in settings)")
    return database_url(connection.settings_dict, db_name)


@pytest.fixture(scope="session")
def celery_worker_process(  # type: ignore[no-untyped-def]
    redis_url, django_db_setup, django_db_blocker, tmp_path_factory, tiny_model_dir
):
    """A real `celery worker` process on both queues (`cpu,gpu`), sharing the test database."""
    env = worker_env(
        redis_url, shared_database_url(django_db_blocker), tmp_path_factory, tiny_model_dir
    )
    try:
        process = worker("test-worker", "cpu,gpu", 1, env, tmp_path_factory.mktemp("worker"))
    except RuntimeError as exc:
        pytest.fail(str(exc))
    point_producer_at(redis_url)
    yield process.proc
    process.stop()
