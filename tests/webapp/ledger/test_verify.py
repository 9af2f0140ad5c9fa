"""Tamper evidence: `verify_receipts` and the staff page report the first broken link."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from tests.webapp.ledger.helpers import gaussian_receipt, redact_receipt, run_job
from webapp.jobs.models import Receipt
from webapp.jobs.services import receipt_hash
from webapp.ledger.verify import verify_receipt_chains

pytestmark = pytest.mark.django_db


@pytest.fixture
def chains(alice, bob):  # type: ignore[no-untyped-def]
    """Three receipts for alice, two for bob."""
    for _ in range(3):
        run_job(alice, gaussian_receipt(1, 1e-3, 2))
    for _ in range(2):
        run_job(bob, redact_receipt())
    return list(Receipt.objects.filter(owner=alice).order_by("created_at", "pk"))


def raw_update(receipt_id: int, **columns: str) -> None:
    """Change a stored receipt behind the app's back (its save() refuses updates)."""
    sets = ", ".join(f"{name} = %s" for name in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE jobs_receipt SET {sets} WHERE id = %s", [*columns.values(), receipt_id]
        )


def test_an_untouched_database_verifies(chains):
    out = StringIO()
    call_command("verify_receipts", stdout=out)
    assert "OK: 5 receipt(s) in 2 chain(s) verified" in out.getvalue()


def test_editing_one_stored_payload_is_detected_at_that_receipt(chains):
    second = chains[1]
    payload = dict(second.payload, epsilon_total=0.5)  # claim a stronger guarantee
    raw_update(second.pk, payload=json.dumps(payload))
    out = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("verify_receipts", stdout=out)
    assert f"receipt {second.pk} (job {second.job_id}, user alice, #2 in the chain" in str(
        error.value
    )
    assert "contents do not match its stored SHA-256" in str(error.value)
    assert "user bob" not in out.getvalue()  # bob's chain is intact
    report = verify_receipt_chains()
    assert report.first_broken.receipt_id == second.pk and len(report.broken) == 1


def test_rehashing_an_edited_receipt_breaks_the_next_link(chains):
    first, second = chains[0], chains[1]
    payload = dict(first.payload, epsilon_total=0.5)
    forged = receipt_hash(payload, first.prev_sha256, first.job_id, first.owner_id)
    raw_update(first.pk, payload=json.dumps(payload), sha256=forged)
    first_broken = verify_receipt_chains().first_broken
    assert first_broken.receipt_id == second.pk and "link does not match" in first_broken.reason


def test_deleting_a_receipt_breaks_the_next_link(chains):
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM jobs_receipt WHERE id = %s", [chains[1].pk])
    assert verify_receipt_chains().first_broken.receipt_id == chains[2].pk


def test_the_command_checks_one_user_and_prints_chain_heads(chains, bob):
    raw_update(chains[0].pk, payload=json.dumps({"tampered": True}))
    out = StringIO()
    call_command("verify_receipts", "--user", "bob", "--heads", stdout=out)
    assert "OK: 2 receipt(s) in 1 chain(s)" in out.getvalue()
    assert f"head bob 2 {Receipt.objects.filter(owner=bob).last().sha256}" in out.getvalue()


def test_the_staff_page_reports_the_first_broken_link(client, chains, staff):
    client.force_login(staff)
    assert "Intact." in client.get(reverse("ledger:verify")).content.decode()
    raw_update(chains[2].pk, payload=json.dumps(dict(chains[2].payload, n_chunks=1)))
    page = client.get(reverse("ledger:verify")).content.decode()
    assert "Broken." in page and f"receipt {chains[2].pk} (job {chains[2].job_id}" in page
