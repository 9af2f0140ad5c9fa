"""The database-aggregated budget summary (pages, admission) equals the row-by-row one."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.webapp.ledger.helpers import (
    gaussian_receipt,
    no_noise_receipt,
    redact_receipt,
    run_job,
    submit,
    token_receipt,
)
from webapp.jobs import services
from webapp.jobs.models import RewriteJob
from webapp.ledger import services as ledger
from webapp.ledger.services import budget_summary, cap_for, ledger_entries

pytestmark = pytest.mark.django_db

NUMBERS = [
    "mu_squared_spent",
    "mu_squared_reserved",
    "basic_epsilon",
    "basic_delta",
    "epsilon_spent",
    "epsilon_committed",
    "epsilon_remaining",
]


def a_varied_ledger(user):  # type: ignore[no-untyped-def]
    for k in (1, 2, 5):
        run_job(user, gaussian_receipt(2.0, 1e-4, k, composition="basic"))
    run_job(user, gaussian_receipt(1.0, 1e-4, 3, metric_unit=0.5))
    for n in (2, 4):
        run_job(user, token_receipt(n))
    run_job(user, redact_receipt())
    run_job(user, no_noise_receipt())
    submit(user, gaussian_receipt(1.0, 1e-5, 2))  # queued: reserved
    running = submit(user, gaussian_receipt(0.5, 1e-5, 2))
    services.claim_job(running.pk)  # running: reserved
    failed = submit(user, gaussian_receipt(0.5, 1e-5, 2))
    services.claim_job(failed.pk)
    services.fail_job(failed.pk, "crashed")  # released
    noised = submit(user, gaussian_receipt(0.5, 1e-5, 2))
    services.claim_job(noised.pk)
    RewriteJob.objects.filter(pk=noised.pk).update(noised_release=True, state="failed")


def test_the_aggregate_summary_equals_the_row_by_row_one(alice):
    a_varied_ledger(alice)
    fast = budget_summary(alice)
    slow = ledger._summarise(cap_for(alice), ledger_entries(alice.pk))
    for name in NUMBERS:
        assert getattr(fast, name) == pytest.approx(getattr(slow, name), rel=1e-12), name
    assert (
        (fast.n_reserved_jobs, fast.n_gaussian_releases)
        == (
            slow.n_reserved_jobs,
            slow.n_gaussian_releases,
        )
        == (2, 5)
    )
    for kind in ("d_privacy", "other", "no_guarantee"):
        assert getattr(fast, f"{kind}_count") == len(getattr(slow, kind)) > 0, kind
        assert {r.job_id for r in getattr(fast, kind)} == {r.job_id for r in getattr(slow, kind)}
    assert fast.other_totals == slow.other_totals
    assert fast.coverage == slow.coverage


def test_listed_releases_are_capped_but_counted(alice, monkeypatch):
    monkeypatch.setattr(ledger, "LISTED_RELEASES", 2)
    newest = [run_job(alice, redact_receipt()).pk for _ in range(4)][-2:]
    summary = budget_summary(alice)
    assert summary.no_guarantee_count == 4
    assert [r.job_id for r in summary.no_guarantee] == newest


def test_the_summary_takes_the_same_few_queries_for_ten_jobs_or_forty(alice):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            budget_summary(alice)
        return len(captured)

    for _ in range(10):
        run_job(alice, token_receipt(2))
    first, again = queries(), queries()  # the second reads the settled totals from the cache
    for _ in range(30):
        run_job(alice, token_receipt(2))
    assert (queries(), queries()) == (first, again)
    assert first <= 7 and again <= 4
