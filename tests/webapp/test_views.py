"""Every job URL for anonymous, another user, and the owner; submit, preview and history."""

import io
import json
import zipfile
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from tests.documents import docx_bytes
from tests.factories import JobFactory, succeeded_job
from webapp.jobs.models import Document, RewriteJob
from webapp.jobs.retention import purge_expired_documents

pytestmark = pytest.mark.django_db

JOB_GET_URLS = ["job_detail", "job_status", "download_output", "download_receipt", "download_zip"]
REDACT_FORM = {"mechanism": "redact", "detector": "regex"}


@pytest.fixture
def alices_job(alice):
    return succeeded_job(alice)


@pytest.fixture
def no_enqueue(monkeypatch):
    sent = []
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", sent.append)
    return sent


# --- access ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["submit", "history", "submit_params"])
def test_anonymous_is_redirected_to_login_from_pages(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_anonymous_is_redirected_from_preview(client):
    response = client.post(reverse("submit_preview"), {"text": "x"})
    assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.parametrize("name", JOB_GET_URLS)
def test_anonymous_is_redirected_to_login_from_job_urls(client, alices_job, name):
    response = client.get(reverse(name, args=[alices_job.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.parametrize("name", JOB_GET_URLS)
def test_it_returns_404_for_other_users_job(client, alices_job, bob, name):
    client.force_login(bob)
    assert client.get(reverse(name, args=[alices_job.pk])).status_code == 404


def test_it_returns_404_when_other_user_cancels(client, alice, bob):
    job = JobFactory(owner=alice)
    client.force_login(bob)
    assert client.post(reverse("job_cancel", args=[job.pk])).status_code == 404
    job.refresh_from_db()
    assert job.state == RewriteJob.State.QUEUED


def test_it_returns_404_when_other_user_deletes_a_document(client, alices_job, bob):
    client.force_login(bob)
    url = reverse("document_delete", args=[alices_job.document.pk])
    assert client.post(url).status_code == 404
    assert Document.objects.get(pk=alices_job.document.pk).text


def test_it_returns_404_when_resubmitting_another_users_job(client, alices_job, bob):
    client.force_login(bob)
    assert client.get(reverse("submit") + f"?from_job={alices_job.pk}").status_code == 404


def test_other_users_document_cannot_be_resubmitted_by_id(client, alices_job, bob, no_enqueue):
    client.force_login(bob)
    response = client.post(reverse("submit"), {**REDACT_FORM, "document": alices_job.document.pk})
    assert response.status_code == 200 and "no longer available" in response.content.decode()
    assert not RewriteJob.objects.filter(owner=bob).exists()


# --- job pages ------------------------------------------------------------------------


def test_owner_sees_the_flowing_output_with_highlights_and_the_receipt(client, alices_job, alice):
    client.force_login(alice)
    body = client.get(reverse("job_detail", args=[alices_job.pk])).content.decode()
    assert "Write to [EMAIL] today." in body  # the whole output, as text
    assert 'class="rep cat-' in body and 'data-tip="email address · found by regex"' in body
    assert "1 span replaced: 1 email address." in body
    assert "Privacy receipt" in body and "No formal privacy guarantee" in body
    assert "receipt-json" in body
    side = client.get(reverse("job_detail", args=[alices_job.pk]) + "?view=side").content.decode()
    assert '<span class="was">jane@example.com</span>' in side


def test_owner_downloads_output_receipt_and_zip(client, alices_job, alice):
    client.force_login(alice)
    out = client.get(reverse("download_output", args=[alices_job.pk]))
    assert out.content.decode() == "Write to [EMAIL] today."
    assert (
        "doc-" in out["Content-Disposition"] and f"job{alices_job.pk}" in out["Content-Disposition"]
    )
    receipt = json.loads(client.get(reverse("download_receipt", args=[alices_job.pk])).content)
    assert receipt["receipt"]["mechanism"] == "redact" and len(receipt["sha256"]) == 64
    response = client.get(reverse("download_zip", args=[alices_job.pk]))
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = sorted(archive.namelist())
    assert [n.rsplit("-", 1)[-1] for n in names] == [
        "anonymized.txt",
        "receipt.json",
        "receipt.txt",
    ]
    assert all(f"job{alices_job.pk}" in n for n in names)
    readable = archive.read([n for n in names if n.endswith(".txt") and "receipt" in n][0]).decode()
    assert "Guarantee: none" in readable and receipt["sha256"] in readable


def test_downloads_of_an_unfinished_job_say_there_is_nothing_yet(client, alice):
    job = JobFactory(owner=alice)
    client.force_login(alice)
    for name in ("download_output", "download_receipt", "download_zip"):
        assert client.get(reverse(name, args=[job.pk])).status_code == 409


def test_status_fragment_polls_while_running_and_stops_when_done(client, alice):
    job = JobFactory(owner=alice)
    client.force_login(alice)
    fragment = client.get(reverse("job_status", args=[job.pk]), HTTP_HX_REQUEST="true")
    assert b"hx-trigger" in fragment.content and b"<html" not in fragment.content
    assert b"data-poll-when-visible" in fragment.content  # static/js/app.js pauses it when hidden
    done = succeeded_job(alice)
    fragment = client.get(reverse("job_status", args=[done.pk]), HTTP_HX_REQUEST="true")
    assert b"hx-trigger" not in fragment.content


def test_owner_cancels_a_queued_job(client, alice):
    job = JobFactory(owner=alice)
    client.force_login(alice)
    response = client.post(reverse("job_cancel", args=[job.pk]))
    assert response.status_code == 302
    job.refresh_from_db()
    assert job.state == "cancelled" and job.finished_at is not None


def test_cancelling_a_running_job_asks_it_to_stop(client, alice):
    job = JobFactory(owner=alice, state="running")
    client.force_login(alice)
    client.post(reverse("job_cancel", args=[job.pk]), HTTP_HX_REQUEST="true")
    job.refresh_from_db()
    assert job.state == "running" and job.cancel_requested


def test_a_failed_job_says_why_and_offers_resubmission(client, alice):
    job = JobFactory(owner=alice, state="failed", error="the model ran out of memory")
    client.force_login(alice)
    body = client.get(reverse("job_detail", args=[job.pk])).content.decode()
    assert "the model ran out of memory" in body and f"?from_job={job.pk}" in body
    form = client.get(reverse("submit") + f"?from_job={job.pk}").content.decode()
    assert f'value="{job.document.pk}"' in form and "Using your stored document" in form


def test_owner_deletes_the_original_and_keeps_the_receipt(client, alices_job, alice):
    client.force_login(alice)
    client.post(reverse("document_delete", args=[alices_job.document.pk]))
    alices_job.refresh_from_db()
    assert alices_job.document.text == "" and alices_job.document.is_purged
    assert all(span["text"] is None for span in alices_job.spans)
    assert alices_job.receipt.sha256 and alices_job.output == "Write to [EMAIL] today."
    body = client.get(reverse("job_detail", args=[alices_job.pk])).content.decode()
    assert "The original was deleted; the output stays in full." in body
    assert "Write to " in body and "> today." in body  # unchanged text is output too


def test_deleting_the_original_also_deletes_the_strings_listed_to_hide(client, alice):
    listed = {"deny_list": ["Project Nightjar", "Q-7731"], "sensitive_words": ["lupus"]}
    job = succeeded_job(alice)
    RewriteJob.objects.filter(pk=job.pk).update(settings={**job.settings, **listed})
    client.force_login(alice)
    client.post(reverse("document_delete", args=[job.document.pk]))
    job.refresh_from_db()
    assert job.settings["deny_list"] == [] and job.settings["sensitive_words"] == []
    stored = json.dumps(job.settings)
    assert "Nightjar" not in stored and "Q-7731" not in stored and "lupus" not in stored
    form = client.get(reverse("submit") + f"?from_job={job.pk}").content.decode()
    assert "Nightjar" not in form and "lupus" not in form  # resubmitting offers nothing back


def test_originals_are_purged_after_the_retention_period(alice, settings):
    settings.DOCUMENT_RETENTION_DAYS = 30
    old, recent = succeeded_job(alice), succeeded_job(alice)
    Document.objects.filter(pk=old.document.pk).update(
        created_at=timezone.now() - timedelta(days=31)
    )
    assert purge_expired_documents() == 1
    assert Document.objects.get(pk=old.document.pk).is_purged
    assert not Document.objects.get(pk=recent.document.pk).is_purged


# --- submit ---------------------------------------------------------------------------


def test_submit_stores_a_queued_job_for_the_user(
    client, alice, django_capture_on_commit_callbacks, no_enqueue
):
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("submit"), {**REDACT_FORM, "text": "Mail jane@example.com"})
    job = RewriteJob.objects.get(owner=alice)
    assert response.status_code == 302
    assert response["Location"] == reverse("job_detail", args=[job.pk])
    assert job.state == "queued" and job.document.text == "Mail jane@example.com"
    assert no_enqueue == [job.pk]


def test_submit_accepts_a_docx_upload(client, alice, no_enqueue):
    client.force_login(alice)
    upload = SimpleUploadedFile("letter.docx", docx_bytes(["Dear Jane,", "mail a@b.co"]))
    client.post(reverse("submit"), {**REDACT_FORM, "file": upload})
    document = Document.objects.get(owner=alice)
    assert document.name == "letter.docx" and document.source == "docx"
    assert document.text == "Dear Jane,\nmail a@b.co"


def test_the_form_shows_only_the_chosen_mechanisms_parameters(client, alice):
    client.force_login(alice)
    body = client.get(reverse("submit_params") + "?mechanism=redact").content.decode()
    assert 'name="detector"' in body and 'name="epsilon"' not in body
    assert 'name="composition"' not in body


def test_the_form_lists_every_registered_mechanism_with_availability(client, alice):
    from anonymizer import list_mechanisms

    client.force_login(alice)
    body = client.get(reverse("submit")).content.decode()
    for info in list_mechanisms():
        assert f'value="{info.name}"' in body
        if not info.available:
            assert "unavailable" in body


def test_the_no_js_mechanism_switch_keeps_the_text(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("submit"), {"text": "keep me", "mechanism": "redact", "choose": "1"}
    )
    body = response.content.decode()
    assert response.status_code == 200 and "keep me" in body and 'name="detector"' in body
    assert not RewriteJob.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"text": "   "}, "Paste some text"),
        ({"text": "a\x00b"}, "Null characters are not allowed"),
        ({"detector": "telepathy"}, "Select a valid choice"),
        ({"whitelist_categories": ["favourite colour"]}, "Select a valid choice"),
        ({"mechanism": "no-such-mechanism"}, "Select a valid choice"),
    ],
)
def test_submit_rejects_bad_input_and_stores_nothing(client, alice, data, message):
    client.force_login(alice)
    response = client.post(reverse("submit"), {**REDACT_FORM, "text": "Mail a@b.co", **data})
    assert response.status_code == 200 and message in response.content.decode()
    assert not Document.objects.exists() and not RewriteJob.objects.exists()


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("empty.txt", b"", "empty"),
        ("bin.txt", b"\x00\x01\x02", "binary"),
        ("latin1.txt", "café".encode("latin-1"), "not valid UTF-8"),
        ("big.txt", b"a" * 2_000_001, "the limit is"),
        ("x.exe", b"MZ", "not a supported file type"),
    ],
)
def test_bad_uploads_are_rejected_inline(client, alice, name, data, message):
    client.force_login(alice)
    upload = SimpleUploadedFile(name, data)
    response = client.post(reverse("submit"), {**REDACT_FORM, "file": upload})
    assert response.status_code == 200 and message in response.content.decode()
    assert not Document.objects.exists()


def test_the_preview_shows_the_receipt_without_storing_anything(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("submit_preview"), {**REDACT_FORM, "text": "Mail a@b.co"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert 'id="preview-notion">none<' in body and "No formal privacy guarantee" in body
    assert "<html" not in body and not Document.objects.exists()


# --- history --------------------------------------------------------------------------


def _jobs(owner, n, **kwargs):
    return [
        JobFactory(owner=owner, document__name=f"report-{i:03d}.txt", **kwargs) for i in range(n)
    ]


def test_history_lists_only_the_users_own_jobs(client, alice, bob):
    JobFactory(owner=alice, document__name="alice-doc")
    JobFactory(owner=bob, document__name="bob-doc")
    client.force_login(alice)
    body = client.get(reverse("history")).content.decode()
    assert "alice-doc" in body and "bob-doc" not in body


def test_history_filters_searches_sorts_and_pages(client, alice):
    _jobs(alice, 30)
    JobFactory(owner=alice, document__name="memo.txt", state="failed")
    client.force_login(alice)
    first = client.get(reverse("history")).content.decode()
    assert "page 1 of 2" in first and "31 jobs" in first and 'rel="next"' in first
    second = client.get(reverse("history") + "?page=2").content.decode()
    assert "page 2 of 2" in second
    failed = client.get(reverse("history") + "?state=failed").content.decode()
    assert "memo.txt" in failed and "report-" not in failed
    search = client.get(reverse("history") + "?q=report-00").content.decode()
    assert "report-009" in search and "report-010" not in search
    ascending = client.get(reverse("history") + "?sort=document").content.decode()
    assert ascending.index("memo.txt") < ascending.index("report-000")  # m < r
    assert "q=report-00" in search  # page and sort links keep the search


def test_history_filters_by_date_range(client, alice):
    old, _ = (
        JobFactory(owner=alice, document__name="old.txt"),
        JobFactory(owner=alice, document__name="new.txt"),
    )
    RewriteJob.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=10))
    client.force_login(alice)
    since = (timezone.now() - timedelta(days=2)).date().isoformat()
    body = client.get(reverse("history") + f"?from={since}").content.decode()
    assert "new.txt" in body and "old.txt" not in body


def test_history_htmx_request_returns_only_the_table(client, alice):
    _jobs(alice, 3)
    client.force_login(alice)
    body = client.get(reverse("history") + "?page=1", HTTP_HX_REQUEST="true").content.decode()
    assert body.lstrip().startswith('<div id="history-table">') and "<html" not in body
