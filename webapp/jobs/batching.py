"""Claiming several queued jobs with identical settings so the worker can batch them.

A GPU mechanism is much faster on one batch of many chunks than on many small calls; the
other jobs' own queue messages later find them claimed and do nothing. Companions share the
mechanism, hence the queue, so a batch never crosses from `cpu` to `gpu`.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from webapp.jobs.models import RewriteJob
from webapp.jobs.services import CancelledByUser

State = RewriteJob.State


def claim_companions(job: RewriteJob, limit: int) -> list[RewriteJob]:
    """Claim up to `limit` other queued jobs with exactly this job's settings (oldest first)."""
    if limit <= 0:
        return []
    candidates = list(
        RewriteJob.objects.filter(
            state=State.QUEUED, queue=job.queue, mechanism=job.mechanism, cancel_requested=False
        )
        .exclude(pk=job.pk)
        .order_by("created_at")
        .values_list("pk", "settings")[: limit * 4]
    )
    same = [pk for pk, settings in candidates if settings == job.settings][:limit]
    claimed = []
    now = timezone.now()
    for pk in same:
        if RewriteJob.objects.filter(pk=pk, state=State.QUEUED).update(
            state=State.RUNNING,
            started_at=now,
            heartbeat_at=now,
            stage="starting (batched)",
            progress=0.0,
            attempts=F("attempts") + 1,
        ):
            claimed.append(pk)
    return list(RewriteJob.objects.select_related("document").filter(pk__in=claimed))


def record_batch_progress(job_ids: list[int], fraction: float, stage: str) -> None:
    """Progress for every job in a batch; raises if any of them was asked to stop."""
    RewriteJob.objects.filter(pk__in=job_ids, state=State.RUNNING).update(
        progress=min(max(fraction, 0.0), 1.0), stage=stage[:128], heartbeat_at=timezone.now()
    )
    if RewriteJob.objects.filter(pk__in=job_ids, cancel_requested=True).exists():
        raise CancelledByUser()


def requeue(job_ids: list[int]) -> None:
    """Put claimed-but-unfinished jobs back in the queue (a batch partner was cancelled)."""
    from webapp.jobs.services import enqueue_rewrite

    with transaction.atomic():
        RewriteJob.objects.filter(pk__in=job_ids, state=State.RUNNING).update(
            state=State.QUEUED,
            stage="queued",
            progress=0.0,
            started_at=None,
            heartbeat_at=None,
            rung_at=timezone.now(),
            attempts=F("attempts") - 1,  # stopped for a partner's sake: not a lost attempt
        )
        for job_id in job_ids:
            transaction.on_commit(lambda job_id=job_id: enqueue_rewrite(job_id), robust=True)


def cancelled_ids(job_ids: list[int]) -> set[int]:
    return set(
        RewriteJob.objects.filter(pk__in=job_ids, cancel_requested=True).values_list(
            "pk", flat=True
        )
    )
