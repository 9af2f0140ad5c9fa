"""The budget in the submit flow: the live preview and a refused submission's form error."""

import pytest
from django.urls import reverse

from tests.webapp.ledger.helpers import GAUSSIAN_FORM, TEXT, gaussian_receipt, run_job
from webapp.jobs.models import RewriteJob
from webapp.ledger.models import LedgerEntry, UserBudget

pytestmark = pytest.mark.django_db


def test_the_receipt_preview_says_what_would_remain(client, alice):
    UserBudget.objects.create(user=alice, epsilon_cap=16.0, delta_cap=1e-3)
    client.force_login(alice)
    page = client.post(reverse("submit_preview"), GAUSSIAN_FORM).content.decode()
    assert 'id="budget-after" data-fits="true"' in page and "will remain" in page
    assert not LedgerEntry.objects.exists()


def test_the_preview_says_when_a_job_would_not_fit_and_what_would(client, alice):
    UserBudget.objects.create(user=alice, epsilon_cap=4.0, delta_cap=1e-3)
    client.force_login(alice)
    page = client.post(
        reverse("submit_preview"), {**GAUSSIAN_FORM, "epsilon": "8"}
    ).content.decode()
    assert 'data-fits="false"' in page and "fits with ε ≤" in page


def test_a_redaction_preview_says_it_costs_nothing(client, alice):
    client.force_login(alice)
    page = client.post(
        reverse("submit_preview"), {"mechanism": "redact", "detector": "regex", "text": TEXT}
    ).content.decode()
    assert "costs nothing against your (ε, δ) cap" in page


def test_a_submission_over_the_cap_is_shown_as_a_form_error(
    client,
    alice,
    gaussian_mechanism_available,
):
    UserBudget.objects.create(user=alice, epsilon_cap=4.0, delta_cap=1e-3)
    run_job(alice, gaussian_receipt(3.5, 1e-3, 2))
    client.force_login(alice)
    response = client.post(reverse("submit"), GAUSSIAN_FORM)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Not enough privacy budget left" in page and "fits with ε ≤" in page
    assert RewriteJob.objects.filter(owner=alice).count() == 1


def test_a_submission_within_the_cap_is_reserved(client, alice, gaussian_mechanism_available):
    client.force_login(alice)
    response = client.post(reverse("submit"), GAUSSIAN_FORM)
    assert response.status_code == 302
    entry = LedgerEntry.objects.get(owner=alice)
    assert entry.status == "reserved" and entry.kind == "gaussian" and entry.mu_squared > 0
