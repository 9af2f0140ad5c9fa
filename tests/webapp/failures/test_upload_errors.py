"""Upload problems are shown under the file field (not the text box), and the no-JavaScript
"show this mechanism's settings" button keeps an uploaded file."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.documents import docx_bytes
from webapp.jobs.models import Document, RewriteJob

pytestmark = pytest.mark.django_db
FORM = {"mechanism": "redact", "detector": "regex"}


def _field_html(page: str, name: str) -> str:
    return page.split(f'id="field-{name}"')[1].split("</div>")[0]


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("photo.png", b"\x89PNG", "not a supported file type"),
        ("empty.txt", b"", "empty"),
        ("binary.txt", bytes(range(256)) * 10, "binary"),
        ("broken.pdf", b"%PDF-1.4 junk", "not a readable PDF"),
        ("big.txt", b"a" * 2_000_001, "too large"),
    ],
)
def test_an_upload_problem_is_shown_under_the_file_field_only(client, alice, name, data, message):
    client.force_login(alice)
    response = client.post(reverse("submit"), {**FORM, "file": SimpleUploadedFile(name, data)})
    errors = response.context["form"].errors
    assert list(errors) == ["file"] and len(errors["file"]) == 1
    page = response.content.decode()
    assert message in _field_html(page, "file") and 'class="error"' not in _field_html(page, "text")


def test_the_no_js_settings_button_keeps_the_uploaded_file(client, alice):
    client.force_login(alice)
    upload = SimpleUploadedFile("letter.docx", docx_bytes(["Dear Sam,", "mail sam@example.org"]))
    response = client.post(
        reverse("submit"), {"mechanism": "santext", "choose": "1", "file": upload}
    )
    form = response.context["form"]
    assert form.info.name == "santext"
    document = Document.objects.get(owner=alice)
    assert document.name == "letter.docx" and document.source == "docx"
    assert document.original_file and "sam@example.org" in document.text
    assert form.initial["document"] == document.pk
    assert "letter.docx" in response.content.decode()  # the page says which file it keeps
    assert not RewriteJob.objects.exists()


def test_the_kept_file_is_submitted_with_the_new_settings(client, alice, monkeypatch):
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", lambda job_id: True)
    client.force_login(alice)
    upload = SimpleUploadedFile("memo.txt", b"Mail sam@example.org today.")
    chosen = client.post(reverse("submit"), {"mechanism": "redact", "choose": "1", "file": upload})
    kept = chosen.context["form"].initial["document"]
    response = client.post(reverse("submit"), {**FORM, "document": kept})
    assert response.status_code == 302
    job = RewriteJob.objects.get()
    assert job.document_id == kept and Document.objects.count() == 1


def test_a_bad_upload_with_the_settings_button_is_shown_under_the_file_field(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("submit"),
        {"mechanism": "redact", "choose": "1", "file": SimpleUploadedFile("x.png", b"PNG")},
    )
    assert "not a supported file type" in _field_html(response.content.decode(), "file")
    assert not Document.objects.exists()
