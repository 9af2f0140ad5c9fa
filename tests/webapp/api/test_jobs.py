"""Submitting, planning, polling, history, cancel, results and deletion through the API."""

import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.documents import docx_bytes
from tests.factories import JobFactory, succeeded_job
from webapp.jobs.models import Document, Receipt, RewriteJob
from webapp.ledger.models import LedgerEntry, UserBudget

pytestmark = pytest.mark.django_db
REDACT = {"mechanism": "redact", "detector": "regex"}
TEXT = "Write to jane@example.com about the merger."


def _post(client, path: str, body: dict):  # type: ignore[no-untyped-def]
    return client.post(path, body, content_type="application/json")


# --- submit -----------------------------------------------------------------------------------


def test_submitting_text_queues_a_job_after_commit(
    as_alice, alice, no_enqueue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(as_alice, "/api/jobs", {"name": "memo", "text": TEXT, "settings": REDACT})
    assert response.status_code == 201
    body = response.json()
    job = RewriteJob.objects.get()
    assert body["id"] == job.pk and body["state"] == "queued" and not body["finished"]
    assert body["document"]["name"] == "memo" and job.owner == alice
    assert job.document.text == TEXT and job.settings["detector"] == "regex"
    assert no_enqueue == [job.pk]
    assert body["links"]["self"] == f"/api/jobs/{job.pk}"
    assert LedgerEntry.objects.filter(job=job).count() == 1


def test_settings_left_out_take_the_pages_defaults(as_alice, no_enqueue):
    response = _post(as_alice, "/api/jobs", {"text": TEXT, "settings": {"mechanism": "redact"}})
    assert response.status_code == 201
    assert RewriteJob.objects.get().settings["detector"] == "combined"


@pytest.mark.parametrize("mechanism", ["santext", "custext", "clusant"])
def test_a_token_mechanism_without_epsilon_gets_its_audited_default(
    as_alice, no_enqueue, mechanism
):
    from anonymizer.registry import mechanism_info

    settings = {"mechanism": mechanism, "detector": "regex"}
    response = _post(as_alice, "/api/jobs", {"text": TEXT, "settings": settings})
    assert response.status_code == 201, response.content
    audited = mechanism_info(mechanism).default_epsilon
    assert audited is not None and audited != 16
    assert float(RewriteJob.objects.get().settings["epsilon"]) == audited


def test_lists_of_strings_become_the_forms_lines(as_alice, no_enqueue):
    settings = {**REDACT, "allow_list": ["Jane", "ACME"], "whitelist_categories": ["email address"]}
    assert _post(as_alice, "/api/jobs", {"text": TEXT, "settings": settings}).status_code == 201
    stored = RewriteJob.objects.get().settings
    assert stored["allow_list"] == ["Jane", "ACME"]
    assert stored["whitelist_categories"] == ["email address"]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"text": TEXT, "settings": {"detector": "regex"}}, "mechanism", "is required"),
        ({"text": TEXT, "settings": {"mechanism": "nope"}}, "mechanism", "not a mechanism"),
        ({"text": TEXT, "settings": {**REDACT, "epsilon": 4}}, "settings", "Unknown setting"),
        ({"text": TEXT, "settings": {**REDACT, "text": "x"}}, "settings", "Unknown setting"),
        ({"text": "   ", "settings": REDACT}, "text", "Paste some text"),
        ({"text": "a\x00b", "settings": REDACT}, "text", "Null characters"),
        ({"text": "\x01" * 20 + "ab", "settings": REDACT}, "text", "binary"),
        ({"text": TEXT, "settings": {**REDACT, "detector": "x"}}, "detector", "valid choice"),
        (
            {"text": TEXT, "settings": {"mechanism": "dp-embed-invert", "epsilon": "-1"}},
            "epsilon",
            "ε must be a number > 0",
        ),
    ],
)
def test_bad_input_is_refused_with_the_field_and_nothing_is_stored(
    as_alice, no_enqueue, body, field, message
):
    response = _post(as_alice, "/api/jobs", body)
    assert response.status_code == 422
    data = response.json()
    assert field in data["errors"] and message in data["detail"] + json.dumps(data["errors"])
    assert not Document.objects.exists() and not RewriteJob.objects.exists()


def test_a_job_over_the_budget_cap_is_refused_with_409_and_nothing_is_stored(
    as_alice, alice, gaussian_mechanism_available
):
    UserBudget.objects.create(user=alice, epsilon_cap=1.0, delta_cap=1e-3)
    settings = {"mechanism": "dp-embed-invert", "detector": "regex", "epsilon": 8}
    response = _post(as_alice, "/api/jobs", {"text": TEXT, "settings": settings})
    assert response.status_code == 409
    assert "Not enough privacy budget" in response.json()["detail"]
    assert not RewriteJob.objects.exists() and not LedgerEntry.objects.exists()


def test_uploading_a_docx_queues_a_job(as_alice, no_enqueue):
    upload = SimpleUploadedFile("letter.docx", docx_bytes(["Dear Jane,", "mail a@b.org"]))
    response = as_alice.post(
        "/api/jobs/upload", {"file": upload, "name": "", "settings": json.dumps(REDACT)}
    )
    assert response.status_code == 201
    document = RewriteJob.objects.get().document
    assert document.source == "docx" and document.name == "letter.docx"
    assert document.text == "Dear Jane,\nmail a@b.org"


@pytest.mark.parametrize(
    ("name", "data", "settings_json", "field"),
    [
        ("blob.txt", b"\x00\x01\x02binary", json.dumps(REDACT), "file"),
        ("empty.txt", b"", json.dumps(REDACT), "file"),
        ("image.png", b"\x89PNG....", json.dumps(REDACT), "file"),
        ("ok.txt", b"hello a@b.org", "{not json", "settings"),
        ("ok.txt", b"hello a@b.org", "[1, 2]", "settings"),
    ],
)
def test_bad_uploads_are_refused_under_the_right_field(as_alice, name, data, settings_json, field):
    upload = SimpleUploadedFile(name, data)
    response = as_alice.post("/api/jobs/upload", {"file": upload, "settings": settings_json})
    assert response.status_code == 422 and field in response.json()["errors"]
    assert not RewriteJob.objects.exists()


def test_a_stored_document_is_run_again_by_id(as_alice, alice, no_enqueue):
    first = succeeded_job(alice)
    response = _post(as_alice, "/api/jobs", {"document": first.document_id, "settings": REDACT})
    assert response.status_code == 201
    assert RewriteJob.objects.get(pk=response.json()["id"]).document_id == first.document_id


# --- plan -------------------------------------------------------------------------------------


def test_plan_returns_the_receipt_and_budget_effect_and_stores_nothing(as_alice, alice):
    UserBudget.objects.create(user=alice, epsilon_cap=16.0, delta_cap=1e-3)
    settings = {"mechanism": "dp-embed-invert", "detector": "regex", "epsilon": 4}
    response = _post(as_alice, "/api/plan", {"text": TEXT, "settings": settings})
    assert response.status_code == 200
    body = response.json()
    assert body["receipt"]["notion"] == "(eps,delta)-DP" and body["receipt"]["n_chunks"] == 2
    assert body["pii_spans"] == 1
    assert body["budget"]["fits"] and "will remain" in body["budget"]["message"]
    assert body["unavailable"] in (None, "not installed on this server")
    assert not Document.objects.exists() and not LedgerEntry.objects.exists()


def test_plan_says_when_a_job_would_not_fit(as_alice, alice):
    UserBudget.objects.create(user=alice, epsilon_cap=2.0, delta_cap=1e-3)
    settings = {"mechanism": "dp-embed-invert", "detector": "regex", "epsilon": 8}
    budget = _post(as_alice, "/api/plan", {"text": TEXT, "settings": settings}).json()["budget"]
    assert not budget["fits"] and "fits with ε ≤" in budget["message"]


# --- poll, history, cancel --------------------------------------------------------------------


def test_polling_shows_state_progress_and_stage(as_alice, alice):
    job = JobFactory(owner=alice, state="running", progress=0.4, stage="correcting step 2/5")
    body = as_alice.get(f"/api/jobs/{job.pk}").json()
    assert (body["state"], body["progress"], body["stage"]) == (
        "running",
        0.4,
        "correcting step 2/5",
    )
    assert body["finished"] is False


def test_a_queued_job_says_how_many_are_ahead_on_its_queue(as_alice, alice, bob):
    JobFactory(owner=bob, queue="cpu")
    JobFactory(owner=bob, queue="cpu", state="running")
    job = JobFactory(owner=alice, queue="cpu")
    queue = as_alice.get(f"/api/jobs/{job.pk}").json()["queue"]
    assert (queue["name"], queue["ahead"], queue["running"]) == ("cpu", 1, 1)
    assert queue["wait"] == "no recent jobs of this mechanism to estimate from"
    running = JobFactory(owner=alice, state="running")
    assert as_alice.get(f"/api/jobs/{running.pk}").json()["queue"] is None


def test_a_failed_job_says_why(as_alice, alice):
    job = JobFactory(owner=alice, state="failed", error="The detector crashed.")
    body = as_alice.get(f"/api/jobs/{job.pk}").json()
    assert body["finished"] and body["error"] == "The detector crashed."


def test_history_filters_sorts_and_pages_like_the_page(as_alice, alice):
    for i in range(30):
        JobFactory(owner=alice, document__name=f"report-{i:02d}.txt", state="succeeded")
    JobFactory(owner=alice, document__name="failed-memo.txt", state="failed")
    first = as_alice.get("/api/jobs").json()
    assert (first["count"], first["num_pages"], len(first["results"])) == (31, 2, 25)
    assert first["next"] == "/api/jobs?sort=-date&page=2" and first["previous"] is None
    second = as_alice.get(first["next"]).json()
    assert len(second["results"]) == 6 and second["previous"] == "/api/jobs?sort=-date"
    failed = as_alice.get("/api/jobs?state=failed").json()["results"]
    assert [r["document_name"] for r in failed] == ["failed-memo.txt"]
    found = as_alice.get("/api/jobs?q=report-1&sort=document").json()["results"]
    assert [r["document_name"] for r in found] == [f"report-1{i}.txt" for i in range(10)]


def test_cancelling_a_queued_job_ends_it(as_alice, alice):
    job = JobFactory(owner=alice)
    body = _post(as_alice, f"/api/jobs/{job.pk}/cancel", {}).json()
    assert body["state"] == "cancelled" and body["finished"]


def test_cancelling_a_running_job_asks_it_to_stop(as_alice, alice):
    job = JobFactory(owner=alice, state="running")
    body = _post(as_alice, f"/api/jobs/{job.pk}/cancel", {}).json()
    assert body["state"] == "running" and body["cancel_requested"]


# --- results and deletion -------------------------------------------------------------------


def test_the_owner_fetches_output_spans_receipt_and_bundle(as_alice, alice):
    job = succeeded_job(alice)
    output = as_alice.get(f"/api/jobs/{job.pk}/output")
    assert output.content.decode() == "Write to [EMAIL] today."
    assert output["Content-Type"].startswith("text/plain")
    spans = as_alice.get(f"/api/jobs/{job.pk}/spans").json()
    assert [s["placeholder"] for s in spans if s["is_pii"]] == ["[EMAIL]"]
    receipt = as_alice.get(f"/api/jobs/{job.pk}/receipt").json()
    assert receipt["sha256"] == Receipt.objects.get(job=job).sha256
    assert receipt["receipt"]["mechanism"] == "redact"
    bundle = zipfile.ZipFile(io.BytesIO(as_alice.get(f"/api/jobs/{job.pk}/bundle").content))
    assert sorted(n.rsplit("-", 1)[-1] for n in bundle.namelist()) == [
        "anonymized.txt",
        "receipt.json",
        "receipt.txt",
    ]


@pytest.mark.parametrize("part", ["output", "spans", "receipt", "bundle"])
def test_results_of_an_unfinished_job_answer_409(as_alice, alice, part):
    job = JobFactory(owner=alice)
    response = as_alice.get(f"/api/jobs/{job.pk}/{part}")
    assert response.status_code == 409 and "queued" in response.json()["detail"]


def test_deleting_the_original_keeps_receipt_and_output(as_alice, alice):
    job = succeeded_job(alice)
    response = as_alice.delete(f"/api/documents/{job.document_id}/original")
    assert response.status_code == 200 and response.json()["purged_at"]
    assert Document.objects.get(pk=job.document_id).text == ""
    spans = as_alice.get(f"/api/jobs/{job.pk}/spans").json()
    assert all(s["text"] is None for s in spans)
    assert as_alice.get(f"/api/jobs/{job.pk}/output").content == b"Write to [EMAIL] today."
    assert Receipt.objects.filter(job=job).exists()


def test_mechanisms_list_what_the_settings_take(as_alice):
    mechanisms = {m["name"]: m for m in as_alice.get("/api/mechanisms").json()}
    assert "detector" in mechanisms["redact"]["parameters"]
    assert mechanisms["redact"]["available"] is True


def test_budget_shows_the_default_cap(as_alice, settings):
    settings.DEFAULT_BUDGET_EPSILON = 32.0
    body = as_alice.get("/api/budget").json()
    assert body["epsilon_cap"] == 32.0 and body["cap_is_default"] and body["epsilon_spent"] == 0
    assert body["coverage"] and body["require_formal_guarantee"] is False
