"""Valid but hostile submissions through the real views and the real worker: each job ends
succeeded, or failed with a reason, and the pages that show it stay small.

The worker's peak resident memory is written to test-artifacts/hostile_jobs.json.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.processes import ROOT, wait_for
from webapp.jobs.models import RewriteJob

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS_DIR", ROOT / "test-artifacts"))
NEAR_LIMIT = ("Write to jane.doe@example.com or call +1 415-555-0188 today. " * 31_000)[:1_900_000]


def peak_rss_mb(pid: int) -> float:
    total = 0
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    for process in [pid, *map(int, children)]:
        for line in Path(f"/proc/{process}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                total += int(line.split()[1])
    return round(total / 1024, 1)


def test_hostile_but_valid_jobs_end_with_a_result_or_a_reason(
    celery_worker_process, alice, tiny_models_available, settings
):
    client = Client()
    client.force_login(alice)
    forms = {
        "text at the upload limit": {
            "mechanism": "redact",
            "detector": "regex",
            "text": NEAR_LIMIT,
        },
        "tiny ε": {
            "mechanism": "dp-embed-invert",
            "detector": "regex",
            "text": "Mail jane@example.com about the merger.",
            "epsilon": "1e-6",
            "delta": "1e-3",
            "clip_radius": "1.5",
            "num_steps": "0",
            "composition": "gdp",
        },
        "huge clip radius": {
            "mechanism": "dp-embed-invert",
            "detector": "regex",
            "text": "Plain words, nothing personal here at all.",
            "epsilon": "16",
            "delta": "1e-3",
            "clip_radius": "1e12",
            "num_steps": "0",
            "composition": "basic",
        },
        "control characters": {
            "mechanism": "redact",
            "detector": "regex",
            "text": "a\x07b\x1bc jane@example.com " * 4 + "plain words " * 200,
        },
    }
    job_ids = {}
    for label, form in forms.items():
        response = client.post(reverse("submit"), form)
        assert response.status_code == 302, (label, response.content.decode()[:1500])
        job_ids[label] = int(response["Location"].rstrip("/").split("/")[-1])
    started = time.monotonic()
    wait_for(
        lambda: (
            not RewriteJob.objects.filter(pk__in=job_ids.values())
            .exclude(state__in=RewriteJob.FINAL_STATES)
            .exists()
        ),
        300,
        "the hostile jobs to finish",
        interval=0.5,
    )
    outcomes = {}
    for label, job_id in job_ids.items():
        job = RewriteJob.objects.get(pk=job_id)
        assert job.state in ("succeeded", "failed"), (label, job.state)
        assert job.state == "succeeded" or job.error, label
        page = client.get(reverse("job_detail", args=[job_id]))
        assert page.status_code == 200 and len(page.content) < 1_500_000, label
        outcomes[label] = {"state": job.state, "page_kb": len(page.content) // 1024}
    assert outcomes["text at the upload limit"]["state"] == "succeeded"
    figures = {
        "outcomes": outcomes,
        "seconds": round(time.monotonic() - started, 1),
        "worker_peak_rss_mb": peak_rss_mb(celery_worker_process.pid),
    }
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "hostile_jobs.json").write_text(json.dumps(figures, indent=2))
    print("\nhostile jobs:", json.dumps(figures))


LETTER = (
    "Dear Ms Okafor,\nfollowing our call on 3 May 2024, Dr Henrik Lindqvist of Bergen will "
    "review the claim. Write to ngozi.okafor@example.org or call +44 20 7946 0958. The "
    "tenant, Tomás Ferreira, lives at 14 Rua das Flores, 4050-262 Porto.\n\n"
)
LONG_LETTERS = (LETTER * (1_900_000 // len(LETTER) + 1))[:1_900_000]


def test_a_document_near_the_upload_limit_runs_with_the_default_detector(
    celery_worker_process, alice, tiny_models_available
):
    """1.9 MB (over spaCy's 1,000,000-character limit) through the default detector
    (`combined`), end to end: it succeeds in bounded memory and the identifiers are gone."""
    client = Client()
    client.force_login(alice)
    response = client.post(
        reverse("submit"), {"mechanism": "redact", "detector": "combined", "text": LONG_LETTERS}
    )
    assert response.status_code == 302, response.content.decode()[:1500]
    job_id = int(response["Location"].rstrip("/").split("/")[-1])
    started = time.monotonic()
    wait_for(
        lambda: RewriteJob.objects.filter(pk=job_id, state__in=RewriteJob.FINAL_STATES).exists(),
        900,
        "the 1.9 MB job to finish",
        interval=1.0,
    )
    job = RewriteJob.objects.get(pk=job_id)
    assert (job.state, job.error) == ("succeeded", "")
    output = job.output
    for identifier in ("ngozi.okafor@example.org", "7946 0958", "Henrik Lindqvist", "Rua das"):
        assert identifier not in output, identifier
    peak = peak_rss_mb(celery_worker_process.pid)
    assert peak < 4096, peak
    figures = {"seconds": round(time.monotonic() - started, 1), "worker_peak_rss_mb": peak}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "large_default_detector.json").write_text(json.dumps(figures, indent=2))
    print("\n1.9 MB with the default detector:", json.dumps(figures))
