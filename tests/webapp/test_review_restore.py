"""The review flow, operators, restore and original-format output through the views and the
real task functions (called in-process; the browser tests use a real worker)."""

import io
import zipfile

import pytest
from django.urls import reverse

from tests.documents import docx_bytes
from webapp.jobs.models import (
    Document,
    OutputFile,
    ReplacementMapping,
    Review,
    RewriteJob,
)
from worker.review_tasks import detect_for_review
from worker.tasks import rewrite as rewrite_task

pytestmark = pytest.mark.django_db

LETTER = (
    "Landlord: Jane Doe (jane@example.com) lets the flat in Manchester to John Smith.\n"
    "Jane Doe signs for the Landlord."
)
# detector "none" and a deny list: detections the test controls, whatever the detectors do
REVIEW_FORM = {
    "mechanism": "redact",
    "detector": "none",
    "deny_list": "Landlord\njane@example.com",
    "text": LETTER,
    "name": "lease.txt",
    "review": "1",
}


@pytest.fixture
def no_enqueue(monkeypatch):
    sent = []
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", sent.append)
    monkeypatch.setattr("webapp.jobs.review.enqueue_detection", sent.append)
    return sent


def _detected_review(client, alice, **form) -> Review:
    client.force_login(alice)
    response = client.post(reverse("submit"), {**REVIEW_FORM, **form})
    assert response.status_code == 302, response.content.decode()[:2000]
    review = Review.objects.get(owner=alice)
    assert response["Location"] == reverse("review_detail", args=[review.pk])
    detect_for_review(review.pk)
    review.refresh_from_db()
    assert review.state == "ready"
    return review


def _index_of(review: Review, text: str) -> int:
    for i, c in enumerate(review.candidates):
        if review.document.text[c["start"] : c["end"]] == text:
            return i
    raise AssertionError(f"{text!r} not among the candidates")


def _apply_and_run(client, review: Review) -> RewriteJob:
    response = client.post(reverse("review_apply", args=[review.pk]))
    assert response.status_code == 302
    job = RewriteJob.objects.get(review=review)
    rewrite_task(job.pk)
    job.refresh_from_db()
    assert job.state == "succeeded", job.error
    return job


def test_the_review_page_shows_each_detection_with_category_score_and_source(
    client, alice, no_enqueue
):
    review = _detected_review(client, alice)
    body = client.get(reverse("review_detail", args=[review.pk])).content.decode()
    assert body.count('form="decide-form"') == 3  # Landlord twice, the email
    assert "always-redact list" in body and "score 1.00" in body
    assert 'id="add-form"' in body and 'action="/reviews/' in body  # the no-JS path


def test_rejecting_a_span_and_adding_a_missed_one_rewrites_exactly_those(client, alice, no_enqueue):
    review = _detected_review(client, alice)
    landlord = _index_of(review, "Landlord")
    client.post(
        reverse("review_decide", args=[review.pk]),
        {"index": landlord, "decision": "reject", "scope": "string"},
    )
    client.post(
        reverse("review_add", args=[review.pk]), {"text": "Manchester", "category": "location"}
    )
    client.post(
        reverse("review_add", args=[review.pk]),
        {"text": "jane doe", "category": "full person name"},
    )
    job = _apply_and_run(client, review)
    assert job.output == (
        "Landlord: [PERSON] ([REDACTED]) lets the flat in [LOCATION] to John Smith.\n"
        "[PERSON] signs for the Landlord."
    )
    assert job.settings["detector"] == "gold" and job.settings["deny_list"] == []
    receipt = job.receipt.payload
    assert receipt["detector"] == "none, reviewed"
    review_record = receipt["details"]["review"]
    assert review_record["kept_strings"] == ["Landlord"]
    assert review_record["kept_spans"] == 2 and review_record["added_spans"] == 3
    assert review_record["reviewer"] == "alice" and review_record["threshold"] == 0.0
    assert "Manchester" not in str(receipt) and "Jane Doe" not in str(receipt)
    assert receipt["details"]["choices"]["deny_list_entries"] == 2
    assert any("reviewed by a person (alice)" in c for c in receipt["caveats"])
    page = client.get(reverse("job_detail", args=[job.pk])).content.decode()
    assert "2 strings you chose to keep" not in page  # one distinct string, kept twice
    assert "1 string you chose to keep: “Landlord”" in page
    assert "3 spans you marked yourself" in page


def test_the_threshold_keeps_low_scores_unless_the_reviewer_decided(client, alice, no_enqueue):
    review = _detected_review(client, alice)
    client.post(reverse("review_threshold", args=[review.pk]), {"threshold": "1.5"})
    review.refresh_from_db()
    assert review.threshold == 0.0
    client.post(reverse("review_threshold", args=[review.pk]), {"threshold": "1"})
    job = _apply_and_run(client, review)  # deny-list spans score 1.0: they stay
    assert "[REDACTED]" in job.output and "jane@example.com" not in job.output


def test_a_selection_adds_only_that_occurrence_when_asked(client, alice, no_enqueue):
    review = _detected_review(client, alice)
    second = LETTER.rindex("Jane Doe")
    client.post(
        reverse("review_add", args=[review.pk]),
        {"text": "Jane Doe", "category": "full person name", "start": second},
    )
    job = _apply_and_run(client, review)
    assert job.output.count("[PERSON]") == 1 and job.output.endswith(
        "[PERSON] signs for the [REDACTED]."
    )


def test_a_selection_that_does_not_match_the_text_is_refused(client, alice, no_enqueue):
    review = _detected_review(client, alice)
    response = client.post(
        reverse("review_add", args=[review.pk]),
        {"text": "Jane Doe", "category": "full person name", "start": 0},
        HTTP_HX_REQUEST="true",
    )
    assert "does not match" in response.content.decode()
    review.refresh_from_db()
    assert review.added == []


@pytest.mark.parametrize("name", ["review_detail", "review_status"])
def test_review_pages_are_404_for_other_users(client, alice, bob, no_enqueue, name):
    review = _detected_review(client, alice)
    client.force_login(bob)
    assert client.get(reverse(name, args=[review.pk])).status_code == 404


@pytest.mark.parametrize(
    "name", ["review_decide", "review_add", "review_threshold", "review_apply"]
)
def test_review_actions_are_404_for_other_users_and_need_login(
    client, alice, bob, no_enqueue, name
):
    review = _detected_review(client, alice)
    client.logout()
    anonymous = client.post(reverse(name, args=[review.pk]), {"index": 0})
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    client.force_login(bob)
    assert client.post(reverse(name, args=[review.pk]), {"index": 0}).status_code == 404
    assert not RewriteJob.objects.exists()


def test_no_detector_is_refused_for_redaction_without_a_review(client, alice, no_enqueue):
    client.force_login(alice)
    form = {"mechanism": "redact", "detector": "none", "text": LETTER}
    response = client.post(reverse("submit"), form)
    assert "replaces nothing" in response.content.decode()
    assert not RewriteJob.objects.exists()


# --- operators and restore ------------------------------------------------------------


def _reviewed_numbered_job(client, alice, **form) -> RewriteJob:
    review = _detected_review(client, alice, operator="numbered", **form)
    for name in ("Jane Doe", "John Smith"):
        client.post(
            reverse("review_add", args=[review.pk]), {"text": name, "category": "full person name"}
        )
    return _apply_and_run(client, review)


def test_numbered_placeholders_restore_a_pasted_answer(client, alice, no_enqueue):
    job = _reviewed_numbered_job(client, alice)
    assert job.output.startswith("[REDACTED_1]: [PERSON_1] ([REDACTED_2])")
    assert "to [PERSON_2]" in job.output and "\n[PERSON_1] signs" in job.output
    answer = "Ask PERSON_2 whether [PERSON_1] paid; write to [REDACTED_2]."
    response = client.post(reverse("restore", args=[job.pk]), {"text": answer})
    body = response.content.decode()
    assert "Ask John Smith whether Jane Doe paid; write to jane@example.com." in body
    assert job.receipt.payload["details"]["restore_mapping"] is True


def test_the_mapping_is_encrypted_at_rest_and_deleted_with_the_original(client, alice, no_enqueue):
    job = _reviewed_numbered_job(client, alice)
    row = ReplacementMapping.objects.get(job=job)
    assert b"Jane" not in bytes(row.token) and row.n_entries == 4
    client.post(reverse("document_delete", args=[job.document.pk]))
    assert not ReplacementMapping.objects.filter(job=job).exists()
    assert not Review.objects.filter(document=job.document).exists()
    page = client.get(reverse("restore", args=[job.pk])).content.decode()
    assert "deleted with the original" in page


def test_restore_is_404_for_other_users(client, alice, bob, no_enqueue):
    job = _reviewed_numbered_job(client, alice)
    client.force_login(bob)
    assert client.post(reverse("restore", args=[job.pk]), {"text": "[PERSON_1]"}).status_code == 404
    assert client.get(reverse("restore", args=[job.pk])).status_code == 404


def test_a_named_set_keeps_numbers_across_documents(client, alice, no_enqueue):
    first = _reviewed_numbered_job(client, alice, pseudonym_set="case 4711")
    Review.objects.all().update(state="applied")
    client.force_login(alice)
    client.post(
        reverse("submit"),
        {
            "mechanism": "redact",
            "detector": "none",
            "deny_list": "Mary Major\nJohn Smith",
            "text": "Mary Major met John Smith.",
            "operator": "numbered",
            "pseudonym_set": "case 4711",
        },
    )
    second = RewriteJob.objects.exclude(pk=first.pk).get()
    rewrite_task(second.pk)
    second.refresh_from_db()
    # deny-list spans are "custom": REDACTED_1/2 were Landlord and the email in the first job
    assert second.output == "[REDACTED_3] met [REDACTED_4]."
    assert first.pseudonym_set_id == second.pseudonym_set_id


def test_hashes_use_the_users_salt(client, alice, bob, no_enqueue):
    outputs = []
    for user in (alice, alice, bob):
        client.force_login(user)
        client.post(
            reverse("submit"),
            {
                "mechanism": "redact",
                "detector": "none",
                "deny_list": "Jane Doe",
                "text": "Jane Doe",
                "operator": "hash",
            },
        )
        job = RewriteJob.objects.order_by("-pk").first()
        rewrite_task(job.pk)
        job.refresh_from_db()
        outputs.append(job.output)
    assert outputs[0] == outputs[1] != outputs[2]
    assert outputs[0].startswith("[REDACTED:") and len(outputs[0]) == len("[REDACTED:]") + 12


# --- result page and formats ----------------------------------------------------------


def test_the_output_shows_in_full_after_the_original_is_deleted(client, alice, no_enqueue):
    review = _detected_review(client, alice)
    job = _apply_and_run(client, review)
    client.post(reverse("document_delete", args=[job.document.pk]))
    body = client.get(reverse("job_detail", args=[job.pk])).content.decode()
    assert "lets the flat in Manchester to John Smith." in body
    side = client.get(reverse("job_detail", args=[job.pk]) + "?view=side").content.decode()
    assert "lets the flat in Manchester" in side and "(deleted)" in side


def test_long_outputs_are_paginated(client, alice, no_enqueue):
    client.force_login(alice)
    text = "\n".join(f"Line {i} mentions jane@example.com here." for i in range(600))
    client.post(
        reverse("submit"),
        {"mechanism": "redact", "detector": "none", "deny_list": "jane@example.com", "text": text},
    )
    job = RewriteJob.objects.get()
    rewrite_task(job.pk)
    first = client.get(reverse("job_detail", args=[job.pk])).content.decode()
    assert (
        "Line 0 mentions" in first and "Line 599 mentions" not in first.split('id="output-full"')[0]
    )
    assert "page 1 of" in first
    last = client.get(reverse("job_detail", args=[job.pk]) + "?page=99").content.decode()
    assert "Line 599 mentions" in last.split('id="output-full"')[0]


def test_a_docx_upload_comes_back_as_docx_without_the_original_strings(client, alice, no_enqueue):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(alice)
    upload = SimpleUploadedFile(
        "letter.docx", docx_bytes(["Dear Jane Doe,", "call 555-0100 today."])
    )
    client.post(
        reverse("submit"),
        {"mechanism": "redact", "detector": "none", "deny_list": "Jane Doe", "file": upload},
    )
    job = RewriteJob.objects.get()
    assert job.document.original_file
    rewrite_task(job.pk)
    response = client.get(reverse("download_original_format", args=[job.pk]))
    assert response.status_code == 200 and response["Content-Disposition"].endswith('.docx"')
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert all(b"Jane Doe" not in archive.read(n) for n in archive.namelist())
    document = Document.objects.get()
    client.post(reverse("document_delete", args=[document.pk]))
    document.refresh_from_db()
    assert document.original_file is None
    assert OutputFile.objects.filter(job=job).exists()  # the output stays, like the text


def test_the_form_explains_each_detector_and_offers_the_review(client, alice):
    client.force_login(alice)
    body = client.get(reverse("submit") + "?mechanism=redact").content.decode()
    assert 'id="review-button"' in body and 'id="detector-help"' in body
    assert "spaCy NER only: names, places, organisations, dates. Misses emails" in body
    assert 'name="operator"' in body and "Numbered placeholder" in body


def test_the_preview_warns_when_dp_embed_invert_runs_without_a_detector(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("submit_preview"),
        {
            "mechanism": "dp-embed-invert",
            "detector": "none",
            "text": LETTER,
            "epsilon": "16",
            "delta": "0.001",
            "clip_radius": "1.5",
            "num_steps": "1",
            "composition": "basic",
            "max_len": "32",
            "redact_pii": "on",
        },
    )
    assert 'id="detector-warning"' in response.content.decode()


def test_a_pasted_document_gets_a_name_without_its_first_words(client, alice, no_enqueue):
    client.force_login(alice)
    client.post(reverse("submit"), {"mechanism": "redact", "detector": "regex", "text": LETTER})
    assert Document.objects.get().name == "Pasted text (18 words)"


def test_a_long_review_pages_the_text_and_its_list_of_spans(client, alice, no_enqueue):
    text = "\n".join(f"Line {i}: the Landlord called." for i in range(800))
    review = _detected_review(client, alice, text=text, deny_list="Landlord")
    assert len(review.candidates) == 800
    first = client.get(reverse("review_detail", args=[review.pk])).content.decode()
    assert "page 1 of" in first and 0 < first.count('id="row-') < 800
    assert 'id="row-0"' in first and 'id="row-799"' not in first
    last = client.get(reverse("review_detail", args=[review.pk]) + "?page=99").content.decode()
    assert 'id="row-799"' in last and 'id="row-0"' not in last
    assert "800</strong> spans will be replaced" in last


def test_resubmitting_a_reviewed_job_offers_the_settings_the_user_chose(client, alice, no_enqueue):
    review = _detected_review(client, alice)
    job = _apply_and_run(client, review)
    body = client.get(reverse("submit") + f"?from_job={job.pk}").content.decode()
    assert '<option value="none" selected>' in body and "Landlord\njane@example.com" in body


def test_a_review_needs_pii_replacement_turned_on(client, alice, no_enqueue):
    client.force_login(alice)
    form = {
        "mechanism": "dp-embed-invert",
        "detector": "regex",
        "text": LETTER,
        "review": "1",
        "epsilon": "16",
        "delta": "0.001",
        "clip_radius": "1.5",
        "num_steps": "1",
        "composition": "basic",
        "max_len": "32",
    }
    response = client.post(reverse("submit"), form)
    assert "turn this on" in response.content.decode() and not Review.objects.exists()


def test_digit_like_characters_in_page_and_span_parameters_are_no_server_error(
    client, alice, no_enqueue
):
    """'²'.isdigit() is true but int('²') raises: such parameters fall back, never a 500."""
    review = _detected_review(client, alice)
    for data in ({"toggle": "²"}, {"index": "¹", "decision": "accept"}):
        response = client.post(reverse("review_decide", args=[review.pk]), data)
        assert response.status_code < 500, data
    page = reverse("review_detail", args=[review.pk]) + "?page=¹"
    assert client.get(page).status_code == 200
    job = _apply_and_run(client, review)
    for url in (
        reverse("job_detail", args=[job.pk]) + "?page=²",
        reverse("submit") + "?from_job=³",
    ):
        assert client.get(url).status_code == 200, url
