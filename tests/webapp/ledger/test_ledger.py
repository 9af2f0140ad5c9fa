"""The ledger's figures, reservations, charges and releases, through the job services."""

import math
from dataclasses import replace

import pytest
from django.db import IntegrityError, transaction
from dp_accounting import ComposedDpEvent, GaussianDpEvent
from dp_accounting.pld import PLDAccountant

from anonymizer import RewriteResult
from anonymizer.accounting import gaussian_epsilon, gdp_mu
from anonymizer.receipts import receipt_dict
from tests.factories import DocumentFactory, JobFactory
from tests.webapp.ledger.helpers import (
    GAUSSIAN_SETTINGS,
    TEXT,
    complete,
    event_receipt,
    gaussian_receipt,
    no_noise_receipt,
    redact_receipt,
    run_job,
    submit,
    token_receipt,
)
from webapp.jobs import services
from webapp.jobs.models import Document, RewriteJob
from webapp.ledger import costs
from webapp.ledger.models import DefaultBudget, LedgerEntry, UserBudget
from webapp.ledger.services import (
    BudgetExceeded,
    budget_summary,
    charge_job,
    ensure_budget,
    remaining_after,
    reserve_for_job,
)

pytestmark = pytest.mark.django_db
HETEROGENEOUS = [(2.0, 1.0), (3.0, 1.0), (5.0, 2.0), (1.5, 1.0)]  # (σ, Δ), spec §2.4


def set_cap(user, epsilon: float | None, delta: float) -> None:  # type: ignore[no-untyped-def]
    UserBudget.objects.update_or_create(
        user=user, defaults={"epsilon_cap": epsilon, "delta_cap": delta}
    )


def pld_epsilon(user, delta: float) -> float:  # type: ignore[no-untyped-def]
    """The audit figure from dp_accounting's PLD accountant over the stored events."""
    events = [
        GaussianDpEvent(e["sigma"] / e["sensitivity"])
        for entry in LedgerEntry.objects.filter(owner=user, status="charged")
        for e in entry.events
    ]
    return PLDAccountant().compose(ComposedDpEvent(events)).get_epsilon(delta)


# --- figures --------------------------------------------------------------------------


def test_the_heterogeneous_spec_ledger_gives_the_exact_epsilon(alice):
    set_cap(alice, None, 1e-5)
    for sigma, sensitivity in HETEROGENEOUS:
        run_job(alice, event_receipt(sigma, sensitivity, 1e-5))
    summary = budget_summary(alice)
    assert summary.mu_squared_spent == pytest.approx(0.9655555556, abs=1e-10)
    assert summary.epsilon_spent == pytest.approx(4.289309, abs=1e-6)
    assert abs(summary.epsilon_spent - pld_epsilon(alice, 1e-5)) < 1e-6
    basic = sum(gaussian_epsilon(s, 1e-5, d) for s, d in HETEROGENEOUS)
    assert summary.basic_epsilon == pytest.approx(basic)
    assert summary.basic_delta == pytest.approx(4e-5)
    assert summary.basic_epsilon > summary.epsilon_spent


def test_spent_epsilon_agrees_with_the_pld_accountant_for_mixed_jobs(alice):
    set_cap(alice, 100.0, 1e-3)
    run_job(alice, gaussian_receipt(4, 1e-3, 3, composition="basic"))
    run_job(alice, gaussian_receipt(8, 5e-4, 2, composition="zcdp"))
    run_job(alice, gaussian_receipt(2, 1e-5, 4, composition="gdp", clip_radius=1.0))
    summary = budget_summary(alice)
    events = LedgerEntry.objects.get(n_chunks=3).events
    assert len(events) == 3 and {e["sensitivity"] for e in events} == {3.0}
    assert summary.n_gaussian_releases == 3
    assert abs(summary.epsilon_spent - pld_epsilon(alice, 1e-3)) < 1e-6
    assert summary.basic_epsilon == pytest.approx(4 + 8 + 2)


def test_two_requests_of_half_the_cap_spend_exactly_the_cap_and_nothing_more_fits(alice):
    set_cap(alice, 16.0, 1e-3)
    assert gdp_mu(16, 1e-3) == pytest.approx(3.4649336439, rel=1e-9)
    half = gaussian_receipt(16, 1e-3, 4, composition="gdp")  # μ² of 4 chunks = μ_B²
    assert half.sigma == pytest.approx(1.73163489, rel=1e-8)
    # two requests of K = 2 chunks each, at σ of the K = 4 plan: each is half of μ_B²
    first, second = (replace(half, n_chunks=2) for _ in range(2))
    run_job(alice, first)
    run_job(alice, second)
    summary = budget_summary(alice)
    assert summary.epsilon_spent == pytest.approx(16.0, abs=1e-6)
    assert summary.epsilon_remaining == pytest.approx(0.0, abs=1e-6)
    with pytest.raises(BudgetExceeded):
        submit(alice, gaussian_receipt(0.01, 1e-3, 1))


def test_an_empty_ledger_is_zero_and_no_cap_leaves_no_remaining_figure(alice):
    set_cap(alice, None, 1e-5)
    summary = budget_summary(alice)
    assert summary.epsilon_spent == 0.0 and summary.basic_epsilon == 0.0
    assert not summary.capped and summary.epsilon_remaining is None


def test_d_privacy_is_charged_at_its_worst_case_and_listed_with_its_unit(alice):
    set_cap(alice, 64.0, 1e-3)
    receipt = gaussian_receipt(4, 1e-3, 2, composition="basic", metric_unit=0.5)
    run_job(alice, receipt)
    entry = LedgerEntry.objects.get()
    assert entry.kind == "d-privacy" and entry.metric_unit == 0.5
    assert entry.events[0]["sensitivity"] == 3.0  # 2C, not the unit
    summary = budget_summary(alice)
    assert summary.mu_squared_spent == pytest.approx(2 * (3.0 / receipt.sigma) ** 2)
    [listed] = summary.d_privacy
    assert listed.epsilon == 4 and listed.metric_unit == 0.5
    assert listed.worst_case_epsilon == pytest.approx(
        receipt.details["worst_case_epsilon_at_2C"], rel=1e-9
    )
    assert summary.basic_epsilon == pytest.approx(listed.worst_case_epsilon)


def test_token_sanitizers_redaction_and_inf_cost_nothing_and_are_listed_apart(alice):
    set_cap(alice, 1.0, 1e-5)
    run_job(alice, token_receipt(3, 2.0))
    run_job(alice, token_receipt(2, 2.0))
    run_job(alice, redact_receipt())
    run_job(alice, no_noise_receipt())
    summary = budget_summary(alice)
    assert summary.mu_squared_spent == 0.0 and summary.n_gaussian_releases == 0
    assert [(t.notion, t.n_jobs, t.epsilon_sum) for t in summary.other_totals] == [
        ("eps-metric-LDP per token (Euclidean)", 2, 10.0)
    ]
    assert {r.mechanism for r in summary.no_guarantee} == {"redact", "dp-embed-invert"}
    assert summary.epsilon_remaining == pytest.approx(1.0)


# --- one entry per job ------------------------------------------------------------------


def test_a_redelivered_task_cannot_charge_a_job_twice(alice):
    receipt = gaussian_receipt(4, 1e-3, 2)
    job = run_job(alice, receipt)
    before = budget_summary(alice).mu_squared_spent
    services.complete_job(job.pk, RewriteResult(TEXT, "again", [], receipt))  # re-delivery
    charge_job(job, receipt)  # even a direct second charge
    assert LedgerEntry.objects.filter(job=job).count() == 1
    assert budget_summary(alice).mu_squared_spent == before
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerEntry.objects.create(
            job=job, owner=alice, status="charged", kind="gaussian", mechanism="x", notion="x"
        )


def test_the_charge_is_stored_in_the_receipts_transaction(alice, monkeypatch):
    job = submit(alice, gaussian_receipt())
    services.claim_job(job.pk)

    def broken(*args):  # type: ignore[no-untyped-def]
        raise RuntimeError("ledger unavailable")

    monkeypatch.setattr("webapp.ledger.services.charge_job", broken)
    with pytest.raises(RuntimeError):
        services.complete_job(job.pk, RewriteResult(TEXT, "out", [], gaussian_receipt()))
    job.refresh_from_db()
    assert job.state == "running" and not hasattr(job, "receipt")


def test_a_job_created_outside_submit_is_charged_when_it_completes(alice):
    job = JobFactory(owner=alice)
    complete(job, gaussian_receipt())
    assert LedgerEntry.objects.get(job=job).status == "charged"


# --- caps -----------------------------------------------------------------------------


def test_a_submission_over_the_cap_is_refused_with_what_remains_and_what_fits(alice):
    set_cap(alice, 8.0, 1e-3)
    run_job(alice, gaussian_receipt(6, 1e-3, 2))
    too_big = gaussian_receipt(10, 1e-3, 3, composition="basic")
    with pytest.raises(BudgetExceeded) as refused:
        services.submit_text(
            alice, name="n", text=TEXT, rewrite_settings=GAUSSIAN_SETTINGS, planned=too_big
        )
    message = str(refused.value)
    after = refused.value.after
    assert "ε = 8 at δ = 0.001" in message
    assert f"one more release of ε = {costs.fmt(after.epsilon_remaining_before)}" in message
    assert f"fits with ε ≤ {costs.fmt(after.largest_fitting_epsilon)}" in message
    assert not Document.objects.filter(name="n").exists()  # nothing stored
    assert RewriteJob.objects.count() == 1
    # what the message says fits does fit, and a little more does not
    fitting = after.largest_fitting_epsilon
    assert (
        remaining_after(alice, gaussian_receipt(fitting * 1.01, 1e-3, 3, composition="basic")).fits
        is False
    )
    submit(alice, gaussian_receipt(fitting, 1e-3, 3, composition="basic"))


def test_a_used_up_budget_says_nothing_fits(alice):
    set_cap(alice, 4.0, 1e-3)
    run_job(alice, gaussian_receipt(4, 1e-3, 2))
    with pytest.raises(BudgetExceeded, match="Nothing usable remains"):
        submit(alice, gaussian_receipt(1, 1e-3, 1))


def test_a_zero_delta_cap_admits_no_gaussian_release_but_admits_redaction(alice):
    set_cap(alice, 10.0, 0.0)
    with pytest.raises(BudgetExceeded):
        submit(alice, gaussian_receipt(1, 1e-3, 1))
    submit(alice, redact_receipt())


def test_queued_jobs_hold_their_reservation(alice):
    set_cap(alice, 16.0, 1e-3)
    for _ in range(8):
        submit(alice, gaussian_receipt(4, 1e-3, 2))  # 8 × μ(4)² ≈ 11.8 ≤ μ(16)² ≈ 12.0
    with pytest.raises(BudgetExceeded, match="8 queued or running jobs"):
        submit(alice, gaussian_receipt(4, 1e-3, 2))
    summary = budget_summary(alice)
    assert summary.n_reserved_jobs == 8 and summary.mu_squared_spent == 0


@pytest.mark.django_db(transaction=True)
def test_reservation_must_run_in_the_jobs_transaction(alice):
    job = JobFactory(owner=alice)
    with pytest.raises(RuntimeError):
        reserve_for_job(job, redact_receipt())


def test_remaining_after_previews_the_budget_without_reserving(alice):
    set_cap(alice, 16.0, 1e-3)
    after = remaining_after(alice, gaussian_receipt(4, 1e-3, 2))
    assert after.fits and after.chargeable
    assert after.epsilon_spent_after == pytest.approx(4.0, rel=1e-6)
    assert 0 < after.epsilon_remaining_after < 16
    assert "will remain" in after.message
    assert after.more_like_this == 7  # 8 jobs at ε = 4 fit in ε = 16 (exact composition)
    assert "enough for 7 more jobs like this" in after.message
    assert not LedgerEntry.objects.exists()
    redaction = remaining_after(alice, redact_receipt())
    assert redaction.fits and not redaction.chargeable and "no formal privacy" in redaction.message


def test_a_new_user_gets_the_default_cap_set_by_an_admin(alice, bob, settings):
    settings.DEFAULT_BUDGET_EPSILON, settings.DEFAULT_BUDGET_DELTA = 32.0, 1e-4
    assert (ensure_budget(alice).epsilon_cap, ensure_budget(alice).delta_cap) == (32.0, 1e-4)
    DefaultBudget.objects.create(pk=1, epsilon_cap=5.0, delta_cap=1e-6)
    assert ensure_budget(bob).epsilon_cap == 5.0
    assert ensure_budget(alice).epsilon_cap == 32.0  # existing caps stay


def test_no_cap_is_the_default_when_configured_as_inf(alice, settings):
    settings.DEFAULT_BUDGET_EPSILON = math.inf
    assert ensure_budget(alice).epsilon_cap is None
    submit(alice, gaussian_receipt(1000, 1e-3, 2))


# --- releases ---------------------------------------------------------------------------


def _reserved_state(user):  # type: ignore[no-untyped-def]
    s = budget_summary(user)
    return s.n_reserved_jobs, s.mu_squared_spent


def test_a_failed_job_releases_its_reservation(alice):
    job = submit(alice, gaussian_receipt())
    services.claim_job(job.pk)
    services.fail_job(job.pk, "out of memory")
    assert LedgerEntry.objects.get(job=job).status == "released"
    assert _reserved_state(alice) == (0, 0)


def test_a_cancelled_queued_job_releases_its_reservation(alice):
    job = submit(alice, gaussian_receipt())
    services.cancel_job(job)
    assert LedgerEntry.objects.get(job=job).status == "released"
    assert _reserved_state(alice) == (0, 0)


def test_a_running_job_that_stops_on_cancel_releases_its_reservation(alice):
    job = submit(alice, gaussian_receipt())
    services.claim_job(job.pk)
    services.cancel_job(job)
    assert LedgerEntry.objects.get(job=job).status == "reserved"  # still running
    services.finish_cancelled(job.pk)
    assert LedgerEntry.objects.get(job=job).status == "released"


@pytest.mark.parametrize("end", ["fail", "cancel"])
def test_a_job_that_ends_after_a_noised_release_stays_charged(alice, end):
    receipt = gaussian_receipt()
    job = submit(alice, receipt)
    services.claim_job(job.pk)
    RewriteJob.objects.filter(pk=job.pk).update(noised_release=True)
    if end == "fail":
        services.fail_job(job.pk, "crashed after releasing")
    else:
        services.finish_cancelled(job.pk)
    assert LedgerEntry.objects.get(job=job).status == "charged"
    assert budget_summary(alice).mu_squared_spent == pytest.approx(
        costs.release_cost(receipt).mu_squared
    )


def test_jobs_failed_by_the_stale_job_reaper_stop_holding_budget(alice, settings):
    from webapp.jobs.sweep import recover_stale_jobs

    settings.JOB_MAX_ATTEMPTS = 1  # a lost worker on the last attempt fails the job
    job = submit(alice, gaussian_receipt())
    services.claim_job(job.pk)
    RewriteJob.objects.filter(pk=job.pk).update(heartbeat_at="2000-01-01T00:00:00Z")
    assert recover_stale_jobs().failed == [job.pk]
    assert _reserved_state(alice) == (0, 0)


def test_a_stored_payload_reads_back_as_the_same_cost(alice):
    for receipt in (
        gaussian_receipt(),
        no_noise_receipt(),
        token_receipt(),
        gaussian_receipt(4, 1e-3, 2, metric_unit=0.5),
    ):
        again = costs.receipt_from_payload(receipt_dict(receipt))
        assert costs.release_cost(again) == costs.release_cost(receipt)


def test_a_document_of_another_user_cannot_reserve(alice, bob):
    with pytest.raises(PermissionError):
        services.submit_job(alice, DocumentFactory(owner=bob), GAUSSIAN_SETTINGS)
