"""A form sent after the session changed comes back filled in; a forged one does not."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from webapp.jobs.models import RewriteJob

pytestmark = pytest.mark.django_db
TEXT = "Dear Sam, the contract with ACME is attached. Jane (jane@example.com)"
OWN = {"Origin": "http://testserver"}


@pytest.fixture
def strict(alice) -> Client:  # type: ignore[no-untyped-def]
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    return client


def test_the_submit_form_comes_back_with_the_pasted_text(strict):
    response = strict.post(
        reverse("submit"),
        {"text": TEXT, "name": "contract", "mechanism": "redact", "detector": "regex"},
        headers=OWN,
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert "Your session changed" in page and "send it again" in page
    assert "Dear Sam, the contract with ACME is attached." in page
    form = response.context["form"]
    assert form.initial["text"] == TEXT and form.initial["name"] == "contract"
    assert form.info.name == "redact" and form["detector"].value() == "regex"
    assert 'name="csrfmiddlewaretoken"' in page  # a fresh token: sending again works
    assert not RewriteJob.objects.exists()


def test_the_retried_form_goes_through(strict, monkeypatch):
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", lambda job_id: None)
    first = strict.post(
        reverse("submit"), {"text": TEXT, "mechanism": "redact", "detector": "regex"}, headers=OWN
    )
    token = first.context["csrf_token"]
    again = strict.post(
        reverse("submit"),
        {"text": TEXT, "mechanism": "redact", "detector": "regex", "csrfmiddlewaretoken": token},
        headers=OWN,
    )
    assert again.status_code == 302 and RewriteJob.objects.count() == 1


def test_a_batch_form_says_files_must_be_chosen_again(strict):
    response = strict.post(
        reverse("batch_new"),
        {"name": "Q1", "mechanism": "redact", "files": [SimpleUploadedFile("a.txt", b"x")]},
        headers=OWN,
    )
    assert response.status_code == 403
    assert "choose them again" in response.content.decode()
    assert response.context["form"].initial["name"] == "Q1"


def test_a_forged_request_from_another_site_gets_the_plain_page(strict):
    response = strict.post(
        reverse("submit"),
        {"text": "planted by evil.example", "mechanism": "redact"},
        headers={"Origin": "https://evil.example"},
    )
    assert response.status_code == 403
    page = response.content.decode()
    assert "planted by evil.example" not in page and "This form has expired" in page


def test_without_origin_the_referer_decides(strict):
    response = strict.post(
        reverse("submit"),
        {"text": TEXT, "mechanism": "redact"},
        headers={"Referer": "http://testserver/"},
    )
    assert "Your session changed" in response.content.decode()
    plain = strict.post(reverse("submit"), {"text": TEXT, "mechanism": "redact"})
    assert "This form has expired" in plain.content.decode()


def test_an_expired_login_page_asks_again(alice):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("login"), {"username": "alice", "password": "alice-password-1"}, headers=OWN
    )
    assert response.status_code == 302 and response["Location"] == reverse("login")
    page = client.get(reverse("login")).content.decode()
    assert "The login page had expired" in page
