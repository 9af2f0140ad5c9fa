"""Server time of the history page with 10,000 jobs in the table (p50/p95 over many requests).

Runs Django in-process on a fresh SQLite database in a temp dir (the embedded default) and
times full request handling (middleware, query, template) with the test client.
Usage: python -m bench.history_bench [--jobs 10000] [--requests 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bench.inprocess import django_on_temp_sqlite

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    django_on_temp_sqlite("history-bench-")
    from django.test import Client

    user = _seed(args.jobs)
    client = Client()
    client.force_login(user)
    views = {
        "first page (newest)": "/history/",
        "page 200": "/history/?page=200",
        "sorted by K": "/history/?sort=-k",
        "filtered (state + mechanism)": "/history/?state=failed&mechanism=redact",
        "search by name": "/history/?q=report-12",
        "htmx table partial": "/history/?page=3",
    }
    results = {}
    for label, url in views.items():
        headers = {"HTTP_HX_REQUEST": "true"} if "htmx" in label else {}
        timings = _time(client, url, args.requests // len(views), headers)
        results[label] = {
            "p50_ms": _pct(timings, 50),
            "p95_ms": _pct(timings, 95),
            "n": len(timings),
        }
    everything = [t for label, url in views.items() for t in _time(client, url, 10, {})]
    summary = {
        "jobs": args.jobs,
        "views": results,
        "p95_ms_all": _pct(everything, 95),
        "database": "SQLite (embedded default)",
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "history.json").write_text(json.dumps(summary, indent=2))
    print(f"history page with {args.jobs:,} jobs (SQLite):")
    for label, r in results.items():
        print(f"  {label:<30} p50 {r['p50_ms']:7.1f} ms   p95 {r['p95_ms']:7.1f} ms")
    print(f"  {'all views':<30} p95 {summary['p95_ms_all']:7.1f} ms")


def _seed(n_jobs: int):  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from webapp.jobs.models import Document, RewriteJob

    User = get_user_model()
    user = User.objects.create_user("bench", password="bench-password-1")
    other = User.objects.create_user("other", password="other-password-1")
    now = timezone.now()
    states = ["succeeded"] * 8 + ["failed", "cancelled"]
    mechanisms = ["redact", "dp-embed-invert", "santext", "clusant"]
    for owner in (user, other):
        docs = Document.objects.bulk_create(
            [
                Document(
                    owner=owner,
                    name=f"report-{i}.txt",
                    text="x" * 200,
                    sha256="0" * 64,
                    n_chars=200,
                )
                for i in range(n_jobs)
            ],
            batch_size=2000,
        )
        jobs = [
            RewriteJob(
                owner=owner,
                document=doc,
                mechanism=mechanisms[i % 4],
                state=states[i % 10],
                epsilon=16.0,
                delta=1e-3,
                n_chunks=i % 12,
                settings={},
                output="y" * 200,
            )
            for i, doc in enumerate(docs)
        ]
        RewriteJob.objects.bulk_create(jobs, batch_size=2000)
    for i, job_id in enumerate(RewriteJob.objects.filter(owner=user).values_list("pk", flat=True)):
        if i % 500 == 0:
            RewriteJob.objects.filter(pk__gte=job_id, pk__lt=job_id + 500).update(
                created_at=now - timezone.timedelta(minutes=i)
            )
    return user


def _time(client, url: str, n: int, headers: dict) -> list[float]:  # type: ignore[no-untyped-def]
    client.get(url, **headers)  # warm caches
    timings = []
    for _ in range(max(n, 5)):
        start = time.perf_counter()
        response = client.get(url, **headers)
        timings.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return timings


def _pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


if __name__ == "__main__":
    main()
