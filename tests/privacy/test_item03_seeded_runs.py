"""Item 3: a seeded run claims nothing, is listed among releases without a guarantee, and only
staff see the seed field (by default)."""

from __future__ import annotations

import math

import pytest
from django.apps import apps
from django.urls import reverse

import anonymizer
from anonymizer.receipts import SEEDED_NOTION
from tests.privacy.token_setup import audited
from tests.webapp.ledger.helpers import GAUSSIAN_SETTINGS, TEXT, run_job
from webapp.jobs.forms import SubmitForm
from webapp.ledger.costs import NONE, release_cost
from webapp.ledger.models import LedgerEntry, UserBudget
from webapp.ledger.services import budget_summary, forget_settled_totals

MIGRATION = "0003_formal_guarantee_policy_and_seeded_runs"


def seeded_gaussian_receipt(seed: int = 7):  # type: ignore[no-untyped-def]
    return anonymizer.plan(TEXT, GAUSSIAN_SETTINGS.with_changes(seed=seed, epsilon=4.0)).receipt


def test_item3_a_seeded_gaussian_receipt_says_it_is_not_private() -> None:
    receipt = seeded_gaussian_receipt()
    assert receipt.seeded and receipt.notion == SEEDED_NOTION
    assert "NO privacy guarantee" in receipt.statement and "(eps,delta)-DP" not in receipt.notion
    assert receipt.epsilon_total == math.inf and receipt.delta_total == 0.0
    assert receipt.sigma and receipt.sigma > 0  # the noise that was used, for the audit
    assert receipt.details["unseeded_notion"] == "(eps,delta)-DP"
    assert receipt.details["unseeded_epsilon_total"] == 4.0
    assert any("NOT private" in c for c in receipt.caveats)
    unseeded = anonymizer.plan(TEXT, GAUSSIAN_SETTINGS.with_changes(epsilon=4.0)).receipt
    assert unseeded.notion == "(eps,delta)-DP" and not unseeded.seeded


@pytest.mark.parametrize("variant", ["santext", "custext", "clusant"])
def test_item3_a_seeded_token_receipt_says_it_is_not_private(variant, embedder) -> None:  # type: ignore[no-untyped-def]
    receipt = audited(variant, embedder, seed=3).receipt
    assert receipt.notion == SEEDED_NOTION and receipt.epsilon_total == math.inf
    assert receipt.details["unseeded_notion"].startswith("eps-")


@pytest.mark.django_db
def test_item3_the_ledger_lists_a_seeded_run_without_a_guarantee_and_charges_nothing(alice) -> None:  # type: ignore[no-untyped-def]
    receipt = seeded_gaussian_receipt()
    assert release_cost(receipt).kind == NONE
    UserBudget.objects.create(user=alice, epsilon_cap=1.0, delta_cap=1e-3)
    job = run_job(alice, receipt)  # admitted although ε = 4 would not fit the cap
    entry = LedgerEntry.objects.get(job=job)
    assert entry.kind == NONE and entry.mu_squared == 0 and entry.details["seeded"] is True
    summary = budget_summary(alice)
    assert summary.epsilon_spent == 0 and summary.n_gaussian_releases == 0
    assert [r.job_id for r in summary.no_guarantee] == [job.pk]


@pytest.mark.django_db
def test_item3_entries_charged_before_the_fix_are_moved_out_of_the_gaussian_total(alice) -> None:  # type: ignore[no-untyped-def]
    from importlib import import_module

    job = run_job(alice, anonymizer.plan(TEXT, GAUSSIAN_SETTINGS.with_changes(epsilon=4.0)).receipt)
    LedgerEntry.objects.filter(job=job).update(details={"seeded": True})  # as stored before
    assert budget_summary(alice).n_gaussian_releases == 1
    migration = import_module(
        "webapp.ledger.migrations.0003_formal_guarantee_policy_and_seeded_runs"
    )
    migration.reclassify_seeded(apps, None)
    forget_settled_totals()  # what `migrate` does after its migrations (post_migrate)
    entry = LedgerEntry.objects.get(job=job)
    assert entry.kind == NONE and entry.mu_squared == 0 and "reclassified" in entry.details
    assert budget_summary(alice).n_gaussian_releases == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("policy", "staff_sees", "user_sees"),
    [("staff", True, False), ("all", True, True), ("nobody", False, False)],
)
def test_item3_who_may_seed_from_the_web_form(  # type: ignore[no-untyped-def]
    policy, staff_sees, user_sees, settings, alice, staff
) -> None:
    settings.SEEDED_RUNS = policy
    assert ("seed" in SubmitForm(user=staff).fields) is staff_sees
    assert ("seed" in SubmitForm(user=alice).fields) is user_sees


@pytest.mark.django_db
def test_item3_a_user_who_may_not_seed_cannot_post_a_seed(client, alice, settings) -> None:  # type: ignore[no-untyped-def]
    settings.SEEDED_RUNS = "staff"
    client.force_login(alice)
    form = {"mechanism": "redact", "detector": "regex", "text": TEXT, "seed": "5"}
    page = client.post(reverse("submit_preview"), form).content.decode()
    assert "seeded" not in page and SEEDED_NOTION not in page
    assert 'name="seed"' not in client.get(reverse("submit")).content.decode()
