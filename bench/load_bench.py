"""Load benchmark: history and job pages under many clients, against real gunicorn.

One user owns 10,000 jobs, each with a ledger entry (and a receipt when it succeeded); a few
jobs have thousands of spans. For each database (SQLite, the embedded default, and a
throwaway PostgreSQL server from Debian's package) the script migrates and seeds a fresh
database (PostgreSQL is then analysed, as autovacuum would within a minute), starts gunicorn
with webapp/gunicorn.conf.py as scripts/run.sh does, waits until every worker has loaded the
default detector in the background (`ready_s`: until then the pages compete with loading the
model for the CPU, a start-up cost, not the pages' speed), and measures:

- single client: one request at a time, no pause (p50/p95 per page);
- 50 clients, each waiting 1 s between requests (p50/p95/p99 per page, req/s, errors);
- closed loop: 8 clients without pauses, the most requests per second the server gives.

The target (issue 16): history and job page p95 <= 100 ms under the 50 clients.

Usage: python -m bench.load_bench [--db sqlite,postgres] [--jobs 10000] [--clients 50]
                                  [--duration 60] [--workers N --threads N] [--label TEXT]
       python -m bench.load_bench --report     # only rewrite load.md from load.json
Each run is appended to bench/results/load.json with the machine's load average (1-minute,
from os.getloadavg) before and after every phase; load.md reports, per database, the best
and the worst run of the latest label. Timings on a shared 2-core machine are noisy, and the
client threads run on the same cores as the server: the figures are upper bounds.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import runpy
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
HISTORY_URLS = [
    "/history/",
    "/history/?page={page}",
    "/history/?sort=-epsilon&page={page}",
    "/history/?sort=document",
    "/history/?sort=-k",
    "/history/?state=failed",
    "/history/?mechanism=santext&page=2",
    "/history/?q=report-12",
]


TARGET_P95_MS = 100.0
PAGES = ("history", "job")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="sqlite,postgres")
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--closed-clients", type=int, default=8)
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: its config)")
    parser.add_argument("--threads", type=int, help="gunicorn threads (default: its config)")
    parser.add_argument("--label", help="groups runs in load.md (default: the git revision)")
    parser.add_argument("--report", action="store_true", help="only rewrite load.md")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: run one database
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args)))
        return
    if not args.report:
        run = {
            "label": args.label or git_revision(),
            "started": time.strftime("%Y-%m-%d %H:%M:%S"),
            "config": {
                "jobs": args.jobs,
                "clients": args.clients,
                "think_s": args.think,
                "duration_s": args.duration,
                "closed_clients": args.closed_clients,
            },
        }
        for db in args.db.split(","):
            run[db] = run_in_child(db, args)
            print(f"{db}: {json.dumps(run[db], indent=1)}", flush=True)
        save_run(run)
    write_report()


def git_revision() -> str:
    def git(*argv: str) -> str:
        done = subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip()

    changed = "+changes" if git("status", "--porcelain") else ""
    return git("rev-parse", "--short", "HEAD") + changed


def load_average() -> float:
    """The machine's 1-minute load average (2 cores: above 2 means work was waiting)."""
    return round(os.getloadavg()[0], 2)


def run_in_child(db: str, args: argparse.Namespace) -> dict:
    """Each database in its own process: Django's settings are fixed once set up."""
    var_dir = Path(tempfile.mkdtemp(prefix=f"load-bench-{db}-"))
    env = {
        **os.environ,
        "ANONYMIZER_VAR_DIR": str(var_dir),
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_DEBUG": "0",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("DATABASE_URL", None)
    server = None
    if db == "postgres":
        sys.path.insert(0, str(ROOT))
        from tests.processes import PostgresServer

        server = PostgresServer()
        server.start()
        env["DATABASE_URL"] = server.create_database("bench")
    try:
        argv = [sys.executable, "-m", "bench.load_bench", "--one", db, "--jobs", str(args.jobs)]
        argv += ["--clients", str(args.clients), "--think", str(args.think)]
        argv += ["--duration", str(args.duration), "--closed-clients", str(args.closed_clients)]
        for option in ("workers", "threads"):
            if getattr(args, option):
                argv += [f"--{option}", str(getattr(args, option))]
        done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{db} run failed:\n{done.stderr[-4000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        if server is not None:
            server.stop()


def run_one(args: argparse.Namespace) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    started = time.monotonic()
    user, job_ids = seed(args.jobs)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # autovacuum's job, done now rather than in a minute
            cursor.execute("VACUUM ANALYZE")
    seed_s = time.monotonic() - started
    cookie = session_cookie(user)
    vendor = connection.vendor
    connection.close()
    port = free_port()
    argv = [sys.executable, "-m", "gunicorn", "webapp.wsgi:application"]
    argv += ["-c", "webapp/gunicorn.conf.py", "--bind", f"127.0.0.1:{port}"]
    argv += ["--control-socket", str(Path(os.environ["ANONYMIZER_VAR_DIR"]) / "gunicorn.ctl")]
    for option in ("workers", "threads"):
        if getattr(args, option):
            argv += [f"--{option}", str(getattr(args, option))]
    server_log = Path(os.environ["ANONYMIZER_VAR_DIR"]) / "gunicorn.log"
    started_server = time.monotonic()
    with server_log.open("w") as log_file:
        gunicorn = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log_file)
    try:
        wait_until_serving(port, cookie)
        wait_until_warm(server_log, server_config(args)["workers"])
        ready_s = time.monotonic() - started_server
        rng = random.Random(0)
        urls = Urls(job_ids, rng)
        for _ in range(40):  # warm every worker's caches and connections
            get(port, cookie, urls.history())
            get(port, cookie, urls.job())
        load_before = load_average()
        single = {
            "history": summarise([get(port, cookie, urls.history()) for _ in range(60)]),
            "job": summarise([get(port, cookie, urls.job()) for _ in range(60)]),
        }
        single["load_before"], single["load_after"] = load_before, load_average()
        loaded = run_clients(port, cookie, urls, args.clients, args.think, args.duration)
        closed = run_clients(port, cookie, urls, args.closed_clients, 0.0, min(args.duration, 30))
    finally:
        gunicorn.terminate()
        gunicorn.wait(30)
    return {
        "database": vendor,
        "seed_s": round(seed_s, 1),
        "ready_s": round(ready_s, 1),
        "server": server_config(args),
        "single_client": single,
        "loaded": {"clients": args.clients, "think_s": args.think, **loaded},
        "closed_loop": {
            "clients": args.closed_clients,
            "req_per_s": closed["req_per_s"],
            "errors": closed["errors"],
            "load_before": closed["load_before"],
            "load_after": closed["load_after"],
        },
    }


def server_config(args: argparse.Namespace) -> dict:
    """Workers and threads gunicorn runs with: the command line's, else its config file's."""
    config = runpy.run_path(str(ROOT / "webapp" / "gunicorn.conf.py"))
    return {
        "workers": args.workers or config.get("workers", 1),
        "threads": args.threads or config.get("threads", 1),
    }


class Urls:
    def __init__(self, job_ids: list[int], rng: random.Random) -> None:
        self.job_ids, self.rng = job_ids, rng
        self.lock = threading.Lock()

    def history(self) -> str:
        with self.lock:
            return self.rng.choice(HISTORY_URLS).format(page=self.rng.randint(1, 400))

    def job(self) -> str:
        with self.lock:
            return f"/jobs/{self.rng.choice(self.job_ids)}/"


def get(port: int, cookie: str, url: str, connection=None) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    """(milliseconds, status) of one GET; a fresh connection unless one is given."""
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    conn.request("GET", url, headers={"Cookie": cookie, "Host": "127.0.0.1"})
    response = conn.getresponse()
    response.read()
    elapsed = (time.perf_counter() - started) * 1000
    if connection is None:
        conn.close()
    return elapsed, response.status


def run_clients(port: int, cookie: str, urls: Urls, n: int, think: float, duration: float) -> dict:
    """n clients alternating history and job pages, each pausing `think` s between requests."""
    samples: dict[str, list[float]] = {"history": [], "job": []}
    errors: list[int] = []
    lock = threading.Lock()
    warm_up = min(5.0, duration / 6)
    start = time.monotonic()
    deadline = start + warm_up + duration

    def client(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        time.sleep(think * index / max(n, 1))
        kind = "history" if index % 2 else "job"
        while time.monotonic() < deadline:
            url = urls.history() if kind == "history" else urls.job()
            sent = time.perf_counter()
            try:
                ms, status = get(port, cookie, url, conn)
            except (OSError, http.client.HTTPException):  # counted, at the time it took
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                ms, status = (time.perf_counter() - sent) * 1000, 599
            if time.monotonic() - start > warm_up:
                with lock:
                    samples[kind].append(ms)
                    if status != 200:
                        errors.append(status)
            kind = "job" if kind == "history" else "history"
            if think:
                time.sleep(think)
        conn.close()

    load_before = load_average()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result = {kind: summarise([(ms, 200) for ms in values]) for kind, values in samples.items()}
    result["all"] = summarise([(ms, 200) for values in samples.values() for ms in values])
    result["req_per_s"] = round(sum(len(v) for v in samples.values()) / duration, 1)
    result["errors"] = len(errors)
    result["load_before"], result["load_after"] = load_before, load_average()
    return result


def save_run(run: dict) -> None:
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "load.json"
    runs = json.loads(path.read_text()).get("runs", []) if path.exists() else []
    path.write_text(json.dumps({"runs": [*runs, run]}, indent=1) + "\n")


def worst_p95(result: dict) -> float:
    """The larger of the two pages' p95 under the many clients (what the target bounds)."""
    return max(result["loaded"][page].get("p95_ms", math.inf) for page in PAGES)


def write_report() -> None:
    """load.md: per database, the best and the worst run of the latest label, and all runs."""
    runs = json.loads((RESULTS / "load.json").read_text())["runs"]
    label = runs[-1]["label"]
    mine = [run for run in runs if run["label"] == label]
    config = mine[-1]["config"]
    lines = [
        "# Load benchmark (`python -m bench.load_bench`)",
        "",
        f"{config['jobs']:,} jobs with ledger entries for one user; gunicorn on this 2-core "
        f"machine; {config['clients']} clients each waiting {config['think_s']:g} s between "
        f"requests for {config['duration_s']:g} s (history and job pages alternately); "
        f"closed loop: {config['closed_clients']} clients without pauses. Target: history and "
        f"job page p95 ≤ {TARGET_P95_MS:g} ms under the {config['clients']} clients. The "
        "machine is shared with other engineers' test runs: `load` is its 1-minute load "
        "average (2 cores) before → after each phase. The client threads run on the same "
        "cores as the server and the database, so every figure is an upper bound. Timing "
        "starts once every gunicorn worker has loaded the default detector (`ready` s after "
        "start, where recorded).",
        "",
        f"Runs labelled `{label}`: {len(mine)}.",
    ]
    for db in ("sqlite", "postgres"):
        done = [run for run in mine if db in run]
        if not done:
            continue
        best = min(done, key=lambda run: worst_p95(run[db]))
        worst = max(done, key=lambda run: worst_p95(run[db]))
        held = sum(worst_p95(run[db]) <= TARGET_P95_MS for run in done)
        lines += ["", f"## {db}", "", f"Target held in {held} of {len(done)} runs.", ""]
        header = [
            "| run | started | server | single client history p50 / p95 | single client job "
            f"p50 / p95 | {config['clients']} clients history p50 / p95 | job p50 / p95 | "
            "req/s | errors | load | closed loop req/s (load) |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        lines += header + [report_row("best", best, db), report_row("worst", worst, db)]
        lines += ["", "<details><summary>every run</summary>", "", *header]
        lines += [report_row(str(i + 1), run, db) for i, run in enumerate(done)]
        lines += ["", "</details>"]
    (RESULTS / "load.md").write_text("\n".join(lines) + "\n")


def report_row(name: str, run: dict, db: str) -> str:
    result = run[db]
    single, loaded, closed = result["single_client"], result["loaded"], result["closed_loop"]

    def pair(stats: dict) -> str:
        return f"{stats.get('p50_ms', '—')} / {stats.get('p95_ms', '—')} ms"

    server = result["server"]
    ready = f", ready {result['ready_s']:g} s" if "ready_s" in result else ""
    return (
        f"| {name} | {run['started']} | {server['workers']}×{server['threads']}{ready} | "
        f"{pair(single['history'])} | {pair(single['job'])} | {pair(loaded['history'])} | "
        f"{pair(loaded['job'])} | {loaded['req_per_s']} | {loaded['errors']} | "
        f"{loaded['load_before']} → {loaded['load_after']} | {closed['req_per_s']} "
        f"({closed['load_before']} → {closed['load_after']}) |"
    )


def summarise(samples: list[tuple[float, int]]) -> dict:
    times = sorted(ms for ms, _ in samples)
    if not times:
        return {"n": 0}
    return {
        "n": len(times),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 95), 1),
        "p99_ms": round(percentile(times, 99), 1),
        "max_ms": round(times[-1], 1),
        "non_200": sum(1 for _, status in samples if status != 200),
    }


def percentile(sorted_times: list[float], p: float) -> float:
    index = min(len(sorted_times) - 1, max(0, round(p / 100 * len(sorted_times)) - 1))
    return sorted_times[index]


def wait_until_serving(port: int, cookie: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if get(port, cookie, "/history/")[1] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit("gunicorn did not start")


def wait_until_warm(server_log: Path, workers: int, timeout: float = 300) -> None:
    """Until every worker has loaded the default detector (webapp/gunicorn.conf.py does it in
    the background after start): requests timed meanwhile would measure the start-up, when
    loading the model competes with them for the CPU and the worker's interpreter lock."""
    if os.environ.get("ANONYMIZER_WEB_WARM_DETECTOR", "1") == "0":
        return
    deadline = time.monotonic() + timeout
    while _warmed_workers(server_log.read_text()) < workers:
        if time.monotonic() > deadline:
            log = server_log.read_text()
            raise SystemExit(f"gunicorn workers did not load the detector:\n{log[-4000:]}")
        time.sleep(0.5)


def _warmed_workers(server_log: str) -> int:
    """Workers whose warm-up ended: loaded, unavailable, or failed with a traceback."""
    ended = ("default detector", "Exception in thread warm-detector")
    return sum(server_log.count(marker) for marker in ended)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def session_cookie(user) -> str:  # type: ignore[no-untyped-def]
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def seed(n_jobs: int, user=None):  # type: ignore[no-untyped-def]
    """n_jobs jobs, each with a ledger entry (and a receipt if it succeeded), for a new user
    `bench` or added to `user`'s."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from anonymizer import Settings
    from anonymizer.api import plan
    from anonymizer.receipts import receipt_dict, span_dict
    from webapp.jobs.models import Document, Receipt, RewriteJob
    from webapp.ledger import costs
    from webapp.ledger.models import LedgerEntry
    from webapp.ledger.services import _entry_fields as entry_fields
    from webapp.ledger.services import ensure_budget

    if user is None:
        user = get_user_model().objects.create_user("bench", password="bench-password-1")
        ensure_budget(user)  # as the first submission does
    first = RewriteJob.objects.filter(owner=user).count()
    text = "Mail jane.doe@example.com about the merger, or call +1 415-555-0188. " * 4
    kinds = {
        "redact": Settings(mechanism="redact", detector="regex"),
        "dp-embed-invert": Settings(mechanism="dp-embed-invert", detector="regex", epsilon=1),
        "santext": Settings(mechanism="santext", detector="regex", epsilon=4),
    }
    planned = {name: plan(text, s) for name, s in kinds.items()}
    mechanisms = list(kinds)
    states = ["succeeded"] * 8 + ["failed", "cancelled"]
    now = timezone.now()
    docs = Document.objects.bulk_create(
        [
            Document(
                owner=user, name=f"report-{i}.txt", text=text, sha256="0" * 64, n_chars=len(text)
            )
            for i in range(first, first + n_jobs)
        ],
        batch_size=1000,
    )
    jobs = []
    for i, doc in enumerate(docs, start=first):
        mechanism = mechanisms[i % len(mechanisms)]
        spans = [span_dict(s) for s in planned[mechanism].spans]
        if i % 500 == 0:
            spans = spans * 200  # a few long documents (thousands of spans)
        jobs.append(
            RewriteJob(
                owner=user,
                document=doc,
                mechanism=mechanism,
                queue="gpu" if mechanism == "dp-embed-invert" else "cpu",
                state=states[i % len(states)],
                settings=kinds[mechanism].to_dict(),
                epsilon=None if mechanism == "redact" else kinds[mechanism].epsilon,
                delta=1e-3 if mechanism == "dp-embed-invert" else None,
                n_chunks=planned[mechanism].receipt.n_chunks,
                spans=spans,
                output=text,
                progress=1.0,
                stage="done",
                attempts=1,
            )
        )
    jobs = RewriteJob.objects.bulk_create(jobs, batch_size=500)
    entries, receipts = [], []
    for i, job in enumerate(jobs, start=first):
        receipt = planned[job.mechanism].receipt
        succeeded = job.state == "succeeded"
        entries.append(
            LedgerEntry(
                job=job,
                owner=user,
                status="charged" if succeeded else "released",
                settled_at=now,
                **entry_fields(costs.release_cost(receipt)),
            )
        )
        if succeeded:
            receipts.append(
                Receipt(
                    job=job,
                    owner=user,
                    payload=receipt_dict(receipt),
                    sha256=f"{user.pk:08x}{i:056x}",  # unique across users
                    prev_sha256=f"{user.pk:08x}{i - 1:056x}" if receipts or first else "",
                )
            )
    LedgerEntry.objects.bulk_create(entries, batch_size=1000)
    Receipt.objects.bulk_create(receipts, batch_size=1000)
    ids = [job.pk for job in jobs]
    for start in range(0, len(ids), 1000):  # spread creation times over months
        RewriteJob.objects.filter(pk__in=ids[start : start + 1000]).update(
            created_at=now - timedelta(hours=start // 10)
        )
    return user, ids


if __name__ == "__main__":
    main()
