"""Caps hold under concurrency: 50 simultaneous submit requests by one user.

One test body runs on whatever database is configured: SQLite by default (the settings' BEGIN
IMMEDIATE serialises the reservations), and PostgreSQL in a child pytest pointed at a
throwaway server (SELECT ... FOR UPDATE on the user's budget row). Each thread has its own
test client and so its own database connection; a barrier releases all requests at once.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from anonymizer import RewriteResult
from anonymizer import plan as plan_rewrite
from tests.conftest import ROOT
from tests.webapp.ledger.helpers import GAUSSIAN_FORM, GAUSSIAN_SETTINGS, TEXT
from webapp.jobs import services
from webapp.jobs.models import RewriteJob
from webapp.ledger import costs
from webapp.ledger.models import LedgerEntry, UserBudget
from webapp.ledger.services import budget_summary

N_REQUESTS = 50
CAP_EPSILON, CAP_DELTA = 16.0, 1e-3
RESULT_ENV = "LEDGER_CONCURRENCY_RESULT"


@dataclass
class Outcome:
    kind: str
    started: float
    ended: float


def post_concurrently(user, n: int) -> list[Outcome]:  # type: ignore[no-untyped-def]
    """n submit requests by one user, released together, each on its own connection."""
    barrier = threading.Barrier(n)
    outcomes: list[Outcome] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    def one() -> None:
        try:
            client = Client()
            client.force_login(user)
            barrier.wait(timeout=120)
            started = time.monotonic()
            response = client.post(reverse("submit"), GAUSSIAN_FORM)
            ended = time.monotonic()
            body = response.content.decode()
            if response.status_code == 302:
                kind = "admitted"
            elif "Not enough privacy budget" in body:
                kind = "rejected"
            else:
                kind = f"unexpected {response.status_code}"
            with lock:
                outcomes.append(Outcome(kind, started, ended))
        except BaseException as exc:  # re-raised in the main thread
            barrier.abort()
            with lock:
                failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    if failures:
        raise failures[0]
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_caps_hold_under_50_concurrent_requests(alice, gaussian_mechanism_available):
    UserBudget.objects.create(user=alice, epsilon_cap=CAP_EPSILON, delta_cap=CAP_DELTA)
    planned = plan_rewrite(
        TEXT, GAUSSIAN_SETTINGS.with_changes(epsilon=4.0, delta=1e-3, composition="gdp")
    ).receipt
    cost = costs.release_cost(planned).mu_squared
    cap = costs.cap_mu_squared(CAP_EPSILON, CAP_DELTA)
    most_that_fit = math.floor(cap / cost)

    started = time.monotonic()
    outcomes = post_concurrently(alice, N_REQUESTS)
    seconds = time.monotonic() - started
    kinds = [o.kind for o in outcomes]
    admitted, rejected = kinds.count("admitted"), kinds.count("rejected")
    first_end = min(o.ended for o in outcomes)
    in_flight = sum(1 for o in outcomes if o.started < first_end)
    committed = budget_summary(alice)

    # settle the admitted jobs as the worker would, so the reservations become spent budget
    for job in RewriteJob.objects.filter(owner=alice):
        services.claim_job(job.pk)
        services.complete_job(job.pk, RewriteResult(TEXT, "rewritten", [], planned))
    spent = budget_summary(alice)

    numbers = {
        "vendor": connection.vendor,
        "requests": N_REQUESTS,
        "admitted": admitted,
        "rejected": rejected,
        "in_flight_at_once": in_flight,
        "seconds": round(seconds, 2),
        "job_mu_squared": cost,
        "cap_mu_squared": cap,
        "cap": [CAP_EPSILON, CAP_DELTA],
        "job_epsilon": [4.0, 1e-3],
        "epsilon_committed_after_requests": committed.epsilon_committed,
        "epsilon_spent_after_completion": spent.epsilon_spent,
        "basic_epsilon_after_completion": spent.basic_epsilon,
    }
    print("\nledger concurrency:", json.dumps(numbers))
    if os.environ.get(RESULT_ENV):
        Path(os.environ[RESULT_ENV]).write_text(json.dumps(numbers))

    assert len(outcomes) == N_REQUESTS and admitted + rejected == N_REQUESTS, kinds
    assert in_flight > 1  # the requests really overlapped
    assert rejected > 0
    assert admitted * cost <= cap
    assert admitted == most_that_fit  # serialised, not merely refusing under contention
    assert RewriteJob.objects.filter(owner=alice).count() == admitted
    assert LedgerEntry.objects.filter(owner=alice, status="charged").count() == admitted
    assert committed.epsilon_committed <= CAP_EPSILON
    assert spent.epsilon_spent <= CAP_EPSILON
    assert spent.epsilon_spent == pytest.approx(committed.epsilon_committed)


@pytest.mark.postgres
def test_caps_hold_under_50_concurrent_requests_on_postgresql(postgres_url, tmp_path):
    """The test above, in a child pytest whose Django uses a fresh PostgreSQL server."""
    result = tmp_path / "numbers.json"
    env = {**os.environ, "DATABASE_URL": postgres_url, RESULT_ENV: str(result)}
    env.pop("TEST_DATABASE_NAME", None)
    test_id = f"{Path(__file__).relative_to(ROOT)}::test_caps_hold_under_50_concurrent_requests"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", test_id, "-q", "-s", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    numbers = json.loads(result.read_text())
    print("\nledger concurrency on PostgreSQL:", json.dumps(numbers))
    assert numbers["vendor"] == "postgresql"
    assert numbers["requests"] == N_REQUESTS and numbers["rejected"] > 0
    assert numbers["admitted"] * numbers["job_mu_squared"] <= numbers["cap_mu_squared"]
    assert numbers["epsilon_spent_after_completion"] <= CAP_EPSILON
