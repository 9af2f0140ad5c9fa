"""A fixed corpus of over 1,000 malformed and hostile requests through the real views: no
response is a server error, and the test process's memory stays bounded.

The bound: resident memory may grow by at most RSS_GROWTH_BOUND_MB over the run (measured
after a warm-up, so imports and caches are not counted); the hostile files are parsed in
child processes with their own limits and do not count here. Figures are printed and written
to test-artifacts/fuzz.json.
"""

from __future__ import annotations

import gc
import json
import os
import time
from collections import Counter
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.factories import succeeded_job
from tests.fuzz_corpus import Case, build_corpus
from tests.processes import ROOT

pytestmark = pytest.mark.django_db
RSS_GROWTH_BOUND_MB = 300
WARM_UP_CASES = 60
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS_DIR", ROOT / "test-artifacts"))


def memory_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def send(client: Client, case: Case, job_id: int):  # type: ignore[no-untyped-def]
    args = [job_id] if case.url == "job_detail" else []
    url = reverse(case.url, args=args)
    if case.kind == "get":
        return client.get(url, case.data)
    if case.kind == "raw":
        return client.generic("POST", url, case.body, content_type=case.content_type)
    data = dict(case.data)
    for field, (name, content) in case.files.items():
        data[field] = SimpleUploadedFile(name, content)
    return client.post(url, data)


def test_no_malformed_request_gets_a_server_error_and_memory_stays_bounded(
    alice, monkeypatch, tiny_models_available
):
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", lambda job_id: True)
    corpus = build_corpus()
    assert len(corpus) >= 1000
    job_id = succeeded_job(alice).pk
    client = Client(raise_request_exception=False)
    client.force_login(alice)

    statuses: Counter[int] = Counter()
    server_errors: list[str] = []
    started = time.monotonic()
    baseline_kib = None
    for i, case in enumerate(corpus):
        if i == WARM_UP_CASES:
            gc.collect()
            baseline_kib = memory_kib("VmRSS")
        response = send(client, case, job_id)
        statuses[response.status_code] += 1
        if response.status_code >= 500:
            server_errors.append(f"{case.name}: {response.status_code}")
    gc.collect()
    growth_mb = (memory_kib("VmRSS") - baseline_kib) / 1024
    figures = {
        "cases": len(corpus),
        "statuses": dict(sorted(statuses.items())),
        "server_errors": len(server_errors),
        "rss_growth_mb": round(growth_mb, 1),
        "rss_growth_bound_mb": RSS_GROWTH_BOUND_MB,
        "peak_rss_mb": round(memory_kib("VmHWM") / 1024, 1),
        "seconds": round(time.monotonic() - started, 1),
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "fuzz.json").write_text(json.dumps(figures, indent=2))
    print("\nmalformed-input corpus:", json.dumps(figures))
    assert server_errors == []
    assert growth_mb < RSS_GROWTH_BOUND_MB
