"""Building batches for tests: uploads, and jobs completed by the real services."""

from django.core.files.uploadedfile import SimpleUploadedFile

from anonymizer import Settings, rewrite
from tests.documents import docx_bytes, pdf_bytes
from webapp.batches import services
from webapp.batches.models import Batch
from webapp.jobs import services as jobs

REDACT = {"mechanism": "redact", "detector": "regex"}


def three_files() -> list[SimpleUploadedFile]:
    return [
        SimpleUploadedFile("memo.txt", b"Write to jane@example.com today."),
        SimpleUploadedFile("letter.docx", docx_bytes(["Dear Sam,", "call +44 20 7946 0958."])),
        SimpleUploadedFile("invoice.pdf", pdf_bytes(["Invoice for ops@example.org"])),
    ]


def make_batch(user, texts: list[str], name: str = "reports") -> Batch:  # type: ignore[no-untyped-def]
    documents = [
        services.BatchDocument(f"doc-{i}.txt", text, "txt") for i, text in enumerate(texts)
    ]
    return services.submit_batch(
        user, name=name, documents=documents, rewrite_settings=Settings(**REDACT)
    )


def run(job) -> None:  # type: ignore[no-untyped-def]
    """Claim and complete a job with the real redact mechanism, as the worker would."""
    jobs.claim_job(job.pk)
    jobs.complete_job(job.pk, rewrite(job.document.text, Settings.from_mapping(job.settings)))
