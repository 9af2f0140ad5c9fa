"""Batches through the API: multipart submit, ownership per endpoint, refusals, progress, zip."""

import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.webapp.batches.helpers import REDACT, make_batch, run, three_files
from tests.webapp.batches.test_archives import make_zip
from webapp.batches.models import Batch
from webapp.jobs.models import RewriteJob
from webapp.ledger.models import UserBudget

pytestmark = pytest.mark.django_db
ENDPOINTS = [
    ("get", "/api/batches/{batch}"),
    ("post", "/api/batches/{batch}/cancel"),
    ("get", "/api/batches/{batch}/bundle"),
]
OWN_ENDPOINTS = [("get", "/api/batches"), ("post", "/api/batches")]  # the caller's own only


@pytest.fixture
def alices_batch(alice, no_enqueue):  # type: ignore[no-untyped-def]
    return make_batch(alice, ["Mail a@b.org", "Call +44 20 7946 0958", "Nothing here."])


def _submit(client, files, settings=REDACT, **fields):  # type: ignore[no-untyped-def]
    return client.post("/api/batches", {"files": files, "settings": json.dumps(settings), **fields})


@pytest.mark.parametrize(("method", "template"), ENDPOINTS)
def test_anonymous_gets_401(client, alices_batch, method, template):
    assert getattr(client, method)(template.format(batch=alices_batch.pk)).status_code == 401


def test_anonymous_cannot_submit_or_list(client):
    assert client.get("/api/batches").status_code == 401
    assert _submit(client, three_files()).status_code == 401
    assert not Batch.objects.exists()


@pytest.mark.parametrize(("method", "template"), ENDPOINTS)
def test_it_returns_404_for_other_users_batches(as_bob, alices_batch, method, template):
    response = getattr(as_bob, method)(template.format(batch=alices_batch.pk))
    assert response.status_code == 404
    assert not RewriteJob.objects.filter(state="cancelled").exists()


def test_the_owner_reaches_a_batch_and_its_list(as_alice, as_bob, alices_batch):
    body = as_alice.get(f"/api/batches/{alices_batch.pk}").json()
    assert [d["filename"] for d in body["documents"]] == ["doc-0.txt", "doc-1.txt", "doc-2.txt"]
    assert body["counts"] == {"queued": 3} and not body["finished"]
    assert [b["id"] for b in as_alice.get("/api/batches").json()] == [alices_batch.pk]
    assert as_bob.get("/api/batches").json() == []


def test_three_files_make_a_batch_of_three_jobs(as_alice, no_enqueue):
    response = _submit(as_alice, three_files(), name="letters")
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "letters" and len(body["documents"]) == 3
    assert body["links"]["bundle"] == f"/api/batches/{body['id']}/bundle"
    assert RewriteJob.objects.count() == 3


def test_a_zip_makes_a_batch(as_alice, no_enqueue):
    archive = make_zip({"a.txt": b"Mail a@b.org", "b/c.md": b"Call Sam"})
    response = _submit(as_alice, [SimpleUploadedFile("in.zip", archive)])
    assert [d["filename"] for d in response.json()["documents"]] == ["a.txt", "b/c.md"]


def test_a_hostile_zip_is_refused_with_422_under_files(as_alice):
    archive = make_zip({"ok.txt": b"x", "../../escape.txt": b"y"})
    response = _submit(as_alice, [SimpleUploadedFile("evil.zip", archive)])
    assert response.status_code == 422
    assert "points outside the archive" in response.json()["errors"]["files"][0]
    assert not RewriteJob.objects.exists()


def test_every_unreadable_document_is_named(as_alice):
    files = [SimpleUploadedFile("ok.txt", b"fine"), SimpleUploadedFile("empty.txt", b"")]
    errors = _submit(as_alice, files).json()["errors"]["files"]
    assert "1 of the documents cannot be read" in errors[0] and "'empty.txt' is empty." in errors


def test_a_batch_over_the_budget_answers_409_saying_how_many_fit(
    as_alice, alice, gaussian_mechanism_available
):
    UserBudget.objects.create(user=alice, epsilon_cap=7.0, delta_cap=1e-3)
    settings = {"mechanism": "dp-embed-invert", "detector": "regex", "epsilon": 4}
    response = _submit(as_alice, three_files(), settings={**settings, "composition": "gdp"})
    assert response.status_code == 409 and "takes only 2 of them" in response.json()["detail"]
    assert not Batch.objects.exists()


def test_bad_settings_json_is_refused(as_alice):
    response = as_alice.post("/api/batches", {"files": three_files(), "settings": "{oops"})
    assert response.status_code == 422 and "settings" in response.json()["errors"]


def test_cancel_and_bundle(as_alice, alices_batch):
    first = alices_batch.items.first().job
    assert as_alice.get(f"/api/batches/{alices_batch.pk}/bundle").status_code == 409
    run(first)
    body = as_alice.post(f"/api/batches/{alices_batch.pk}/cancel").json()
    assert body["counts"] == {"succeeded": 1, "cancelled": 2} and body["finished"]
    archive = zipfile.ZipFile(
        io.BytesIO(as_alice.get(f"/api/batches/{alices_batch.pk}/bundle").content)
    )
    assert f"01-doc-0-job{first.pk}-anonymized.txt" in archive.namelist()
