"""Audit pages for staff (figures for a seeded set of users, CSV, chart), 403 for everyone else."""

import csv
import io
import xml.etree.ElementTree as ET
from dataclasses import replace
from functools import cache

import pytest
from django.urls import reverse
from dp_accounting import ComposedDpEvent, GaussianDpEvent
from dp_accounting.pld import PLDAccountant

from tests.webapp.ledger.helpers import (
    gaussian_receipt,
    redact_receipt,
    run_job,
    submit,
    token_receipt,
)
from webapp.ledger.costs import fmt
from webapp.ledger.models import UserBudget

pytestmark = pytest.mark.django_db


def exact_epsilon(receipts, delta: float) -> float:  # type: ignore[no-untyped-def]
    """Independent figure: PLD accountant over every noised chunk of these receipts."""
    events = [GaussianDpEvent(r.sigma / r.sensitivity) for r in receipts for _ in range(r.n_chunks)]
    return PLDAccountant().compose(ComposedDpEvent(events)).get_epsilon(delta)


ALICE = (gaussian_receipt(4, 1e-3, 2), gaussian_receipt(2, 1e-3, 3, composition="basic"))
BOB_D_PRIVACY = gaussian_receipt(4, 1e-5, 2, composition="basic", metric_unit=0.5)


@cache
def expected_exact() -> dict[str, float]:
    """The PLD figures, computed once (each takes a second or two)."""
    return {
        "alice": exact_epsilon(ALICE, 1e-3),
        "bob": exact_epsilon([replace(BOB_D_PRIVACY, sensitivity=3.0)], 1e-5),  # Δ = 2C
    }


@pytest.fixture
def seeded(alice, bob, staff, django_user_model):  # type: ignore[no-untyped-def]
    """alice: two Gaussian jobs and a redaction under a cap; bob: no cap, a d-privacy job, a
    token job and a queued Gaussian job; charlie: nothing yet (the default cap)."""
    UserBudget.objects.create(user=alice, epsilon_cap=16.0, delta_cap=1e-3)
    UserBudget.objects.create(user=bob, epsilon_cap=None, delta_cap=1e-5)
    charlie = django_user_model.objects.create_user("charlie", password="charlie-password-1")
    for receipt in ALICE:
        run_job(alice, receipt)
    run_job(alice, redact_receipt())
    run_job(bob, BOB_D_PRIVACY)
    run_job(bob, token_receipt(3, 2.0))
    submit(bob, gaussian_receipt(1, 1e-5, 1))  # queued: reserved, not spent
    exact = expected_exact()
    return {
        "alice": (alice, exact["alice"], 6.0, 3),
        "bob": (bob, exact["bob"], BOB_D_PRIVACY.details["worst_case_epsilon_at_2C"], 3),
        "charlie": (charlie, 0.0, 0.0, 0),
    }


def cells(page: str, username: str) -> dict[str, str]:
    """The audit table row of one user, by cell class."""
    start = page.index(f'<tr data-user="{username}">')
    row = page[start : page.index("</tr>", start)]
    found = {}
    for part in row.split('<td class="')[1:]:
        name, rest = part.split('">', 1)
        found[name] = rest.split("</td>", 1)[0].strip()
    return found


def test_staff_sees_correct_figures_for_every_seeded_user(client, staff, seeded, settings):
    client.force_login(staff)
    page = client.get(reverse("ledger:audit")).content.decode()
    alice, alice_eps, alice_basic, alice_jobs = seeded["alice"]
    row = cells(page, "alice")
    assert row["spent"] == fmt(alice_eps)
    assert row["basic"] == fmt(alice_basic)
    assert row["cap"] == "16" and row["delta"] == "0.001"
    assert row["jobs"] == "3" and row["reserved"] == "0"
    assert 0 < float(row["remaining"]) < 16
    _, bob_eps, bob_basic, _ = seeded["bob"]
    row = cells(page, "bob")
    assert row["spent"] == fmt(bob_eps) and row["basic"] == fmt(bob_basic)
    assert row["cap"] == "none" and row["remaining"] == "—" and row["reserved"] == "1"
    row = cells(page, "charlie")
    assert row["spent"] == "0" and row["cap"] == fmt(settings.DEFAULT_BUDGET_EPSILON)
    assert row["jobs"] == "0" and row["last"] == "—"


def test_the_audit_table_sorts_by_any_column(client, staff, seeded):
    client.force_login(staff)

    def order(sort: str) -> list[str]:
        page = client.get(reverse("ledger:audit") + f"?sort={sort}").content.decode()
        names = ["alice", "auditor", "bob", "charlie"]
        return sorted(names, key=lambda u: page.index(f'data-user="{u}"'))

    assert order("-spent")[:2] == ["bob", "alice"]
    assert order("spent")[-2:] == ["alice", "bob"]
    assert order("user") == ["alice", "auditor", "bob", "charlie"]
    assert order("-user") == ["charlie", "bob", "auditor", "alice"]
    assert order("-jobs")[:2] == ["alice", "bob"]
    assert order("cap")[-1] == "bob"  # no cap sorts as ∞
    assert order("nonsense") == order("-spent")


def test_the_csv_export_has_the_exact_figures(client, staff, seeded):
    client.force_login(staff)
    response = client.get(reverse("ledger:audit_csv") + "?sort=user")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = {r["username"]: r for r in csv.DictReader(io.StringIO(response.content.decode()))}
    assert list(rows) == ["alice", "auditor", "bob", "charlie"]
    for name, (_, eps, basic, jobs) in seeded.items():
        assert float(rows[name]["epsilon_spent_exact"]) == pytest.approx(eps, abs=1e-6)
        assert float(rows[name]["basic_epsilon_sum"]) == pytest.approx(basic, rel=1e-9)
        assert int(rows[name]["jobs"]) == jobs
    assert rows["bob"]["epsilon_cap"] == "" and rows["bob"]["pending_jobs"] == "1"
    assert rows["bob"]["d_privacy_releases"] == "1" and rows["bob"]["other_notion_releases"] == "1"
    assert rows["alice"]["no_guarantee_releases"] == "1"
    assert float(rows["alice"]["epsilon_remaining"]) > 0


def test_the_user_page_shows_receipts_with_links_and_the_chart(client, staff, seeded):
    client.force_login(staff)
    alice = seeded["alice"][0]
    page = client.get(reverse("ledger:audit_user", args=[alice.pk])).content.decode()
    for receipt in alice.receipts.all():
        assert reverse("admin:jobs_receipt_change", args=[receipt.pk]) in page
    assert reverse("ledger:audit_chart", args=[alice.pk]) in page
    assert "hash chain intact (3)" in page
    assert fmt(seeded["alice"][1]) in page


def test_the_chart_is_an_svg_of_cumulative_epsilon_with_the_cap(client, staff, seeded):
    client.force_login(staff)
    alice = seeded["alice"][0]
    response = client.get(reverse("ledger:audit_chart", args=[alice.pk]))
    assert response["Content-Type"].startswith("image/svg+xml")
    svg = ET.fromstring(response.content)
    ns = "{http://www.w3.org/2000/svg}"
    lines = {p.get("class"): p for p in svg.iter(f"{ns}polyline")}
    assert set(lines) == {"exact", "basic"}
    assert len(lines["exact"].get("points").split()) == 4  # 0, step, jump, jump
    assert any(line.get("class") == "cap" for line in svg.iter(f"{ns}line"))
    charlie = seeded["charlie"][0]
    empty = client.get(reverse("ledger:audit_chart", args=[charlie.pk])).content.decode()
    assert "no charged releases yet" in empty


def audit_urls(user_id: int) -> list[str]:
    return [
        reverse("ledger:audit"),
        reverse("ledger:audit_csv"),
        reverse("ledger:audit_user", args=[user_id]),
        reverse("ledger:audit_chart", args=[user_id]),
        reverse("ledger:verify"),
    ]


def test_non_staff_users_get_403_on_every_audit_url(client, alice):
    client.force_login(alice)
    for url in audit_urls(alice.pk):
        assert client.get(url).status_code == 403, url


def test_anonymous_users_are_redirected_to_login_from_every_audit_url(client, alice):
    for url in audit_urls(alice.pk):
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"], url


def test_a_user_sees_their_spent_and_remaining_budget_on_their_history(client, seeded):
    alice, eps, basic, _ = seeded["alice"]
    client.force_login(alice)
    page = client.get(reverse("history")).content.decode()
    assert f'<span id="budget-spent">{fmt(eps)}</span>' in page
    assert 'id="budget-remaining"' in page and '<span id="budget-cap">16</span>' in page
    assert "Releases without a formal guarantee (1)" in page


def test_the_history_summary_lists_d_privacy_and_other_notions_apart(client, seeded):
    client.force_login(seeded["bob"][0])
    page = client.get(reverse("history")).content.decode()
    assert "d-privacy releases (1)" in page and "at unit u = 0.5" in page
    assert "eps-metric-LDP per token (Euclidean): 1 release, Σε = 6" in page
    assert "1 queued or running job holds" in page


# --- Django admin -----------------------------------------------------------------------


@pytest.fixture
def admin_client(client, django_user_model):  # type: ignore[no-untyped-def]
    client.force_login(django_user_model.objects.create_superuser("root", password="root-pw-12345"))
    return client


def test_admins_change_a_users_cap_in_django_admin(admin_client, seeded):
    alice = seeded["alice"][0]
    budget = UserBudget.objects.get(user=alice)
    url = reverse("admin:ledger_userbudget_change", args=[budget.pk])
    page = admin_client.get(url).content.decode()
    assert "spent ε" in page.lower() and fmt(seeded["alice"][1]) in page
    response = admin_client.post(url, {"user": alice.pk, "epsilon_cap": "32", "delta_cap": "1e-5"})
    assert response.status_code == 302
    budget.refresh_from_db()
    assert (budget.epsilon_cap, budget.delta_cap) == (32.0, 1e-5)
    bad = admin_client.post(url, {"user": alice.pk, "epsilon_cap": "-1", "delta_cap": "1"})
    assert bad.status_code == 200 and "must" in bad.content.decode()


def test_the_user_admin_page_has_the_cap_inline(admin_client, seeded):
    page = admin_client.get(reverse("admin:auth_user_change", args=[seeded["alice"][0].pk]))
    assert "privacy cap" in page.content.decode()


def test_admins_set_the_default_cap_for_new_users(admin_client, seeded, django_user_model):
    response = admin_client.post(
        reverse("admin:ledger_defaultbudget_add"), {"epsilon_cap": "5", "delta_cap": "1e-6"}
    )
    assert response.status_code == 302
    from webapp.ledger.services import ensure_budget

    dave = django_user_model.objects.create_user("dave")
    assert ensure_budget(dave).epsilon_cap == 5.0
    assert admin_client.get(reverse("admin:ledger_defaultbudget_add")).status_code == 403


def test_receipts_and_ledger_entries_are_read_only_in_admin(admin_client, seeded):
    alice = seeded["alice"][0]
    receipt = alice.receipts.first()
    entry = alice.ledger_entries.first()
    for name, obj in (("jobs_receipt", receipt), ("ledger_ledgerentry", entry)):
        assert admin_client.get(reverse(f"admin:{name}_changelist")).status_code == 200
        url = reverse(f"admin:{name}_change", args=[obj.pk])
        page = admin_client.get(url)
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
        assert admin_client.post(url, {}).status_code == 403
        assert admin_client.get(reverse(f"admin:{name}_delete", args=[obj.pk])).status_code == 403
        assert admin_client.get(reverse(f"admin:{name}_add")).status_code == 403
