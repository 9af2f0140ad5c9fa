"""Item 7: no output is stored whose charge would break the cap.

Under basic composition a document's cost falls as K grows (ε 16, δ 1e-3: μ² = 12.006, 8.008,
6.047, 4.867 for K = 1…4), so two jobs reserved at K = 4 and charged at K = 2 used to end at
ε = 19.64 against a cap of 16. The charge now re-checks the cap in the transaction that
stores the output and fails the job (nothing stored) when it cannot take the real cost.
"""

from __future__ import annotations

import pytest

from anonymizer.accounting import composed_epsilon
from tests.webapp.ledger.helpers import complete, gaussian_receipt, submit
from webapp.jobs.models import Receipt, RewriteJob
from webapp.ledger import costs
from webapp.ledger.models import LedgerEntry, UserBudget
from webapp.ledger.services import budget_summary

pytestmark = pytest.mark.django_db


def basic(k: int):  # type: ignore[no-untyped-def]
    return gaussian_receipt(16.0, 1e-3, k, composition="basic")


def test_item7_basic_composition_costs_less_at_larger_k() -> None:
    mu2 = [costs.release_cost(basic(k)).mu_squared for k in (1, 2, 3, 4)]
    assert mu2 == pytest.approx([12.006, 8.008, 6.047, 4.867], abs=1e-3)
    assert composed_epsilon(2 * mu2[1], 1e-3) == pytest.approx(19.64, abs=0.01)  # the old end
    assert costs.cap_mu_squared(16.0, 1e-3) == pytest.approx(12.006, abs=1e-3)


def test_item7_two_jobs_reserved_at_k4_and_charged_at_k2_never_break_the_cap(alice) -> None:  # type: ignore[no-untyped-def]
    UserBudget.objects.create(user=alice, epsilon_cap=16.0, delta_cap=1e-3)
    first, second = submit(alice, basic(4)), submit(alice, basic(4))  # both fit: 2 × 4.867
    first = complete(first, basic(2))  # 8.008 + the other's 4.867 > 12.006: refused
    assert first.state == RewriteJob.State.FAILED
    assert "above what was reserved" in first.error and "Nothing was stored" in first.error
    assert first.output == "" and not Receipt.objects.filter(job=first).exists()
    assert LedgerEntry.objects.get(job=first).status == "released"
    second = complete(second, basic(2))  # 8.008 alone fits
    assert second.state == RewriteJob.State.SUCCEEDED
    summary = budget_summary(alice)
    assert summary.mu_squared_spent <= summary.mu_squared_cap
    assert summary.epsilon_spent <= 16.0
    assert summary.epsilon_spent == pytest.approx(composed_epsilon(8.008, 1e-3), abs=1e-3)


def test_item7_a_charge_within_its_reservation_needs_no_recheck(alice) -> None:  # type: ignore[no-untyped-def]
    UserBudget.objects.create(user=alice, epsilon_cap=16.0, delta_cap=1e-3)
    job = complete(submit(alice, basic(2)), basic(4))  # cheaper than reserved
    assert job.state == RewriteJob.State.SUCCEEDED
    entry = LedgerEntry.objects.get(job=job)
    assert entry.status == "charged" and entry.n_chunks == 4


def test_item7_a_job_never_reserved_is_checked_against_the_cap_too(alice) -> None:  # type: ignore[no-untyped-def]
    from tests.factories import DocumentFactory
    from webapp.ledger.services import ChargeRefused, charge_job

    UserBudget.objects.create(user=alice, epsilon_cap=4.0, delta_cap=1e-3)
    document = DocumentFactory(owner=alice)
    job = RewriteJob.objects.create(owner=alice, document=document, mechanism="dp-embed-invert")
    with pytest.raises(ChargeRefused):
        charge_job(job, basic(1))
    assert not LedgerEntry.objects.filter(job=job).exists()
