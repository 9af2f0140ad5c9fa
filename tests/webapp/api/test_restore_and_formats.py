"""Restore and the original-format download through the API, with jobs run by the real task
in this process: owner only, 409 where there is nothing to give."""

import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.documents import docx_bytes
from tests.factories import succeeded_job
from worker.tasks import rewrite as rewrite_task

pytestmark = pytest.mark.django_db
NUMBERED = {"mechanism": "redact", "detector": "regex", "operator": "numbered"}
TEXT = "Mail jane@example.com and bob@example.org; jane@example.com again."


def _run(client, path: str, **kwargs) -> int:  # type: ignore[no-untyped-def]
    response = client.post(path, **kwargs)
    assert response.status_code == 201, response.content
    job_id = response.json()["id"]
    rewrite_task(job_id)
    body = client.get(f"/api/jobs/{job_id}").json()
    assert body["state"] == "succeeded", body["error"]
    return job_id


@pytest.fixture
def numbered_job(as_alice, no_enqueue) -> int:  # type: ignore[no-untyped-def]
    return _run(
        as_alice,
        "/api/jobs",
        data={"text": TEXT, "settings": NUMBERED},
        content_type="application/json",
    )


def test_numbered_placeholders_in_an_answer_are_restored(as_alice, numbered_job):
    output = as_alice.get(f"/api/jobs/{numbered_job}/output").content.decode()
    assert output == "Mail [EMAIL_1] and [EMAIL_2]; [EMAIL_1] again."
    answer = "Sure: write to EMAIL_2 first, then [EMAIL_1]."
    response = as_alice.post(
        f"/api/jobs/{numbered_job}/restore", {"text": answer}, content_type="application/json"
    )
    assert response.status_code == 200
    assert response.json() == {
        "text": "Sure: write to bob@example.org first, then jane@example.com.",
        "replaced": 2,
        "distinct": 2,
    }


def test_restore_is_for_the_owner_only(client, as_bob, numbered_job):
    body = {"text": "[EMAIL_1]"}
    anonymous = client.post(f"/api/jobs/{numbered_job}/restore", body, "application/json")
    other = as_bob.post(f"/api/jobs/{numbered_job}/restore", body, "application/json")
    assert (anonymous.status_code, other.status_code) == (401, 404)
    assert "jane@example.com" not in other.content.decode()


def test_restore_without_a_mapping_answers_409(as_alice, alice):
    job = succeeded_job(alice)  # plain placeholders: nothing to restore from
    response = as_alice.post(
        f"/api/jobs/{job.pk}/restore", {"text": "[EMAIL]"}, content_type="application/json"
    )
    assert response.status_code == 409 and "no stored mapping" in response.json()["detail"]


def test_restore_after_the_original_was_deleted_answers_409(as_alice, numbered_job):
    document = as_alice.get(f"/api/jobs/{numbered_job}").json()["document"]["id"]
    as_alice.delete(f"/api/documents/{document}/original")
    response = as_alice.post(
        f"/api/jobs/{numbered_job}/restore", {"text": "[EMAIL_1]"}, content_type="application/json"
    )
    assert response.status_code == 409


def test_a_docx_comes_back_as_docx_without_the_original_strings(
    as_alice, as_bob, client, no_enqueue
):
    upload = SimpleUploadedFile(
        "letter.docx", docx_bytes(["Dear Jane Doe,", "mail jane@example.com"])
    )
    settings = {"mechanism": "redact", "detector": "regex", "deny_list": ["Jane Doe"]}
    job_id = _run(
        as_alice, "/api/jobs/upload", data={"file": upload, "settings": json.dumps(settings)}
    )
    response = as_alice.get(f"/api/jobs/{job_id}/original-format")
    assert response.status_code == 200 and response["Content-Disposition"].endswith('.docx"')
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert all(
        b"Jane Doe" not in archive.read(n) and b"jane@example" not in archive.read(n)
        for n in archive.namelist()
    )
    assert client.get(f"/api/jobs/{job_id}/original-format").status_code == 401
    assert as_bob.get(f"/api/jobs/{job_id}/original-format").status_code == 404


def test_a_pasted_text_has_no_original_format(as_alice, alice):
    job = succeeded_job(alice)
    response = as_alice.get(f"/api/jobs/{job.pk}/original-format")
    assert (
        response.status_code == 409
        and "no output in the original format" in response.json()["detail"]
    )
