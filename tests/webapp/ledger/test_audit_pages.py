"""The staff audit pages stay the same size and take the same queries however long the
histories, and their figures are the row-by-row ones (issue 16, "pages that stay fast")."""

import csv
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.load_bench import seed
from tests.webapp.ledger.helpers import gaussian_receipt, redact_receipt, run_job, submit
from tests.webapp.ledger.test_aggregate_summary import NUMBERS, a_varied_ledger
from tests.webapp.test_page_queries import LARGE_COLUMNS
from webapp.jobs import services
from webapp.ledger import audit
from webapp.ledger import services as ledger
from webapp.ledger.services import cap_for, ledger_entries, summaries_for_users

pytestmark = pytest.mark.django_db


def assert_row_by_row(summary, user) -> None:  # type: ignore[no-untyped-def]
    """The summary equals the one computed entry by entry from every ledger row."""
    exact = ledger._summarise(cap_for(user), ledger_entries(user.pk))
    for name in NUMBERS:
        assert getattr(summary, name) == pytest.approx(getattr(exact, name), rel=1e-12), name
    assert (summary.n_gaussian_releases, summary.n_reserved_jobs) == (
        exact.n_gaussian_releases,
        exact.n_reserved_jobs,
    )
    for kind in ("d_privacy", "other", "no_guarantee"):
        assert getattr(summary, f"{kind}_count") == len(getattr(exact, kind)), kind
    assert summary.other_totals == exact.other_totals


def test_the_audit_summaries_equal_the_row_by_row_ones_before_and_after_new_charges(alice, bob):
    a_varied_ledger(alice)
    run_job(bob, gaussian_receipt(2.0, 1e-4, 3))
    pending = submit(bob, gaussian_receipt(1.0, 1e-4, 2))
    for _ in range(2):  # the second reads the settled totals from the cache
        summaries = summaries_for_users([alice.pk, bob.pk])
        assert_row_by_row(summaries[alice.pk], alice)
        assert_row_by_row(summaries[bob.pk], bob)
    run_job(alice, gaussian_receipt(1.0, 1e-4, 4))
    run_job(alice, redact_receipt())
    services.claim_job(pending.pk)
    services.fail_job(pending.pk, "crashed")  # bob's reservation is released
    summaries = summaries_for_users([alice.pk, bob.pk])
    assert_row_by_row(summaries[alice.pk], alice)
    assert_row_by_row(summaries[bob.pk], bob)
    assert summaries[bob.pk].n_reserved_jobs == 0


# session, staff user, users with job counts, stored caps, the default cap, the ledger
# fingerprints, the pending entries
AUDIT_TABLE_MAX_QUERIES = 7
# session, staff user, the subject, 2 caps, fingerprint, pending entries, count and page of
# entries, the charged series, count and page of receipts, the receipt chain
AUDIT_USER_MAX_QUERIES = 13


def _queries(client, url: str) -> int:  # type: ignore[no-untyped-def]
    """How many queries a view takes (after the first, which sums new charges); none of them
    loads a column the page does not show (spans, outputs, ledger events...)."""
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    for query in captured.captured_queries:
        assert not any(column in query["sql"] for column in LARGE_COLUMNS), (url, query["sql"])
    return len(captured.captured_queries)


def test_the_audit_pages_take_the_same_queries_for_30_jobs_or_330_and_for_more_users(
    client, staff, django_user_model
):
    client.force_login(staff)
    user, _ = seed(30)
    urls = [reverse("ledger:audit"), reverse("ledger:audit_user", args=[user.pk])]
    few = [_queries(client, url) for url in urls]
    assert few[0] <= AUDIT_TABLE_MAX_QUERIES and few[1] <= AUDIT_USER_MAX_QUERIES, few
    seed(300, user)
    for name in ("dora", "erin"):
        seed(20, django_user_model.objects.create_user(name, password="pw-1234567890"))
    assert [_queries(client, url) for url in urls] == few


def _rows(page: str, table: str) -> list[str]:
    body = page.split(f'<table id="{table}">', 1)[1].split("</table>", 1)[0]
    return re.findall(r"<tr><td>(?:<a [^>]*>#)?(\d+)", body)


def test_the_user_page_lists_entries_receipts_and_figures_in_pages_of_50(client, staff):
    client.force_login(staff)
    user, _ = seed(240)  # about a quarter are charged Gaussian releases (the figures)
    url = reverse("ledger:audit_user", args=[user.pk])
    entries = [e.job_id for e in reversed(ledger_entries(user.pk))]
    receipts = list(audit.receipts_newest_first(user).values_list("pk", flat=True))
    points = [p.job_id for p in reversed(audit.cumulative_points(user))]
    assert len(entries) == 240 and 100 < len(receipts) and 50 < len(points)
    first = client.get(url).content.decode()
    assert [int(j) for j in _rows(first, "ledger-entries")] == entries[:50]
    assert [int(r) for r in _rows(first, "receipts")] == receipts[:50]
    assert [int(j) for j in _rows(first, "points")] == points[:50]
    assert "entries=2" in first and "receipts=2" in first
    last = client.get(url + "?entries=3&receipts=2&points=2").content.decode()
    assert [int(j) for j in _rows(last, "ledger-entries")] == entries[100:150]
    assert [int(r) for r in _rows(last, "receipts")] == receipts[50:100]
    assert [int(j) for j in _rows(last, "points")] == points[50:100]


def test_a_figures_page_shows_the_exact_epsilon_after_each_release(alice):
    for k in (1, 2, 3):
        run_job(alice, gaussian_receipt(2.0, 1e-4, k))
    delta = cap_for(alice).delta_cap
    points = audit.cumulative_points(alice)
    exact = ledger._summarise(cap_for(alice), ledger_entries(alice.pk))
    assert len(points) == 3
    assert points[-1].epsilon_exact == pytest.approx(exact.epsilon_spent, rel=1e-12)
    assert [p.epsilon_exact for p in audit.points_at(audit.cumulative_steps(alice), delta)] == [
        p.epsilon_exact for p in points
    ]
    assert points[0].epsilon_exact < points[1].epsilon_exact < points[2].epsilon_exact


def test_the_table_and_csv_count_every_release_without_a_guarantee(
    client, staff, alice, monkeypatch
):
    monkeypatch.setattr(ledger, "LISTED_RELEASES", 2)  # the summaries list only the newest 2
    jobs = [run_job(alice, redact_receipt()).pk for _ in range(4)]
    client.force_login(staff)
    page = client.get(reverse("ledger:audit")).content.decode()
    row = page.split('data-user="alice"', 1)[1].split("</tr>", 1)[0]
    assert '<td class="no-guarantee">4' in row
    response = client.get(reverse("ledger:audit_csv"))
    rows = {r["username"]: r for r in csv.DictReader(io.StringIO(response.content.decode()))}
    assert rows["alice"]["no_guarantee_releases"] == "4"
    assert rows["alice"]["no_guarantee_job_ids"].split() == [str(j) for j in jobs]
