"""What the first walkthrough saw on the audit pages and in admin, now mended: no "None" for
missing figures, CSV numbers without float noise, cap labels that survive Django's
capitalisation, one "Audit" link, and the default cap shown where a user has none."""

import csv
import io
import re

import pytest
from django.urls import reverse

from tests.webapp.ledger.helpers import gaussian_receipt, redact_receipt, run_job
from webapp.ledger.models import CapFields, UserBudget

pytestmark = pytest.mark.django_db


def test_audit_pages_never_show_none_for_missing_figures(client, staff, alice, bob):
    UserBudget.objects.create(user=bob, epsilon_cap=None, delta_cap=1e-5)
    run_job(alice, redact_receipt())  # a receipt without ε or δ
    run_job(bob, gaussian_receipt(4, 1e-5, 2))
    client.force_login(staff)
    for url in [
        reverse("ledger:audit"),
        reverse("ledger:audit_user", args=[alice.pk]),
        reverse("ledger:audit_user", args=[bob.pk]),
        reverse("ledger:verify"),
    ]:
        page = client.get(url).content.decode()
        assert not re.search(r">\s*None\b|\bNone\s*/|/\s*None\b", page), url


def test_the_csv_has_no_float_noise(client, staff, alice):
    client.force_login(staff)
    rows = list(
        csv.DictReader(io.StringIO(client.get(reverse("ledger:audit_csv")).content.decode()))
    )
    alice_row = next(r for r in rows if r["username"] == "alice")
    assert alice_row["epsilon_remaining"] == "64"  # the default cap, nothing spent
    assert alice_row["epsilon_cap"] == "64"


def test_cap_labels_survive_capitalisation():
    labels = [CapFields._meta.get_field(n).verbose_name for n in ("epsilon_cap", "delta_cap")]
    assert all(label[0].isascii() for label in labels)
    assert "ε" in labels[0] and "δ" in labels[1]


def test_the_menu_has_one_audit_link(client, staff, alice):
    client.force_login(staff)
    for url in [
        reverse("ledger:audit"),
        reverse("ledger:audit_user", args=[alice.pk]),
        reverse("ledger:verify"),
    ]:
        nav = client.get(url).content.decode().split("<nav>")[1].split("</nav>")[0]
        assert nav.count(">Audit<") == 1, url


def test_the_user_admin_shows_the_default_cap_where_the_user_has_none(client, alice, settings):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("root", password="root-password-1")
    client.force_login(admin)
    page = client.get(reverse("admin:auth_user_change", args=[alice.pk])).content.decode()
    assert 'name="budget-0-epsilon_cap"' in page and 'value="64.0"' in page
    assert "the default cap" in page
    client.post(
        reverse("admin:auth_user_change", args=[alice.pk]),
        _user_form(alice, {"budget-TOTAL_FORMS": "1", "budget-INITIAL_FORMS": "0"}, page),
    )
    assert not UserBudget.objects.filter(user=alice).exists()  # unchanged: no row saved


def _user_form(user, overrides: dict, page: str) -> dict:  # type: ignore[no-untyped-def]
    """The user change form as the browser would send it, unchanged."""
    fields = dict(
        re.findall(
            r'<input type="(?:text|hidden|number|email)" name="([^"]+)" value="([^"]*)"', page
        )
    )
    fields.update(
        {
            "username": user.username,
            "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
            "date_joined_1": user.date_joined.strftime("%H:%M:%S"),
            "is_active": "on",
            "budget-0-epsilon_cap": "64.0",
            "budget-0-delta_cap": "0.001",
            "budget-0-user": str(user.pk),
            **overrides,
        }
    )
    return fields
