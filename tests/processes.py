"""Real processes for integration tests: redis-server, Celery workers and beat.

Each runs in its own process group so a test can kill -9 exactly one of them (a pool child,
a whole worker, Redis) and start it again, the way production loses them.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout: float, what: str, interval: float = 0.1) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout}s waiting for {what}")


class RedisServer:
    """A redis-server on a fixed loopback port that can be killed and started again."""

    def __init__(self, data_dir: Path, *, appendonly: bool = False) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is missing; run scripts/test.sh (it installs it)")
        self.binary, self.data_dir, self.appendonly = binary, data_dir, appendonly
        self.port = free_port()
        self.proc: subprocess.Popen | None = None  # type: ignore[type-arg]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "yes" if self.appendonly else "no",
                "--dir",
                str(self.data_dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        wait_for(self.ready, 10, "redis-server")

    def ready(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """kill -9: whatever Redis held only in memory is gone."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
            self.proc = None


class CeleryProcess:
    """`celery worker` or `celery beat`, logging to a file, in its own process group."""

    def __init__(self, name: str, args: list[str], env: dict[str, str], log_dir: Path) -> None:
        self.name, self.args, self.env = name, args, env
        self.log_path = log_dir / f"{name}.log"
        self.proc: subprocess.Popen | None = None  # type: ignore[type-arg]
        self._log = None

    def start(self, ready_marker: str, timeout: float = 120) -> None:
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        self._log = open(self.log_path, "a")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "worker.celery_app", *self.args],
            cwd=ROOT,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for(
            lambda: ready_marker in self._log_since(offset) or self.proc.poll() is not None,
            timeout,
            f"{self.name} to start",
        )
        if self.proc.poll() is not None:
            raise RuntimeError(f"{self.name} exited:\n{self.log_path.read_text()[-4000:]}")

    def _log_since(self, offset: int) -> str:
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return log.read().decode("utf-8", "replace")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def pool_children(self) -> list[int]:
        """PIDs of the prefork pool's children."""
        path = Path(f"/proc/{self.pid}/task/{self.pid}/children")
        return [int(p) for p in path.read_text().split()] if path.exists() else []

    def kill(self) -> None:
        """kill -9 the whole process group: the worker and its pool children."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self._close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        self._close()

    def peak_rss_kib(self) -> int:
        """The highest resident set (VmHWM) of the worker and each live pool child, summed."""
        total = 0
        for pid in [self.pid, *self.pool_children()]:
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
        return total

    def _close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


def worker(
    name: str, queues: str, concurrency: int, env: dict[str, str], log_dir: Path
) -> CeleryProcess:
    process = CeleryProcess(
        name,
        [
            "worker",
            "-Q",
            queues,
            "--concurrency",
            str(concurrency),
            "--pool",
            "prefork",
            "--loglevel",
            "INFO",
            "--hostname",
            f"{name}-{os.getpid()}@%h",
            "--without-gossip",
            "--without-mingle",
        ],
        env,
        log_dir,
    )
    process.start("ready.")
    return process


def beat(env: dict[str, str], log_dir: Path) -> CeleryProcess:
    process = CeleryProcess(
        "beat",
        ["beat", "--loglevel", "INFO", "--schedule", str(log_dir / "celerybeat-schedule")],
        env,
        log_dir,
    )
    process.start("beat: Starting")
    return process


def database_url(settings_dict: dict, name: str) -> str:
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{name}"
    user, password = settings_dict.get("USER", ""), settings_dict.get("PASSWORD", "")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host, port = settings_dict.get("HOST") or "127.0.0.1", settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{name}"


def point_producer_at(broker_url: str) -> None:
    """Send this process's task messages to `broker_url` (drops pooled connections)."""
    from kombu import pools

    from worker.celery_app import app

    app.conf.broker_url = broker_url
    app._pool = None
    app.amqp._producer_pool = None
    # kombu keeps pools in process-wide groups keyed by connection: closing one and leaving it
    # there makes a later return to the same URL acquire from a closed pool.
    pools.reset()


class PostgresServer:
    """A throwaway PostgreSQL cluster from Debian's package on a free loopback port (trust auth).

    As root it runs as the `postgres` user (or `nobody`), because postgres refuses root.
    """

    def __init__(self) -> None:
        self.bindir = _postgres_bindir()
        if self.bindir is None or not (self.bindir / "postgres").exists():
            raise RuntimeError(
                "PostgreSQL server binaries not found; run scripts/test.sh (it installs "
                "postgresql) or set PG_BINDIR"
            )
        self.base = Path(tempfile.mkdtemp(prefix="test-pg-"))
        self.port = free_port()
        self.proc: subprocess.Popen | None = None  # type: ignore[type-arg]
        self._log = None

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self) -> None:
        account = _server_user()
        as_user: dict = {}
        if account is not None:
            os.chown(self.base, account.pw_uid, account.pw_gid)
            as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
        data = self.base / "data"
        subprocess.run(
            [self.bindir / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"]
            + ["--no-sync"],
            check=True,
            capture_output=True,
            cwd=self.base,
            **as_user,
        )
        self._log = open(self.base / "server.log", "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [self.bindir / "postgres", "-D", data, "-p", str(self.port), "-h", "127.0.0.1"]
            + ["-k", self.base, "-c", "fsync=off", "-c", "max_connections=200"],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            cwd=self.base,
            **as_user,
        )
        wait_for(lambda: self._accepts() or self.proc.poll() is not None, 30, "postgres")
        if self.proc.poll() is not None:
            raise RuntimeError(
                f"postgres exited:\n{(self.base / 'server.log').read_text()[-3000:]}"
            )

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="postgres", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def _accepts(self) -> bool:
        import psycopg

        try:
            psycopg.connect(
                host="127.0.0.1",
                port=self.port,
                user="postgres",
                dbname="postgres",
                connect_timeout=1,
            ).close()
            return True
        except psycopg.OperationalError:
            return False

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self._log is not None:
            self._log.close()
        shutil.rmtree(self.base, ignore_errors=True)


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
    raise RuntimeError("running as root and neither a 'postgres' nor a 'nobody' user exists")
