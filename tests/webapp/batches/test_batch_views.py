"""Batch pages for anonymous, another user and the owner; submitting several files or a zip;
refusals that store nothing; progress; the zip of every output and receipt."""

import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from anonymizer import Settings
from tests.documents import docx_bytes
from tests.webapp.batches.helpers import REDACT, make_batch, run, three_files
from tests.webapp.batches.test_archives import make_zip
from webapp.batches import services
from webapp.batches.models import Batch, BatchItem
from webapp.jobs.models import Document, RewriteJob
from webapp.jobs.retention import purge_document
from webapp.ledger.models import LedgerEntry, UserBudget

pytestmark = pytest.mark.django_db
BATCH_URLS = [("get", "batch_detail"), ("post", "batch_cancel"), ("get", "batch_download")]


@pytest.fixture
def alices_batch(alice, no_enqueue):  # type: ignore[no-untyped-def]
    return make_batch(alice, ["Mail a@b.org", "Call +44 20 7946 0958", "Nothing here."])


def _submit(client, files, **fields):  # type: ignore[no-untyped-def]
    return client.post(reverse("batch_new"), {**REDACT, **fields, "files": files})


# --- access -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["batch_list", "batch_new"])
def test_anonymous_is_sent_to_login_from_batch_pages(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.parametrize(("method", "name"), BATCH_URLS)
def test_anonymous_is_sent_to_login_from_a_batch(client, alices_batch, method, name):
    response = getattr(client, method)(reverse(name, args=[alices_batch.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.parametrize(("method", "name"), BATCH_URLS)
def test_it_returns_404_for_other_users_batches(client, alices_batch, bob, method, name):
    client.force_login(bob)
    assert getattr(client, method)(reverse(name, args=[alices_batch.pk])).status_code == 404
    assert not RewriteJob.objects.filter(state="cancelled").exists()


def test_other_users_batches_are_not_listed(client, alices_batch, bob):
    client.force_login(bob)
    assert "reports" not in client.get(reverse("batch_list")).content.decode()


def test_anonymous_cannot_post_a_batch(client):
    response = _submit(client, three_files())
    assert response.status_code == 302 and not Batch.objects.exists()


# --- submitting ---------------------------------------------------------------------------


def test_three_files_become_three_queued_jobs_with_their_own_ledger_entries(
    client, alice, no_enqueue, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = _submit(client, three_files(), name="March letters")
    batch = Batch.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "batch_detail", args=[batch.pk]
    )
    items = list(batch.items.select_related("job__document"))
    assert [i.filename for i in items] == ["memo.txt", "letter.docx", "invoice.pdf"]
    assert [i.job.document.source for i in items] == ["txt", "docx", "pdf"]
    assert {i.job.state for i in items} == {"queued"} and batch.name == "March letters"
    assert sorted(no_enqueue) == sorted(i.job.pk for i in items)
    assert LedgerEntry.objects.filter(job__in=[i.job for i in items]).count() == 3


def test_a_zip_of_documents_becomes_one_job_per_member(client, alice, no_enqueue):
    client.force_login(alice)
    archive = make_zip(
        {"q1/a.txt": b"Mail a@b.org", "q1/b.md": b"# Call Sam", "c.docx": docx_bytes(["Hi"])}
    )
    _submit(client, [SimpleUploadedFile("q1.zip", archive)])
    batch = Batch.objects.get()
    assert [i.filename for i in batch.items.all()] == ["q1/a.txt", "q1/b.md", "c.docx"]
    assert batch.name == "a.txt and 2 more"
    assert [d.name for d in Document.objects.order_by("pk")] == ["a.txt", "b.md", "c.docx"]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ([SimpleUploadedFile("x.zip", make_zip({"../../etc/cron.txt": b"x"}))], "points outside"),
        ([SimpleUploadedFile("x.zip", make_zip({"in.zip": b"PK"}))], "nested archives"),
        ([SimpleUploadedFile("x.zip", make_zip({"b.txt": b"b" * 2_000_000}))], "zip bomb"),
        ([SimpleUploadedFile("photo.png", b"\x89PNG")], "not a supported file type"),
        ([], "Choose the files"),
    ],
)
def test_a_refused_batch_says_why_under_the_files_field_and_stores_nothing(
    client, alice, no_enqueue, files, message
):
    client.force_login(alice)
    response = _submit(client, files)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "files" in errors and message in " ".join(errors["files"]) + " ".join(
        response.context["form"].problems
    )
    assert not Batch.objects.exists() and not Document.objects.exists()
    assert not RewriteJob.objects.exists() and not no_enqueue


def test_one_unreadable_document_lists_every_problem_and_stores_nothing(client, alice):
    client.force_login(alice)
    files = [
        SimpleUploadedFile("good.txt", b"fine text"),
        SimpleUploadedFile("empty.txt", b""),
        SimpleUploadedFile("broken.pdf", b"%PDF-1.4 garbage"),
    ]
    response = _submit(client, files)
    form = response.context["form"]
    assert "2 of the documents cannot be read" in form.errors["files"][0]
    assert len(form.problems) == 2 and "'empty.txt' is empty." in form.problems
    page = response.content.decode()
    assert 'id="batch-problems"' in page and "broken.pdf" in page
    assert not RewriteJob.objects.exists()


def test_a_file_over_the_document_limit_is_refused_under_the_files_field(client, alice, settings):
    settings.MAX_DOCUMENT_BYTES = 1000
    client.force_login(alice)
    response = _submit(client, [SimpleUploadedFile("big.txt", b"x" * 5000)])
    assert "larger than its limit of 1,000 bytes" in response.context["form"].errors["files"][0]
    assert not RewriteJob.objects.exists()


def test_files_together_over_the_batch_limit_are_refused(client, alice, settings):
    settings.BATCH_MAX_TOTAL_BYTES = 3000
    client.force_login(alice)
    files = [SimpleUploadedFile(f"{i}.txt", b"y" * 1200) for i in range(3)]
    response = _submit(client, files)
    assert "the limit for one batch" in response.content.decode()
    assert not RewriteJob.objects.exists()


def test_bad_settings_are_shown_under_their_field(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("batch_new"),
        {"mechanism": "redact", "detector": "nonsense", "files": three_files()},
    )
    assert "detector" in response.context["form"].errors
    assert not RewriteJob.objects.exists()


def test_a_batch_over_the_budget_is_refused_saying_how_many_fit(
    client, alice, gaussian_mechanism_available
):
    # three documents at ε = 4 compose to ε ≈ 8.1, two to ε ≈ 6.2 (exact composition)
    UserBudget.objects.create(user=alice, epsilon_cap=7.0, delta_cap=1e-3)
    client.force_login(alice)
    response = client.post(
        reverse("batch_new"),
        {
            "mechanism": "dp-embed-invert",
            "detector": "regex",
            "epsilon": "4",
            "delta": "0.001",
            "composition": "gdp",
            "clip_radius": "1.5",
            "num_steps": "5",
            "files": three_files(),
        },
    )
    message = " ".join(response.context["form"].non_field_errors())
    assert "The batch of 3 documents was not submitted" in message
    assert "takes only 2 of them" in message
    assert not Batch.objects.exists() and not RewriteJob.objects.exists()
    assert not LedgerEntry.objects.exists()


def test_the_no_js_mechanism_switch_keeps_the_batch_name(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("batch_new"), {"mechanism": "santext", "name": "Q1", "choose": "1"}
    )
    form = response.context["form"]
    assert form.info.name == "santext" and form["name"].value() == "Q1"
    assert not RewriteJob.objects.exists()


# --- progress, cancel, download -------------------------------------------------------------


def test_the_batch_page_shows_each_documents_state_and_polls_until_done(
    client, alice, alices_batch
):
    first, second, third = [i.job for i in alices_batch.items.all()]
    run(first)
    RewriteJob.objects.filter(pk=second.pk).update(state="running", progress=0.5, stage="step 2")
    client.force_login(alice)
    page = client.get(reverse("batch_detail", args=[alices_batch.pk])).content.decode()
    assert "1 queued, 1 running, 1 succeeded" in page and "step 2" in page
    assert 'hx-trigger="every 2s' in page
    assert page.count('class="batch-item') == 3
    run(third)
    RewriteJob.objects.filter(pk=second.pk).update(state="failed", error="worker lost")
    fragment = client.get(
        reverse("batch_detail", args=[alices_batch.pk]), headers={"HX-Request": "true"}
    ).content.decode()
    assert fragment.strip().startswith('<div id="batch-progress"')
    assert "hx-trigger" not in fragment  # finished: the polling stops
    assert "2 succeeded, 1 failed" in fragment and "worker lost" in fragment


def test_cancel_stops_the_unfinished_documents_only(client, alice, alices_batch):
    first, *rest = [i.job for i in alices_batch.items.all()]
    run(first)
    client.force_login(alice)
    client.post(reverse("batch_cancel", args=[alices_batch.pk]))
    states = list(
        RewriteJob.objects.filter(batch_item__batch=alices_batch)
        .order_by("batch_item__position")
        .values_list("state", flat=True)
    )
    assert states == ["succeeded", "cancelled", "cancelled"]


def test_the_zip_holds_every_output_and_receipt_and_a_manifest(client, alice, alices_batch):
    jobs = [i.job for i in alices_batch.items.all()]
    run(jobs[0])
    run(jobs[2])
    RewriteJob.objects.filter(pk=jobs[1].pk).update(state="failed", error="worker lost")
    client.force_login(alice)
    response = client.get(reverse("batch_download", args=[alices_batch.pk]))
    assert response["Content-Disposition"] == (
        f'attachment; filename="reports-batch{alices_batch.pk}.zip"'
    )
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = archive.namelist()
    assert len(names) == 7 and names[-1] == "manifest.json"
    assert archive.read(f"01-doc-0-job{jobs[0].pk}-anonymized.txt") == b"Mail [EMAIL]"
    manifest = json.loads(archive.read("manifest.json"))
    assert [d["state"] for d in manifest["documents"]] == ["succeeded", "failed", "succeeded"]
    assert manifest["documents"][1] == {
        "position": 2,
        "filename": "doc-1.txt",
        "job": jobs[1].pk,
        "state": "failed",
        "error": "worker lost",
        "files": [],
    }
    receipt = json.loads(archive.read(f"03-doc-2-job{jobs[2].pk}-receipt.json"))
    assert receipt["sha256"] == manifest["documents"][2]["receipt_sha256"]


def test_a_batch_without_outputs_has_no_zip_yet(client, alice, alices_batch):
    client.force_login(alice)
    assert client.get(reverse("batch_download", args=[alices_batch.pk])).status_code == 409


def test_batch_items_keep_their_upload_order(alices_batch):
    assert list(BatchItem.objects.values_list("position", flat=True)) == [0, 1, 2]


def test_a_docx_in_a_batch_comes_back_as_docx_in_the_zip(client, alice, no_enqueue):
    from worker.tasks import rewrite as rewrite_task

    client.force_login(alice)
    letter = SimpleUploadedFile("letter.docx", docx_bytes(["Dear Sam,", "mail sam@example.org"]))
    _submit(client, [letter, SimpleUploadedFile("memo.txt", b"Mail a@b.org")])
    batch = Batch.objects.get()
    for item in batch.items.all():
        rewrite_task(item.job_id)
    archive = zipfile.ZipFile(
        io.BytesIO(client.get(reverse("batch_download", args=[batch.pk])).content)
    )
    docx_name = next(n for n in archive.namelist() if n.endswith("-anonymized.docx"))
    inner = zipfile.ZipFile(io.BytesIO(archive.read(docx_name)))
    assert all(b"sam@example.org" not in inner.read(n) for n in inner.namelist())
    assert len(archive.namelist()) == 2 * 3 + 1 + 1  # 3 files each, the .docx, the manifest


def test_a_named_pseudonym_set_numbers_people_alike_across_the_batch(client, alice, no_enqueue):
    from worker.tasks import rewrite as rewrite_task

    client.force_login(alice)
    files = [
        SimpleUploadedFile("a.txt", b"Mail jane@example.com and bob@example.org."),
        SimpleUploadedFile("b.txt", b"Reply to bob@example.org only."),
    ]
    _submit(client, files, operator="numbered", pseudonym_set="case 4711")
    batch = Batch.objects.get()
    for item in batch.items.all():
        rewrite_task(item.job_id)
    outputs = [RewriteJob.objects.get(pk=i.job_id).output for i in batch.items.all()]
    assert outputs == ["Mail [EMAIL_1] and [EMAIL_2].", "Reply to [EMAIL_2] only."]


def test_a_batch_forgets_its_always_redact_list_once_every_original_is_deleted(alice, no_enqueue):
    documents = [services.BatchDocument(f"d{i}.txt", "Ask Nightjar.", "txt") for i in range(2)]
    hidden = Settings(mechanism="redact", detector="regex", deny_list=("Nightjar",))
    batch = services.submit_batch(alice, name="r", documents=documents, rewrite_settings=hidden)
    first, second = (item.job.document for item in batch.items.all())
    purge_document(first)
    batch.refresh_from_db()
    assert batch.settings["deny_list"] == ["Nightjar"]  # the second original still needs it
    purge_document(second)
    batch.refresh_from_db()
    assert batch.settings["deny_list"] == [] and "Nightjar" not in str(batch.settings)
