"""Every job view for anonymous, another user, and the owner."""

import json

import pytest
from django.urls import reverse

from tests.factories import JobFactory, succeeded_job
from webapp.jobs.models import RewriteJob

pytestmark = pytest.mark.django_db

JOB_URLS = ["job_detail", "job_status", "download_output", "download_receipt"]


@pytest.fixture
def alices_job(alice):
    return succeeded_job(alice)


@pytest.mark.parametrize("name", ["submit", "history"])
def test_anonymous_is_redirected_to_login_from_pages(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.parametrize("name", JOB_URLS)
def test_anonymous_is_redirected_to_login_from_job_urls(client, alices_job, name):
    response = client.get(reverse(name, args=[alices_job.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.parametrize("name", JOB_URLS)
def test_it_returns_404_for_other_users_job(client, alices_job, bob, name):
    client.force_login(bob)
    assert client.get(reverse(name, args=[alices_job.pk])).status_code == 404


def test_it_returns_404_when_other_user_cancels(client, alice, bob):
    job = JobFactory(owner=alice)
    client.force_login(bob)
    assert client.post(reverse("job_cancel", args=[job.pk])).status_code == 404
    job.refresh_from_db()
    assert job.state == RewriteJob.State.QUEUED


def test_owner_sees_the_result_with_spans_and_receipt(client, alices_job, alice):
    client.force_login(alice)
    body = client.get(reverse("job_detail", args=[alices_job.pk])).content.decode()
    assert "Write to [EMAIL] today." in body
    assert "Privacy receipt" in body and "No formal privacy guarantee" in body


def test_owner_downloads_output_and_receipt(client, alices_job, alice):
    client.force_login(alice)
    out = client.get(reverse("download_output", args=[alices_job.pk]))
    assert out.content.decode() == "Write to [EMAIL] today."
    assert f"job{alices_job.pk}" in out["Content-Disposition"]
    receipt = json.loads(client.get(reverse("download_receipt", args=[alices_job.pk])).content)
    assert receipt["receipt"]["mechanism"] == "redact" and len(receipt["sha256"]) == 64


def test_history_lists_only_the_users_own_jobs(client, alice, bob):
    mine, theirs = succeeded_job(alice), succeeded_job(bob)
    mine.document.name, theirs.document.name = "alice-doc", "bob-doc"
    mine.document.save(update_fields=["name"])
    theirs.document.save(update_fields=["name"])
    client.force_login(alice)
    body = client.get(reverse("history")).content.decode()
    assert "alice-doc" in body and "bob-doc" not in body


def test_status_fragment_polls_while_running_and_stops_when_done(client, alice):
    job = JobFactory(owner=alice)
    client.force_login(alice)
    fragment = client.get(reverse("job_status", args=[job.pk]), HTTP_HX_REQUEST="true")
    assert b"hx-trigger" in fragment.content and b"<html" not in fragment.content
    done = succeeded_job(alice)
    fragment = client.get(reverse("job_status", args=[done.pk]), HTTP_HX_REQUEST="true")
    assert b"hx-trigger" not in fragment.content


def test_submit_stores_a_queued_job_for_the_user(
    client, alice, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", sent.append)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("submit"),
            {
                "text": "Mail jane@example.com",
                "mechanism": "redact",
                "epsilon": "16",
                "delta": "0.001",
                "clip_radius": "1.5",
                "num_steps": "5",
                "composition": "basic",
                "detector": "regex",
                "redact_pii": "on",
            },
        )
    job = RewriteJob.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == reverse(
        "job_detail", args=[job.pk]
    )
    assert job.state == "queued" and job.document.text == "Mail jane@example.com"
    assert sent == [job.pk]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("epsilon", "0", "must be a number"),
        ("epsilon", "nan", "must be a number"),
        ("delta", "1.5", "strictly between 0 and 1"),
        ("text", "   ", "Paste some text"),
    ],
)
def test_submit_rejects_bad_input_and_stores_nothing(client, alice, field, value, message):
    data = {
        "text": "Mail jane@example.com",
        "mechanism": "redact",
        "epsilon": "16",
        "delta": "0.001",
        "clip_radius": "1.5",
        "num_steps": "5",
        "composition": "basic",
        "detector": "regex",
        field: value,
    }
    client.force_login(alice)
    response = client.post(reverse("submit"), data)
    assert response.status_code == 200 and message in response.content.decode()
    assert not RewriteJob.objects.exists()
