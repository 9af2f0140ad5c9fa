"""Pages read a user's settled ledger totals from a per-process cache, checked on every read.

A copy is used only while the user's charged entries have the same count and latest settling
time, so a charge made by any process (a worker, another web worker) shows on the next page.
"""

import re

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.db.models.signals import post_migrate
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from anonymizer.accounting import composed_epsilon
from tests.webapp.ledger.helpers import (
    gaussian_receipt,
    redact_receipt,
    run_job,
    submit,
    token_receipt,
)
from tests.webapp.ledger.test_aggregate_summary import NUMBERS, a_varied_ledger
from webapp.jobs.models import RewriteJob
from webapp.ledger import costs
from webapp.ledger import services as ledger
from webapp.ledger.models import LedgerEntry
from webapp.ledger.services import budget_summary, cap_for

pytestmark = pytest.mark.django_db


def _fresh(user):  # type: ignore[no-untyped-def]
    """The summary summed from the database, bypassing the cache."""
    return ledger._aggregate_summary(cap_for(user), user.pk)


def _same(a, b) -> None:  # type: ignore[no-untyped-def]
    for name in NUMBERS:
        assert getattr(a, name) == getattr(b, name), name
    assert (a.n_gaussian_releases, a.n_reserved_jobs) == (b.n_gaussian_releases, b.n_reserved_jobs)
    for kind in ("d_privacy", "other", "no_guarantee"):
        assert getattr(a, kind) == getattr(b, kind), kind
        assert getattr(a, f"{kind}_count") == getattr(b, f"{kind}_count"), kind
    assert a.other_totals == b.other_totals and a.coverage == b.coverage


def test_a_cached_summary_equals_one_summed_afresh(alice):
    a_varied_ledger(alice)
    budget_summary(alice)  # fills the cache
    _same(budget_summary(alice), _fresh(alice))


def test_the_second_page_reads_the_settled_totals_from_the_cache(alice):
    run_job(alice, gaussian_receipt(1.0, 1e-3, 2))
    budget_summary(alice)
    with CaptureQueriesContext(connection) as captured:
        budget_summary(alice)
    sql = [query["sql"] for query in captured.captured_queries]
    assert not any("SUM(" in query for query in sql), sql  # only the fingerprint is read
    assert len(sql) <= 4  # the cap (2 without a stored one), the fingerprint, pending entries


def _summary_queries(user) -> list[str]:  # type: ignore[no-untyped-def]
    budget_summary(user)  # fills the cache
    with CaptureQueriesContext(connection) as captured:
        summary = budget_summary(user)
    _same(summary, _fresh(user))
    return [query["sql"] for query in captured.captured_queries]


def test_pending_entries_are_read_only_while_the_user_has_reserved_ones(alice):
    run_job(alice, gaussian_receipt(1.0, 1e-3, 2))
    settled = _summary_queries(alice)
    job = submit(alice, gaussian_receipt(1.0, 1e-3, 2))  # queued: its reservation counts
    queued = _summary_queries(alice)
    assert len(queued) == len(settled) + 1
    assert budget_summary(alice).n_reserved_jobs == 1
    RewriteJob.objects.filter(pk=job.pk).update(state="failed")  # the reaper's way: no release
    assert budget_summary(alice).n_reserved_jobs == 0  # still read, and counted as released
    LedgerEntry.objects.filter(job=job).update(status="released", settled_at=timezone.now())
    assert len(_summary_queries(alice)) == len(settled)


def test_a_charge_written_by_another_process_shows_on_the_next_summary(alice):
    job = submit(alice, gaussian_receipt(1.0, 1e-3, 2))
    before = budget_summary(alice)
    assert (before.n_gaussian_releases, before.n_reserved_jobs) == (0, 1)
    # what a worker's charge_job does in its own process: this one's cache never hears of it
    LedgerEntry.objects.filter(job=job).update(status="charged", settled_at=timezone.now())
    after = budget_summary(alice)
    assert (after.n_gaussian_releases, after.n_reserved_jobs) == (1, 0)
    _same(after, _fresh(alice))


def test_a_rolled_back_charge_does_not_stay_in_the_summary(alice):
    run_job(alice, redact_receipt())
    with pytest.raises(RuntimeError), transaction.atomic():
        run_job(alice, gaussian_receipt(1.0, 1e-3, 2))
        assert budget_summary(alice).n_gaussian_releases == 1  # cached inside the transaction
        raise RuntimeError("roll back")
    run_job(alice, gaussian_receipt(3.0, 1e-3, 2))  # as many charges as the rolled-back state
    summary = budget_summary(alice)
    assert summary.n_gaussian_releases == 1
    _same(summary, _fresh(alice))


def test_the_remembered_epsilon_is_the_exact_solve():
    for mu_squared in (0.0, 0.3, 2.5, 400.0):
        assert costs.epsilon_at(mu_squared, 1e-5) == composed_epsilon(mu_squared, 1e-5)


def _listed_jobs(page: str) -> list[int]:
    box = page.split('id="budget-summary"', 1)[1].split("</section>", 1)[0]
    return [int(job) for job in re.findall(r"<li>job (\d+) ", box)]


def test_the_history_page_lists_each_new_release_after_the_cache_was_filled(client, alice):
    client.force_login(alice)
    jobs = [run_job(alice, redact_receipt()).pk]
    for _ in range(2):
        assert _listed_jobs(client.get("/history/").content.decode()) == jobs
        jobs.append(run_job(alice, redact_receipt()).pk)  # a charge made after the render
    jobs.append(run_job(alice, token_receipt(3)).pk)  # the other notions' totals, not listed
    page = client.get("/history/").content.decode()
    assert _listed_jobs(page) == jobs[:3]
    assert "Other notions (1)" in page


def test_migrate_forgets_the_totals_a_data_migration_may_have_rewritten(alice):
    run_job(alice, gaussian_receipt(1.0, 1e-3, 2))
    assert budget_summary(alice).mu_squared_spent > 0
    LedgerEntry.objects.filter(owner=alice).update(mu_squared=0.0)  # in place, as 0003 did
    assert budget_summary(alice).mu_squared_spent > 0  # the fingerprint cannot see it...
    ledger_app = apps.get_app_config("ledger")
    post_migrate.send(
        sender=ledger_app,
        app_config=ledger_app,
        verbosity=0,
        interactive=False,
        using="default",
        apps=apps,
        plan=[],
    )
    assert budget_summary(alice).mu_squared_spent == 0  # ...so `migrate` empties the cache
