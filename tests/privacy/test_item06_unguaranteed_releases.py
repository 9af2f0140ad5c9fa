"""Item 6: a per-user policy refuses releases without a formal guarantee, and every spent-ε
figure says which releases it covers and lists the ones it does not.

Before the fix redaction and ε = ∞ runs were admitted with the cap exhausted, and every budget
figure read as the user's total loss.
"""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

import anonymizer
from tests.webapp.ledger.helpers import (
    GAUSSIAN_FORM,
    GAUSSIAN_SETTINGS,
    TEXT,
    complete,
    gaussian_receipt,
    no_noise_receipt,
    redact_receipt,
    run_job,
    submit,
    token_receipt,
)
from webapp.jobs.models import Receipt, RewriteJob
from webapp.ledger.models import DefaultBudget, LedgerEntry, UserBudget
from webapp.ledger.services import BudgetExceeded, budget_summary, ensure_budget

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]
SEEDED = anonymizer.plan(TEXT, GAUSSIAN_SETTINGS.with_changes(seed=1)).receipt


def strict(user) -> UserBudget:  # type: ignore[no-untyped-def]
    return UserBudget.objects.create(
        user=user, epsilon_cap=16.0, delta_cap=1e-3, require_formal_guarantee=True
    )


@pytest.mark.parametrize(
    "receipt", [redact_receipt(), no_noise_receipt(), SEEDED], ids=["redact", "eps-inf", "seeded"]
)
def test_item6_the_policy_refuses_releases_without_a_guarantee(alice, receipt) -> None:  # type: ignore[no-untyped-def]
    strict(alice)
    with pytest.raises(BudgetExceeded) as refused:
        submit(alice, receipt)
    assert "only admits releases with a formal privacy guarantee" in str(refused.value)
    assert not RewriteJob.objects.filter(owner=alice).exists()


def test_item6_the_policy_admits_formally_private_releases(alice) -> None:  # type: ignore[no-untyped-def]
    strict(alice)
    run_job(alice, gaussian_receipt(4.0, 1e-3, 2))
    run_job(alice, token_receipt(3, 2.0))  # its own notion: admitted, listed apart
    assert LedgerEntry.objects.filter(owner=alice, status="charged").count() == 2


def test_item6_without_the_policy_they_are_admitted_even_with_the_cap_spent(alice) -> None:  # type: ignore[no-untyped-def]
    UserBudget.objects.create(user=alice, epsilon_cap=4.0, delta_cap=1e-3)
    run_job(alice, gaussian_receipt(4.0, 1e-3, 2, composition="gdp"))
    job = run_job(alice, redact_receipt())
    assert job.state == RewriteJob.State.SUCCEEDED
    assert [r.job_id for r in budget_summary(alice).no_guarantee] == [job.pk]


def test_item6_a_release_that_turns_out_unguaranteed_is_refused_at_charge_time(alice) -> None:  # type: ignore[no-untyped-def]
    strict(alice)
    job = submit(alice, gaussian_receipt(4.0, 1e-3, 2))  # planned with noise
    job = complete(job, no_noise_receipt())  # ... but the rewrite carried none
    assert job.state == RewriteJob.State.FAILED and "formal privacy guarantee" in job.error
    assert job.output == "" and not Receipt.objects.filter(job=job).exists()
    assert LedgerEntry.objects.get(job=job).status == "released"


def test_item6_new_users_get_the_policy_from_the_environment(settings, django_user_model) -> None:  # type: ignore[no-untyped-def]
    settings.DEFAULT_REQUIRE_FORMAL_GUARANTEE = True
    assert ensure_budget(django_user_model.objects.create_user("erin")).require_formal_guarantee
    DefaultBudget.objects.create(pk=1, epsilon_cap=8.0, delta_cap=1e-3)  # an admin's default
    assert not ensure_budget(django_user_model.objects.create_user("fay")).require_formal_guarantee


def test_item6_admins_edit_the_policy(client, alice, django_user_model) -> None:  # type: ignore[no-untyped-def]
    budget = UserBudget.objects.create(user=alice, epsilon_cap=16.0, delta_cap=1e-3)
    client.force_login(django_user_model.objects.create_superuser("root", password="root-pw-1"))
    url = reverse("admin:ledger_userbudget_change", args=[budget.pk])
    assert "require_formal_guarantee" in client.get(url).content.decode()
    response = client.post(
        url,
        {
            "user": alice.pk,
            "epsilon_cap": "16",
            "delta_cap": "0.001",
            "require_formal_guarantee": "on",
        },
    )
    assert response.status_code == 302
    budget.refresh_from_db()
    assert budget.require_formal_guarantee


@pytest.fixture
def mixed(alice):  # type: ignore[no-untyped-def]
    """alice: two Gaussian releases, two without a guarantee (redaction, seeded), one token."""
    UserBudget.objects.create(user=alice, epsilon_cap=16.0, delta_cap=1e-3)
    gaussian = [run_job(alice, gaussian_receipt(2.0, 1e-3, 2)) for _ in range(2)]
    none = [run_job(alice, redact_receipt()), run_job(alice, SEEDED)]
    run_job(alice, token_receipt(3, 2.0))
    return alice, gaussian, none


def test_item6_the_history_budget_box_says_what_spent_covers(client, mixed) -> None:  # type: ignore[no-untyped-def]
    alice, _, none = mixed
    client.force_login(alice)
    page = client.get(reverse("history")).content.decode()
    jobs = f"jobs {none[0].pk}, {none[1].pk}"
    assert "covers 2 formally private releases; 2 releases without a formal guarantee" in page
    assert jobs in page and '<span id="budget-no-guarantee">2</span>' in page


def test_item6_the_audit_table_and_csv_count_both(client, mixed, staff) -> None:  # type: ignore[no-untyped-def]
    alice, _, none = mixed
    client.force_login(staff)
    page = client.get(reverse("ledger:audit")).content.decode()
    row = page[page.index('<tr data-user="alice">') :]
    row = row[: row.index("</tr>")]
    assert '<td class="formal">2</td>' in row and '<td class="no-guarantee">2' in row
    rows = csv.DictReader(io.StringIO(client.get(reverse("ledger:audit_csv")).content.decode()))
    alice_row = next(r for r in rows if r["username"] == "alice")
    assert alice_row["epsilon_covers_releases"] == "2"
    assert alice_row["no_guarantee_releases"] == "2"
    assert alice_row["no_guarantee_job_ids"] == f"{none[0].pk} {none[1].pk}"


def test_item6_the_chart_marks_releases_without_a_guarantee(client, mixed, staff) -> None:  # type: ignore[no-untyped-def]
    alice, _, _ = mixed
    client.force_login(staff)
    svg = client.get(reverse("ledger:audit_chart", args=[alice.pk])).content.decode()
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert (
        "covers 2 formally private releases; 2 without a formal guarantee"
        in root.find(f"{ns}title").text
    )
    marks = [p for p in root.iter(f"{ns}path") if p.get("class") == "no-guarantee"]
    assert len(marks) == 2
    user_page = client.get(reverse("ledger:audit_user", args=[alice.pk])).content.decode()
    assert "covers 2 formally private releases" in user_page


def test_item6_the_submit_preview_says_what_spent_covers(client, mixed) -> None:  # type: ignore[no-untyped-def]
    alice, _, _ = mixed
    client.force_login(alice)
    gaussian = client.post(reverse("submit_preview"), GAUSSIAN_FORM).content.decode()
    assert "covers 3 formally private releases; 2 releases without a formal guarantee" in gaussian
    redaction = client.post(
        reverse("submit_preview"), {"mechanism": "redact", "detector": "regex", "text": TEXT}
    ).content.decode()
    assert "release number 3 without a formal guarantee" in redaction


def test_item6_a_strict_users_preview_says_the_release_would_be_refused(client, alice) -> None:  # type: ignore[no-untyped-def]
    strict(alice)
    client.force_login(alice)
    page = client.post(
        reverse("submit_preview"), {"mechanism": "redact", "detector": "regex", "text": TEXT}
    ).content.decode()
    assert 'data-fits="false"' in page and "only admits releases with a formal" in page
