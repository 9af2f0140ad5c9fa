"""Shared fixtures: media in a temp dir, users alice/bob/charlie, real Redis and Celery worker."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise TimeoutError(f"timed out after {timeout}s waiting for {what}")


@pytest.fixture(autouse=True)
def _media_in_tmp(request, tmp_path) -> None:  # type: ignore[no-untyped-def]
    if "settings" in request.fixturenames or request.node.get_closest_marker("django_db"):
        settings = request.getfixturevalue("settings")
        settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def alice(django_user_model):  # type: ignore[no-untyped-def]
    return django_user_model.objects.create_user("alice", password="alice-password-1")


@pytest.fixture
def bob(django_user_model):  # type: ignore[no-untyped-def]
    return django_user_model.objects.create_user("bob", password="bob-password-1")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> str:  # type: ignore[no-untyped-def]
    """A real redis-server on a free loopback port, for the whole test session."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed; run scripts/test.sh (it installs it)")
    port = free_port()
    proc = subprocess.Popen(
        [
            binary,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path_factory.mktemp("redis")),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )

    def ready() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    wait_for(ready, 10, "redis-server")
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)


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


@pytest.fixture(scope="session")
def celery_worker_process(  # type: ignore[no-untyped-def]
    redis_url, django_db_setup, django_db_blocker, tmp_path_factory, tiny_model_dir
):
    """A real `celery worker` process on the `gpu` and `cpu` queues, sharing the test database."""
    from django.db import connection

    from worker.celery_app import app

    with django_db_blocker.unblock():
        db_name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite" and (
        ":memory:" in str(db_name) or "mode=memory" in str(db_name)
    ):
        pytest.fail("integration tests need a file database (set TEST NAME in settings)")
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    env = {
        **os.environ,
        "CELERY_BROKER_URL": redis_url,
        "DATABASE_URL": _database_url(connection.settings_dict, db_name),
        "DJANGO_SETTINGS_MODULE": "webapp.settings",
        "PYTHONUNBUFFERED": "1",
        "ANONYMIZER_MODEL_DIR": str(tiny_model_dir),
        "ANONYMIZER_CACHE_DIR": str(tmp_path_factory.mktemp("cache")),
        **TINY_MODEL_ENV,
    }
    log = open(log_path, "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "worker.celery_app",
            "worker",
            "-Q",
            "gpu,cpu",
            "--concurrency",
            "1",
            "--pool",
            "prefork",
            "--loglevel",
            "INFO",
            "--hostname",
            f"test-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    app.conf.broker_url = redis_url
    wait_for(
        lambda: "ready." in log_path.read_text() or proc.poll() is not None,
        90,
        "the celery worker to start",
    )
    if proc.poll() is not None:
        pytest.fail(f"celery worker exited:\n{log_path.read_text()[-4000:]}")
    yield proc
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def _database_url(settings_dict: dict, name: str) -> str:
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{name}"
    user, password = settings_dict.get("USER", ""), settings_dict.get("PASSWORD", "")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host, port = settings_dict.get("HOST") or "127.0.0.1", settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{name}"
