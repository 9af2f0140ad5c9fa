"""History and job pages of this checkout against a baseline checkout, side by side.

Both checkouts seed their own SQLite database the same way (load_bench.seed: one user,
10,000 jobs with ledger entries) and serve it with gunicorn (2 workers x 4 threads); one
client then sends each URL to the baseline and to this checkout in turn, so both see the
same machine load. Prints p50/p95 per page and server and the ratio baseline / this.

Usage: git archive main | tar -x -C /tmp/main-tree
       python -m bench.page_ab --baseline /tmp/main-tree [--jobs 10000] [--rounds 150]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.load_bench import (
    HISTORY_URLS,
    ROOT,
    free_port,
    get,
    load_average,
    summarise,
    wait_until_serving,
)

# Run inside a checkout: migrate, seed, print the session cookie and the job ids.
SEED = """
import json, os, pathlib, django
import webapp
assert pathlib.Path(webapp.__file__).resolve().is_relative_to(pathlib.Path.cwd().resolve())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")
django.setup()
from django.core.management import call_command
from bench.load_bench import seed, session_cookie
call_command("migrate", verbosity=0)
user, job_ids = seed({jobs})
print(json.dumps({{"cookie": session_cookie(user), "job_ids": job_ids}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", required=True, type=Path, help="the other checkout")
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=150, help="requests per page and server")
    args = parser.parse_args()
    servers = {"baseline": args.baseline.resolve(), "this": ROOT}
    started = {name: start(tree, args.jobs) for name, tree in servers.items()}
    try:
        result = compare(started, args.rounds)
    finally:
        for server in started.values():
            server["process"].terminate()
            server["process"].wait(30)
    print(json.dumps(result, indent=1))


def start(tree: Path, jobs: int) -> dict:
    env = {
        **os.environ,
        "ANONYMIZER_VAR_DIR": tempfile.mkdtemp(prefix="page-ab-"),
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(tree),
    }
    env.pop("DATABASE_URL", None)
    seeded = subprocess.run(
        [sys.executable, "-c", SEED.format(jobs=jobs)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(seeded.stdout.strip().splitlines()[-1])
    port = free_port()
    argv = [sys.executable, "-m", "gunicorn", "webapp.wsgi:application"]
    argv += ["-c", "webapp/gunicorn.conf.py", "--bind", f"127.0.0.1:{port}"]
    argv += ["--workers", "2", "--threads", "4"]
    argv += ["--control-socket", str(Path(env["ANONYMIZER_VAR_DIR"]) / "gunicorn.ctl")]
    process = subprocess.Popen(
        argv, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return {"process": process, "port": port, **found}


def compare(servers: dict, rounds: int) -> dict:
    for server in servers.values():
        wait_until_serving(server["port"], server["cookie"])
        for url in [u.format(page=2) for u in HISTORY_URLS]:  # warm both workers
            for _ in range(4):
                get(server["port"], server["cookie"], url)
    rng = random.Random(0)
    samples: dict = {name: {"history": [], "job": []} for name in servers}
    load_before = load_average()
    for _ in range(rounds):
        history = rng.choice(HISTORY_URLS).format(page=rng.randint(1, 400))
        index = rng.randrange(len(next(iter(servers.values()))["job_ids"]))
        order = list(servers.items())
        rng.shuffle(order)  # neither server always goes first
        for name, server in order:
            job = f"/jobs/{server['job_ids'][index]}/"
            samples[name]["history"].append(get(server["port"], server["cookie"], history))
            samples[name]["job"].append(get(server["port"], server["cookie"], job))
    result: dict = {"rounds": rounds, "load_before": load_before, "load_after": load_average()}
    for name in servers:
        result[name] = {page: summarise(samples[name][page]) for page in ("history", "job")}
    result["ratio_baseline_over_this"] = {
        page: {
            stat: round(result["baseline"][page][stat] / result["this"][page][stat], 2)
            for stat in ("p50_ms", "p95_ms")
        }
        for page in ("history", "job")
    }
    return result


if __name__ == "__main__":
    main()
