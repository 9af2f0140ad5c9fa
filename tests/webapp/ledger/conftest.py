"""Ledger test fixtures: a staff user, and a throwaway PostgreSQL server for the concurrency test.

The PostgreSQL server comes from Debian's package (`scripts/test.sh` installs it); as root it
runs as the `postgres` user (or `nobody`), because postgres refuses to run as root.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from anonymizer import registry
from tests.conftest import free_port, wait_for


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


def _postgres_bindir() -> Path | None:
    if os.environ.get("PG_BINDIR"):
        return Path(os.environ["PG_BINDIR"])
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_major_version)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _major_version(path: str) -> int:
    part = Path(path).parent.parent.name
    return int(part) if part.isdigit() else 0


def _server_user() -> pwd.struct_passwd | None:
    """Who runs the server: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    pytest.fail("running as root and neither a 'postgres' nor a 'nobody' user exists")


@pytest.fixture(scope="session")
def postgres_url() -> str:  # type: ignore[misc]
    """A fresh PostgreSQL cluster on a free loopback port (trust auth), with a `ledger` DB."""
    import psycopg

    bindir = _postgres_bindir()
    if bindir is None or not (bindir / "postgres").exists():
        pytest.fail(
            "PostgreSQL server binaries not found; run scripts/test.sh (it installs "
            "postgresql) or set PG_BINDIR"
        )
    base = Path(tempfile.mkdtemp(prefix="ledger-pg-"))
    account = _server_user()
    as_user = {}
    if account is not None:
        os.chown(base, account.pw_uid, account.pw_gid)
        as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
    data = base / "data"
    subprocess.run(
        [
            bindir / "initdb",
            "-D",
            data,
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
        cwd=base,
        **as_user,
    )
    port = free_port()
    log = open(base / "server.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [
            bindir / "postgres",
            "-D",
            data,
            "-p",
            str(port),
            "-h",
            "127.0.0.1",
            "-k",
            base,
            "-c",
            "fsync=off",
            "-c",
            "max_connections=200",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=base,
        **as_user,
    )

    def ready() -> bool:
        try:
            psycopg.connect(
                host="127.0.0.1", port=port, user="postgres", dbname="postgres", connect_timeout=1
            ).close()
            return True
        except psycopg.OperationalError:
            return server.poll() is not None

    wait_for(ready, 30, "postgres to accept connections")
    if server.poll() is not None:
        pytest.fail(f"postgres exited:\n{(base / 'server.log').read_text()[-3000:]}")
    with psycopg.connect(
        host="127.0.0.1", port=port, user="postgres", dbname="postgres", autocommit=True
    ) as conn:
        conn.execute("CREATE DATABASE ledger")
    yield f"postgres://postgres@127.0.0.1:{port}/ledger"
    server.terminate()
    try:
        server.wait(20)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()
    shutil.rmtree(base, ignore_errors=True)
