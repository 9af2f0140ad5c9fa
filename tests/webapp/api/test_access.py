"""Every API endpoint for anonymous (401), another user (404, nothing changed), and the owner."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from tests.factories import JobFactory, succeeded_job
from tests.webapp.api.conftest import token_client
from tests.webapp.api.test_batches_api import ENDPOINTS as BATCH_ENDPOINTS
from tests.webapp.api.test_batches_api import OWN_ENDPOINTS as BATCH_OWN_ENDPOINTS
from webapp.accounts.models import ApiToken
from webapp.accounts.services import create_token
from webapp.jobs.models import Document, RewriteJob

pytestmark = pytest.mark.django_db

# (method, path template, body) of every endpoint that reaches one job or document
OBJECT_ENDPOINTS = [
    ("get", "/api/jobs/{job}", None),
    ("get", "/api/jobs/{job}/output", None),
    ("get", "/api/jobs/{job}/spans", None),
    ("get", "/api/jobs/{job}/receipt", None),
    ("get", "/api/jobs/{job}/original-format", None),
    ("post", "/api/jobs/{job}/restore", {"text": "[EMAIL]"}),
    ("get", "/api/jobs/{job}/bundle", None),
    ("post", "/api/jobs/{job}/cancel", None),
    ("delete", "/api/documents/{document}/original", None),
]
# A pasted-text redaction has no .docx and no reversible mapping: for its owner these two
# answer 409 about the job itself (the 200 cases are in test_restore_and_formats.py).
OWNER_STATUS = {"/api/jobs/{job}/original-format": 409, "/api/jobs/{job}/restore": 409}
# endpoints that reach only the caller's own data
OWN_ENDPOINTS = [
    ("get", "/api/mechanisms", None),
    ("get", "/api/budget", None),
    ("get", "/api/jobs", None),
    ("post", "/api/plan", {"text": "x@y.org", "settings": {"mechanism": "redact"}}),
    ("post", "/api/jobs", {"text": "x@y.org", "settings": {"mechanism": "redact"}}),
    ("post", "/api/jobs/upload", None),
]


@pytest.fixture
def alices_job(alice):  # type: ignore[no-untyped-def]
    return succeeded_job(alice)


def _call(client: Client, method: str, path: str, body=None):  # type: ignore[no-untyped-def]
    if method == "get":
        return client.get(path)
    if body is None:
        return getattr(client, method)(path)
    return getattr(client, method)(path, body, content_type="application/json")


def _path(template: str, job: RewriteJob) -> str:
    return template.format(job=job.pk, document=job.document_id)


@pytest.mark.parametrize(("method", "template", "body"), OBJECT_ENDPOINTS)
def test_anonymous_gets_401_from_object_endpoints(client, alices_job, method, template, body):
    response = _call(client, method, _path(template, alices_job), body)
    assert response.status_code == 401 and response.json() == {"detail": "Unauthorized"}


@pytest.mark.parametrize(("method", "path", "body"), OWN_ENDPOINTS)
def test_anonymous_gets_401_from_every_other_endpoint(client, method, path, body):
    assert _call(client, method, path, body).status_code == 401
    assert not RewriteJob.objects.exists()


@pytest.mark.parametrize(("method", "template", "body"), OBJECT_ENDPOINTS)
def test_it_returns_404_for_other_users_objects_and_changes_nothing(
    alices_job, as_bob, method, template, body
):
    response = _call(as_bob, method, _path(template, alices_job), body)
    assert response.status_code == 404
    job = RewriteJob.objects.get(pk=alices_job.pk)
    assert job.state == "succeeded" and not job.cancel_requested
    assert Document.objects.get(pk=alices_job.document_id).purged_at is None


@pytest.mark.parametrize(("method", "template", "body"), OBJECT_ENDPOINTS)
def test_the_owner_reaches_every_object_endpoint(alices_job, as_alice, method, template, body):
    response = _call(as_alice, method, _path(template, alices_job), body)
    assert response.status_code == OWNER_STATUS.get(template, 200)
    if response.status_code == 409:
        assert response.json()["detail"]  # says why


def test_every_endpoint_in_the_schema_is_in_the_access_tests(client):
    """A new endpoint must join the anonymous / other user / owner tables above (or the batch
    ones) before this passes."""
    schema = client.get("/api/openapi.json").json()
    served = {
        (method, re.sub(r"\{\w+\}", "{}", path))
        for path, item in schema["paths"].items()
        for method in item
    }
    tested = [
        *((m, t) for m, t, _ in OBJECT_ENDPOINTS),
        *((m, p) for m, p, _ in OWN_ENDPOINTS),
        *BATCH_ENDPOINTS,
        *BATCH_OWN_ENDPOINTS,
    ]
    assert served == {(m, re.sub(r"\{\w+\}", "{}", p)) for m, p in tested}


def test_a_login_session_alone_does_not_authenticate_the_api(client, alices_job, alice):
    """Only tokens: a browser session would make every API POST a CSRF target."""
    client.force_login(alice)
    assert client.get(f"/api/jobs/{alices_job.pk}").status_code == 401
    assert client.post(f"/api/jobs/{alices_job.pk}/cancel").status_code == 401


@pytest.mark.parametrize(
    "header",
    ["Bearer anon_not-a-real-token", "Bearer ", "Token {secret}", "{secret}", "Bearer x" * 100],
)
def test_malformed_or_unknown_tokens_get_401(alices_job, alice, header):
    _, secret = create_token(alice, "t")
    client = Client(headers={"Authorization": header.format(secret=secret)})
    assert client.get(f"/api/jobs/{alices_job.pk}").status_code == 401


def test_a_revoked_token_gets_401(alices_job, alice):
    token, secret = create_token(alice, "t")
    client = Client(headers={"Authorization": f"Bearer {secret}"})
    assert client.get(f"/api/jobs/{alices_job.pk}").status_code == 200
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
    assert client.get(f"/api/jobs/{alices_job.pk}").status_code == 401


def test_an_expired_token_gets_401(alices_job, alice):
    token, secret = create_token(alice, "t", expires_in_days=30)
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    client = Client(headers={"Authorization": f"Bearer {secret}"})
    assert client.get(f"/api/jobs/{alices_job.pk}").status_code == 401


def test_a_deactivated_users_token_gets_401(alices_job, alice):
    client = token_client(alice)
    alice.is_active = False
    alice.save()
    assert client.get(f"/api/jobs/{alices_job.pk}").status_code == 401


def test_using_a_token_records_when_it_was_last_used(alices_job, alice):
    client = token_client(alice)
    assert ApiToken.objects.get().last_used_at is None
    client.get(f"/api/jobs/{alices_job.pk}")
    assert ApiToken.objects.get().last_used_at is not None


def test_history_lists_only_the_callers_jobs(as_bob, alices_job, bob):
    JobFactory(owner=bob, document__name="bobs.txt")
    names = [r["document_name"] for r in as_bob.get("/api/jobs").json()["results"]]
    assert names == ["bobs.txt"]


def test_another_users_document_cannot_be_resubmitted_by_id(as_bob, alices_job, no_enqueue):
    response = as_bob.post(
        "/api/jobs",
        {"document": alices_job.document_id, "settings": {"mechanism": "redact"}},
        content_type="application/json",
    )
    assert response.status_code == 422
    assert "no longer available" in response.json()["detail"]
    assert RewriteJob.objects.count() == 1


def test_the_openapi_schema_is_served_and_every_endpoint_requires_a_bearer_token(client):
    schema = client.get("/api/openapi.json").json()
    assert schema["components"]["securitySchemes"]["PersonalTokenAuth"]["scheme"] == "bearer"
    operations = [op for item in schema["paths"].values() for op in item.values()]
    assert len(operations) >= 13
    assert all(op.get("security") == [{"PersonalTokenAuth": []}] for op in operations)


def test_the_api_docs_page_uses_local_static_files(client):
    page = client.get("/api/docs").content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page and "cdn" not in page.lower()
