"""The history and job pages keep their query shapes (issue 16, "pages that stay fast").

A page's queries neither grow with the number of jobs nor load the large columns (spans,
outputs, settings, original texts, ledger events) where the page does not show them. The
data are the load benchmark's own: jobs with ledger entries and receipts, a few with
thousands of spans. Timings live in bench/load_bench.py, never here.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.load_bench import HISTORY_URLS, seed
from webapp.jobs.queries import PAGE_SIZE, HistoryQuery, history_page, jobs_for_history

pytestmark = pytest.mark.django_db

# Columns no list view needs: every one can be megabytes, or thousands of rows' worth.
LARGE_COLUMNS = (
    '"jobs_rewritejob"."spans"',
    '"jobs_rewritejob"."output"',
    '"jobs_rewritejob"."settings"',
    '"jobs_document"."text"',
    '"ledger_ledgerentry"."events"',
)
# session, user, count, the page's rows (their ids in a subquery), the cap, and the ledger
# fingerprint (which says whether pending entries need reading: the seed has none); the
# first view after a charge adds the settled sums. On PostgreSQL each query is a round trip
# to the server, which on a busy machine costs more than the query itself.
HISTORY_MAX_QUERIES = 6
# session, user, the job with its document and receipt, whether it has a stored mapping, and
# its original-format output file
JOB_PAGE_MAX_QUERIES = 5


@pytest.fixture
def bench_user(client):  # type: ignore[no-untyped-def]
    user, job_ids = seed(30)
    client.force_login(user)
    return user, job_ids


def _queries(client, url: str, **headers) -> list[str]:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    assert response.status_code == 200, url
    return [query["sql"] for query in captured.captured_queries]


def _history_urls() -> list[str]:
    return [url.format(page=2) for url in HISTORY_URLS]


def test_every_history_view_takes_the_same_few_queries_for_30_jobs_or_330(client, bench_user):
    for url in _history_urls():
        client.get(url)  # the first view after the seed sums the settled entries
    few = {url: len(_queries(client, url)) for url in _history_urls()}
    assert max(few.values()) <= HISTORY_MAX_QUERIES, few
    seed(300, bench_user[0])
    for url in _history_urls():
        client.get(url)
    assert {url: len(_queries(client, url)) for url in _history_urls()} == few


def test_the_htmx_table_skips_the_budget_box_queries(client, bench_user):
    full = _queries(client, "/history/")
    table = _queries(client, "/history/", HTTP_HX_REQUEST="true")
    assert len(table) < len(full)
    assert not any("ledger_" in sql for sql in table)


def test_history_views_never_load_large_columns(client, bench_user):
    for url in _history_urls():
        for sql in _queries(client, url):
            assert not any(column in sql for column in LARGE_COLUMNS), (url, sql)


def test_the_job_page_and_its_status_take_a_few_queries_and_skip_the_original(client, bench_user):
    _, job_ids = bench_user
    long_job = job_ids[0]  # the seed gives every 500th job thousands of spans
    succeeded, failed = job_ids[1], job_ids[8]
    for job_id in (long_job, succeeded, failed):
        for name in ("job_detail", "job_status"):
            queries = _queries(client, reverse(name, args=[job_id]))
            assert len(queries) <= JOB_PAGE_MAX_QUERIES, (name, job_id, queries)
            assert not any('"jobs_document"."text"' in sql for sql in queries), name


@pytest.mark.parametrize("sort", ["date", "document", "mechanism", "epsilon", "state", "k"])
@pytest.mark.parametrize("descending", [True, False])
def test_history_pages_list_the_same_jobs_as_slicing_the_whole_query(bench_user, sort, descending):
    user, _ = bench_user
    seed(40, user)  # many ties: the same states, ε, K and creation times
    for page in (1, 2, 3):
        query = HistoryQuery(sort=sort, descending=descending, page=page)
        start = (page - 1) * PAGE_SIZE
        expected = [j.pk for j in jobs_for_history(user, query)[start : start + PAGE_SIZE]]
        listed = history_page(user, query).object_list
        assert [job.pk for job in listed] == expected
        assert all(job.document.name for job in listed)
