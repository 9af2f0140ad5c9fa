"""ledger.reserve_for_jobs: a batch is admitted whole or not at all, under one lock."""

import threading

import pytest
from django.db import connections, transaction

from anonymizer import Settings
from tests.factories import DocumentFactory
from tests.webapp.ledger.helpers import gaussian_receipt, redact_receipt, run_job
from webapp.batches.models import Batch
from webapp.batches.services import BatchDocument, submit_batch
from webapp.jobs import services
from webapp.jobs.models import RewriteJob
from webapp.ledger.models import LedgerEntry, UserBudget
from webapp.ledger.services import BatchBudgetExceeded, budget_summary

pytestmark = pytest.mark.django_db
GDP_4 = Settings(mechanism="dp-embed-invert", detector="regex", epsilon=4, composition="gdp")


def _documents(user, n: int):  # type: ignore[no-untyped-def]
    return [DocumentFactory(owner=user) for _ in range(n)]


def test_jobs_that_all_fit_are_reserved_together(alice, gaussian_mechanism_available):
    UserBudget.objects.create(user=alice, epsilon_cap=16.0, delta_cap=1e-3)
    jobs = services.submit_jobs(
        alice, _documents(alice, 3), GDP_4, [gaussian_receipt(4.0, 1e-3, 1)] * 3
    )
    assert LedgerEntry.objects.filter(status="reserved").count() == 3
    assert budget_summary(alice).n_reserved_jobs == 3 and {j.state for j in jobs} == {"queued"}


def test_a_batch_that_does_not_fit_reserves_nothing_and_says_how_many_would(
    alice, gaussian_mechanism_available
):
    # ε = 4 each: two compose to ε ≈ 6.2, three to ε ≈ 8.1 (exact composition)
    UserBudget.objects.create(user=alice, epsilon_cap=7.0, delta_cap=1e-3)
    with pytest.raises(BatchBudgetExceeded) as refused:
        services.submit_jobs(
            alice, _documents(alice, 3), GDP_4, [gaussian_receipt(4.0, 1e-3, 1)] * 3
        )
    assert (refused.value.n_fit, refused.value.n_total) == (2, 3)
    assert "takes only 2 of them" in str(refused.value)
    assert not RewriteJob.objects.exists() and not LedgerEntry.objects.exists()


def test_what_is_already_spent_and_reserved_counts(alice, gaussian_mechanism_available):
    UserBudget.objects.create(user=alice, epsilon_cap=7.0, delta_cap=1e-3)
    run_job(alice, gaussian_receipt(4.0, 1e-3, 1))  # spent: one ε = 4 release
    with pytest.raises(BatchBudgetExceeded) as refused:
        services.submit_jobs(
            alice, _documents(alice, 2), GDP_4, [gaussian_receipt(4.0, 1e-3, 1)] * 2
        )
    assert refused.value.n_fit == 1
    assert LedgerEntry.objects.count() == 1  # only the earlier, charged one


def test_when_not_even_one_fits_the_single_job_explanation_is_given(
    alice, gaussian_mechanism_available
):
    UserBudget.objects.create(user=alice, epsilon_cap=2.0, delta_cap=1e-3)
    with pytest.raises(BatchBudgetExceeded, match="not even the first fits.*Not enough"):
        services.submit_jobs(
            alice, _documents(alice, 2), GDP_4, [gaussian_receipt(4.0, 1e-3, 1)] * 2
        )


def test_releases_without_a_cost_are_admitted_in_any_number(alice):
    UserBudget.objects.create(user=alice, epsilon_cap=0.1, delta_cap=1e-3)
    settings = Settings(mechanism="redact", detector="regex")
    services.submit_jobs(alice, _documents(alice, 5), settings, [redact_receipt()] * 5)
    assert LedgerEntry.objects.filter(kind="none").count() == 5


@pytest.mark.django_db(transaction=True)
def test_it_refuses_to_run_outside_a_transaction():
    from webapp.ledger.services import reserve_for_jobs

    with pytest.raises(RuntimeError, match="inside the jobs' transaction"):
        reserve_for_jobs([], [])


def test_jobs_of_another_users_documents_are_refused(alice, bob):
    with pytest.raises(PermissionError):
        services.submit_jobs(alice, _documents(bob, 1), GDP_4, [gaussian_receipt()])


@pytest.mark.django_db(transaction=True)
def test_concurrent_batches_never_exceed_the_cap(django_user_model, gaussian_mechanism_available):
    """Four batches of two ε = 4 documents at once against a cap that takes three documents
    (ε ≈ 8.1 ≤ 9 < ε ≈ 9.8 for four): exactly one batch is admitted, whole."""
    alice = django_user_model.objects.create_user("alice", password="x-pass-12345")
    UserBudget.objects.create(user=alice, epsilon_cap=9.0, delta_cap=1e-3)
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def submit_one(i: int) -> None:
        try:
            documents = [BatchDocument(f"{i}-{k}.txt", f"text {i} {k}", "txt") for k in range(2)]
            barrier.wait(timeout=60)
            submit_batch(alice, name=f"b{i}", documents=documents, rewrite_settings=GDP_4)
            outcomes.append("admitted")
        except BatchBudgetExceeded:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=submit_one, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert sorted(outcomes) == ["admitted", "refused", "refused", "refused"]
    assert Batch.objects.count() == 1 and RewriteJob.objects.count() == 2
    assert LedgerEntry.objects.filter(status="reserved").count() == 2
    assert budget_summary(alice).epsilon_committed <= 9.0
    assert transaction.get_autocommit()
