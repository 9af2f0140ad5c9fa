"""Batches: read the documents of a batch upload, then queue one job per document, admitted
against the budget together (all or none)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import PurePosixPath

from django.conf import settings
from django.db import transaction

from anonymizer import Settings
from webapp.batches.archives import BatchError, Upload
from webapp.batches.models import Batch, BatchItem
from webapp.jobs import services as jobs
from webapp.jobs.documents import DocumentError, extract_text
from webapp.jobs.planning import worst_case_receipt
from webapp.jobs.review import attach_pseudonym_set

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchDocument:
    filename: str  # as uploaded (a path inside a .zip)
    text: str
    source: str
    original_file: bytes | None = None  # a .docx, kept to write the output in its format


class UnreadableDocuments(BatchError):
    """Some documents of a batch cannot be read; `problems` has one sentence per document."""

    def __init__(self, problems: list[str], n_total: int) -> None:
        self.problems = problems
        super().__init__(
            f"{len(problems)} of the {n_total} documents cannot be read, so the batch was not "
            "submitted: " + " ".join(problems)
        )


def read_documents(uploads: list[Upload]) -> list[BatchDocument]:
    """Every document's text (each bounded as a single upload is); all problems at once."""
    deadline = time.monotonic() + settings.BATCH_READ_SECONDS
    documents: list[BatchDocument] = []
    problems: list[str] = []
    for upload in uploads:
        if time.monotonic() > deadline:
            raise BatchError(
                f"Reading the batch took longer than {settings.BATCH_READ_SECONDS:g} s "
                f"({len(documents) + len(problems)} of {len(uploads)} documents read); "
                "send fewer or smaller documents at a time."
            )
        try:
            text, source = extract_text(upload.name, upload.data)
        except DocumentError as exc:
            problems.append(str(exc))
            continue
        original = upload.data if source == "docx" else None
        documents.append(BatchDocument(upload.name, text, source, original))
    if problems:
        raise UnreadableDocuments(problems, len(uploads))
    return documents


def default_name(documents: list[BatchDocument]) -> str:
    first = PurePosixPath(documents[0].filename).name if documents else "documents"
    more = f" and {len(documents) - 1} more" if len(documents) > 1 else ""
    return f"{first}{more}"[:255]


def submit_batch(  # type: ignore[no-untyped-def]
    user,
    *,
    name: str,
    documents: list[BatchDocument],
    rewrite_settings: Settings,
    pseudonym_set: str = "",
) -> Batch:
    """Store the batch, its documents and one queued job per document, or nothing at all
    (ledger.BatchBudgetExceeded says how many would fit). A named pseudonym set makes
    numbered placeholders and fakes consistent across the batch's documents."""
    # Every document is admitted at the receipt of a one-chunk document with these settings,
    # which bounds its cost at any K (see webapp.jobs.planning), so nothing is detected in
    # the request; the worker plans each exactly and charges that.
    planned = worst_case_receipt(rewrite_settings)
    with transaction.atomic():
        batch = Batch.objects.create(
            owner=user,
            name=name or default_name(documents),
            mechanism=rewrite_settings.mechanism,
            settings=rewrite_settings.to_dict(),
        )
        stored = [
            jobs.create_document(
                user,
                name=PurePosixPath(d.filename).name,
                text=d.text,
                source=d.source,
                original_file=d.original_file,
            )
            for d in documents
        ]
        queued = jobs.submit_jobs(user, stored, rewrite_settings, [planned] * len(stored))
        for job in queued:  # before commit, so before any worker is rung
            attach_pseudonym_set(job, pseudonym_set)
        BatchItem.objects.bulk_create(
            BatchItem(batch=batch, job=job, position=i, filename=d.filename[:255])
            for i, (job, d) in enumerate(zip(queued, documents, strict=True))
        )
    log.info("batch %s: %d jobs queued", batch.pk, len(queued))
    return batch


def cancel_batch(batch: Batch) -> None:
    """Cancel every unfinished job of the batch (running ones stop at their next step);
    finished ones keep their output and receipt."""
    for item in batch.items.select_related("job"):
        if not item.job.is_finished:
            jobs.cancel_job(item.job)
