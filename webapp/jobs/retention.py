"""Purging originals: by the owner on request, and automatically after the retention period.

Receipts, ledger entries and outputs stay; the original text, the uploaded file, the
original pieces kept in the job's span trace, the always-redact and sensitive-word lists in
the job's settings, reviews and restore mappings are removed.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from webapp.batches.models import Batch
from webapp.jobs.models import Document, ReplacementMapping, Review, RewriteJob
from webapp.ledger import services as ledger

log = logging.getLogger(__name__)


def purge_document(document: Document) -> None:
    """Remove the original text of a document and of its jobs' span traces."""
    with transaction.atomic():
        for job in RewriteJob.objects.filter(document=document).only("pk", "spans", "settings"):
            job.spans = [purged_span(span) for span in job.spans]
            job.settings = purged_settings(job.settings)
            job.save(update_fields=["spans", "settings"])
        ReplacementMapping.objects.filter(job__document=document).delete()
        Review.objects.filter(document=document).delete()
        document.text = ""
        document.original_file = None
        document.purged_at = timezone.now()
        document.save(update_fields=["text", "original_file", "purged_at"])
        _purge_lists_of_finished_batches(document)
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


PURGED_LISTS = ("deny_list", "sensitive_words")


def purged_settings(job_settings: dict) -> dict:
    """Settings without the strings the user listed to hide: they are pieces of the original.

    The receipt keeps only their counts (`choices.deny_list_entries`)."""
    return {**job_settings, **{name: [] for name in PURGED_LISTS if name in job_settings}}


def _purge_lists_of_finished_batches(document: Document) -> None:
    """A batch's lists go once none of its documents keeps an original."""
    for batch in Batch.objects.filter(items__job__document=document).distinct():
        if not batch.items.filter(job__document__purged_at__isnull=True).exists():
            batch.settings = purged_settings(batch.settings)
            batch.save(update_fields=["settings"])


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
