"""Purging originals: by the owner on request, and automatically after the retention period.

Receipts, ledger entries and outputs stay; the original text, the uploaded file, the
original pieces kept in the job's span trace, reviews and restore mappings are removed.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from webapp.jobs.models import Document, ReplacementMapping, Review, RewriteJob
from webapp.ledger import services as ledger

log = logging.getLogger(__name__)


def purge_document(document: Document) -> None:
    """Remove the original text of a document and of its jobs' span traces."""
    with transaction.atomic():
        for job in RewriteJob.objects.filter(document=document).only("pk", "spans"):
            job.spans = [purged_span(span) for span in job.spans]
            job.save(update_fields=["spans"])
        ReplacementMapping.objects.filter(job__document=document).delete()
        Review.objects.filter(document=document).delete()
        document.text = ""
        document.original_file = None
        document.purged_at = timezone.now()
        document.save(update_fields=["text", "original_file", "purged_at"])
        queued = RewriteJob.objects.filter(document=document, state=RewriteJob.State.QUEUED)
        for job_id in queued.values_list("pk", flat=True):
            ledger.release_reservation(job_id)
        queued.update(
            state=RewriteJob.State.CANCELLED,
            cancel_requested=True,
            finished_at=timezone.now(),
            stage="cancelled: original deleted",
        )
    log.info("document %s purged", document.pk)


def purged_span(span: dict) -> dict:
    """A span without its original text; unchanged text is output too, so it stays as such."""
    if not span.get("is_pii") and span.get("rewritten") is None and "output" not in span:
        return {**span, "output": span.get("text"), "text": None}
    return {**span, "text": None}


def purge_expired_documents(now=None) -> int:  # type: ignore[no-untyped-def]
    """Purge originals older than DOCUMENT_RETENTION_DAYS that no job is still using."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.DOCUMENT_RETENTION_DAYS)
    expired = Document.objects.filter(created_at__lt=cutoff, purged_at__isnull=True).exclude(
        jobs__state__in=[RewriteJob.State.QUEUED, RewriteJob.State.RUNNING]
    )
    count = 0
    for document in expired.distinct():
        purge_document(document)
        count += 1
    return count
