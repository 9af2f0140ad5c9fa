"""Job lifecycle: submit, claim, progress, complete, fail, cancel, requeue. Views and tasks
call these.

State changes are transactional; the task is enqueued only after the transaction commits, and
a broker that cannot be reached then only delays the job (the sweep rings it again).
"""

from __future__ import annotations

import hashlib
import logging
from functools import partial

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from anonymizer import AnonymizerError, RewriteResult, Settings, mechanism_info
from anonymizer.errors import Cancelled
from anonymizer.receipts import canonical_json, receipt_dict, span_dict
from anonymizer.types import Receipt as ReceiptData
from webapp.jobs.models import Document, Receipt, RewriteJob
from webapp.ledger import services as ledger

log = logging.getLogger(__name__)
State = RewriteJob.State
REWRITE_TASK = "worker.tasks.rewrite"
CPU_QUEUE, GPU_QUEUE = "cpu", "gpu"


class CancelledByUser(Cancelled):
    """The job's owner asked it to stop."""


def queue_for(mechanism: str) -> str:
    """The queue a mechanism's jobs run on: `gpu` when its registry entry needs a GPU."""
    try:
        return GPU_QUEUE if mechanism_info(mechanism).needs_gpu else CPU_QUEUE
    except AnonymizerError:
        return CPU_QUEUE  # an unknown mechanism fails fast on the cpu queue, with a reason


def enqueue_rewrite(job_id: int) -> bool:
    """Ring the doorbell for a stored job on its queue; never raises.

    A broker that cannot be reached is logged: the job row stays queued and the sweep rings
    it again, so a submission succeeds while Redis is down.
    """
    from worker.celery_app import app

    queue = RewriteJob.objects.filter(pk=job_id).values_list("queue", flat=True).first()
    try:
        app.send_task(REWRITE_TASK, args=[job_id], queue=queue or CPU_QUEUE)
    except Exception as exc:  # kombu and redis-py raise many types for an unreachable broker
        log.warning(
            "job %s: broker unreachable (%s: %s); the sweep rings it again",
            job_id,
            type(exc).__name__,
            exc,
        )
        return False
    return True


def create_document(  # type: ignore[no-untyped-def]
    user, *, name: str, text: str, source: str = "paste", original_file: bytes | None = None
) -> Document:
    return Document.objects.create(
        owner=user,
        name=name[:255] or "untitled",
        source=source,
        text=text,
        original_file=original_file,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        n_chars=len(text),
    )


def submit_job(  # type: ignore[no-untyped-def]
    user, document: Document, rewrite_settings: Settings, *, planned: ReceiptData | None = None
) -> RewriteJob:
    """Store a queued job for the user's document and enqueue it after commit.

    `planned` is the receipt `anonymizer.plan()` gave for this text and these settings.
    """
    from anonymizer import plan

    if document.owner_id != user.pk:
        raise PermissionError("document belongs to another user")
    if planned is None:
        planned = plan(document.text, rewrite_settings).receipt
    with transaction.atomic():
        job = _new_job(user, document, rewrite_settings)
        # raises ledger.BudgetExceeded, rolling the job back, if the cap cannot take it
        ledger.reserve_for_job(job, planned)
        transaction.on_commit(lambda: enqueue_rewrite(job.pk), robust=True)
    log.info(
        "job %s queued on %s (mechanism=%s, doc=%s)", job.pk, job.queue, job.mechanism, document.pk
    )
    return job


def submit_jobs(  # type: ignore[no-untyped-def]
    user, documents: list[Document], rewrite_settings: Settings, planned: list[ReceiptData]
) -> list[RewriteJob]:
    """Queue one job per document, admitted together or not at all (one budget check).

    Raises ledger.BatchBudgetExceeded, storing nothing, if the cap cannot take them all.
    """
    if any(d.owner_id != user.pk for d in documents):
        raise PermissionError("document belongs to another user")
    with transaction.atomic():
        jobs = [_new_job(user, document, rewrite_settings) for document in documents]
        ledger.reserve_for_jobs(jobs, planned)
        for job in jobs:
            transaction.on_commit(partial(enqueue_rewrite, job.pk), robust=True)
    log.info("jobs %s queued together (mechanism=%s)", [j.pk for j in jobs], jobs[0].mechanism)
    return jobs


def _new_job(user, document: Document, rewrite_settings: Settings) -> RewriteJob:  # type: ignore[no-untyped-def]
    info = mechanism_info(rewrite_settings.mechanism)
    return RewriteJob.objects.create(
        owner=user,
        document=document,
        mechanism=rewrite_settings.mechanism,
        queue=queue_for(rewrite_settings.mechanism),
        rung_at=timezone.now(),
        settings=rewrite_settings.to_dict(),
        epsilon=_finite_or_none(rewrite_settings.epsilon) if info.uses_epsilon else None,
        delta=rewrite_settings.delta if info.uses_delta else None,
    )


def submit_text(  # type: ignore[no-untyped-def]
    user,
    *,
    name: str,
    text: str,
    rewrite_settings: Settings,
    source: str = "paste",
    planned: ReceiptData | None = None,
    original_file: bytes | None = None,
) -> RewriteJob:
    with transaction.atomic():
        document = create_document(
            user, name=name, text=text, source=source, original_file=original_file
        )
        return submit_job(user, document, rewrite_settings, planned=planned)


def claim_job(job_id: int, stage: str = "starting") -> RewriteJob | None:
    """Move a queued job to running exactly once (a new attempt); a duplicate message gets None."""
    now = timezone.now()
    claimed = RewriteJob.objects.filter(pk=job_id, state=State.QUEUED).update(
        state=State.RUNNING,
        started_at=now,
        heartbeat_at=now,
        stage=stage,
        progress=0.0,
        attempts=F("attempts") + 1,
    )
    if not claimed:
        return None
    return RewriteJob.objects.select_related("document").get(pk=job_id)


def complete_job(job_id: int, result: RewriteResult, *, attempt: int | None = None) -> RewriteJob:
    """Store output and receipt (hash-chained to the previous one) in one transaction.

    `attempt` fences a worker that was presumed lost: only the current attempt may store.
    If the ledger refuses the charge (it would break the cap), nothing is stored and the job
    fails with the ledger's reason.
    """
    try:
        return _store_result(job_id, result, attempt)
    except ledger.ChargeRefused as refused:
        fail_job(job_id, str(refused), attempt=attempt)
        return RewriteJob.objects.get(pk=job_id)


def _store_result(job_id: int, result: RewriteResult, attempt: int | None) -> RewriteJob:
    with transaction.atomic():
        job = RewriteJob.objects.select_for_update().get(pk=job_id)
        if job.state != State.RUNNING or (attempt is not None and job.attempts != attempt):
            log.warning(
                "job %s is %s (attempt %s, ours %s); result dropped",
                job_id,
                job.state,
                job.attempts,
                attempt,
            )
            return job
        from webapp.jobs.finishing import finalise  # operator, mapping, choices, .docx

        result = finalise(job, result)
        payload = receipt_dict(result.receipt)
        previous = (
            Receipt.objects.filter(owner_id=job.owner_id).order_by("-created_at", "-pk").first()
        )
        prev_sha = previous.sha256 if previous else ""
        Receipt.objects.create(
            job=job,
            owner_id=job.owner_id,
            payload=payload,
            sha256=receipt_hash(payload, prev_sha, job.pk, job.owner_id),
            prev_sha256=prev_sha,
        )
        ledger.charge_job(job, result.receipt)
        job.output = result.output
        job.spans = [span_dict(s) for s in result.spans]
        job.n_chunks = result.receipt.n_chunks
        job.noised_release = bool(result.receipt.sigma)
        job.state = State.SUCCEEDED
        job.progress = 1.0
        job.stage = "done"
        job.finished_at = timezone.now()
        job.save(
            update_fields=[
                "output",
                "spans",
                "n_chunks",
                "noised_release",
                "state",
                "progress",
                "stage",
                "finished_at",
            ]
        )
    log.info("job %s succeeded (K=%s)", job_id, job.n_chunks)
    return job


def receipt_hash(payload: dict, prev_sha256: str, job_id: int, owner_id: int) -> str:
    """SHA-256 over the canonical JSON of the receipt and its link to the previous one."""
    body = canonical_json(
        {"receipt": payload, "prev_sha256": prev_sha256, "job": job_id, "owner": owner_id}
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def fail_job(job_id: int, reason: str, *, attempt: int | None = None) -> None:
    """End a job as failed with a readable reason and return its reservation."""
    jobs = RewriteJob.objects.filter(pk=job_id)
    if attempt is not None:
        jobs = jobs.filter(attempts=attempt)
    with transaction.atomic():
        updated = jobs.exclude(state__in=RewriteJob.FINAL_STATES).update(
            state=State.FAILED, error=reason[:2000], finished_at=timezone.now(), stage="failed"
        )
        if updated:
            ledger.release_reservation(job_id)
    if updated:
        log.info("job %s failed: %s", job_id, reason[:200])


def finish_cancelled(job_id: int) -> None:
    with transaction.atomic():
        if (
            RewriteJob.objects.filter(pk=job_id)
            .exclude(state__in=RewriteJob.FINAL_STATES)
            .update(state=State.CANCELLED, finished_at=timezone.now(), stage="cancelled")
        ):
            ledger.release_reservation(job_id)


def cancel_job(job: RewriteJob) -> RewriteJob:
    """Cancel a queued job now; ask a running one to stop at its next step."""
    now = timezone.now()
    with transaction.atomic():
        cancelled = RewriteJob.objects.filter(pk=job.pk, state=State.QUEUED).update(
            state=State.CANCELLED, cancel_requested=True, finished_at=now, stage="cancelled"
        )
        if cancelled:
            ledger.release_reservation(job.pk)
    if not cancelled:
        RewriteJob.objects.filter(pk=job.pk, state=State.RUNNING).update(cancel_requested=True)
    job.refresh_from_db()
    return job


def requeue_lost_job(job_id: int, attempt: int, stale_before) -> bool:  # type: ignore[no-untyped-def]
    """Put a running job whose worker was lost back in the queue; its reservation carries over.

    Nothing was released (output, receipt and charge are stored in one transaction), so a
    rerun costs no privacy. Conditional on the same attempt and a still-stale heartbeat, so a
    worker that comes back to life in between keeps its job.
    """
    now = timezone.now()
    requeued = (
        RewriteJob.objects.filter(pk=job_id, state=State.RUNNING, attempts=attempt)
        .exclude(heartbeat_at__gte=stale_before)
        .update(
            state=State.QUEUED,
            stage=f"queued again: its worker was lost (attempt {attempt})",
            progress=0.0,
            started_at=None,
            heartbeat_at=None,
            rung_at=now,
        )
    )
    if requeued:
        log.warning("job %s lost its worker on attempt %s; queued again", job_id, attempt)
        transaction.on_commit(lambda: enqueue_rewrite(job_id), robust=True)
    return bool(requeued)


def touch_heartbeat(job_ids: list[int]) -> None:
    """Mark the running jobs as alive (the worker's heartbeat thread calls this)."""
    RewriteJob.objects.filter(pk__in=job_ids, state=State.RUNNING).update(
        heartbeat_at=timezone.now()
    )


def _finite_or_none(x: float) -> float | None:
    return x if x != float("inf") else None
