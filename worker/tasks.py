"""Celery tasks: take a job id, claim it once, run anonymizer, hand the result to a service.

When other jobs with identical settings are waiting, the task claims them too and runs them
through the mechanism's batched `rewrite_many` path. While it runs, a heartbeat thread keeps
the jobs' rows alive; if this process dies, the sweep (also a task here, run by beat) puts
them back in the queue.
"""

from __future__ import annotations

import logging
import time

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings as django_settings
from django.db import DatabaseError

from anonymizer import AnonymizerError, Settings
from anonymizer.api import rewrite_many
from webapp.jobs import batching, services
from webapp.jobs.retention import purge_expired_documents
from webapp.jobs.review import golds_for
from webapp.jobs.sweep import sweep as sweep_jobs
from worker.cancel_watch import CancelWatcher
from worker.celery_app import wait_for_warm_up
from worker.heartbeat import Heartbeat

log = logging.getLogger(__name__)
PROGRESS_INTERVAL_S = 1.0


class ThrottledProgress:
    """Writes progress to the jobs' rows at most about once a second (first and last always)."""

    def __init__(self, job_ids: list[int]) -> None:
        self.job_ids = job_ids
        self.last = 0.0

    def __call__(self, fraction: float, stage: str) -> None:
        now = time.monotonic()
        if now - self.last >= PROGRESS_INTERVAL_S or fraction >= 1.0 or self.last == 0.0:
            self.last = now
            batching.record_batch_progress(self.job_ids, fraction, stage)


@shared_task(name=services.REWRITE_TASK, acks_late=True, reject_on_worker_lost=True)
def rewrite(job_id: int) -> None:
    job = services.claim_job(job_id)
    if job is None:
        log.info("job %s not claimable (already taken, finished or cancelled)", job_id)
        return
    batch = [job, *batching.claim_companions(job, django_settings.WORKER_BATCH_JOBS - 1)]
    with Heartbeat([j.pk for j in batch]):
        wait_for_warm_up()
        _run_batch(batch)


@shared_task(name="worker.tasks.sweep", ignore_result=True)
def sweep() -> None:
    """Requeue jobs whose worker was lost and ring queued jobs whose message was lost."""
    sweep_jobs()


@shared_task(name="worker.tasks.purge_expired", ignore_result=True)
def purge_expired() -> None:
    """Purge originals past the retention period."""
    purge_expired_documents()


def _run_batch(batch: list) -> None:  # type: ignore[type-arg]
    """Rewrite the claimed jobs together; a bad document fails only its own job.

    A database error is not the job's fault: it propagates, the heartbeat stops, and the
    sweep runs the job again.
    """
    ids = [j.pk for j in batch]
    attempts = {j.pk: j.attempts for j in batch}
    started = time.monotonic()
    try:
        settings = Settings.from_mapping(batch[0].settings)
        batching.record_batch_progress(ids, 0.0, "detecting")
        with CancelWatcher(ids):  # a cancel click interrupts even a long loop
            results = rewrite_many(
                [j.document.text for j in batch],
                settings,
                progress=ThrottledProgress(ids),
                **golds_for(batch, settings),  # a reviewed job's spans
            )
    except services.CancelledByUser:
        stopped = batching.cancelled_ids(ids)
        for jid in stopped:
            services.finish_cancelled(jid)
        batching.requeue([jid for jid in ids if jid not in stopped])
        log.info("jobs %s cancelled after %.1fs", sorted(stopped), time.monotonic() - started)
        return
    except AnonymizerError as exc:
        if len(batch) > 1:
            for single in batch:
                _run_batch([single])
            return
        _fail_all(attempts, str(exc))
        return
    except SoftTimeLimitExceeded:
        stopped = batching.cancelled_ids(ids)  # asked to stop: cancelled, not "time limit"
        for jid in stopped:
            services.finish_cancelled(jid)
        _fail_all(
            {j: a for j, a in attempts.items() if j not in stopped},
            "The job took longer than the time limit and was stopped.",
        )
        return
    except DatabaseError:
        log.exception("jobs %s hit a database error; the sweep runs them again", ids)
        raise
    except Exception as exc:  # a job must end failed with a reason, never stuck running
        log.exception("jobs %s crashed", ids)
        if len(batch) > 1:
            for single in batch:
                _run_batch([single])
            return
        _fail_all(attempts, f"Internal error while rewriting ({type(exc).__name__}: {exc}).")
        return
    for batch_job, result in zip(batch, results, strict=True):
        services.complete_job(batch_job.pk, result, attempt=attempts[batch_job.pk])
    log.info("jobs %s done in %.1fs", ids, time.monotonic() - started)


def _fail_all(attempts: dict[int, int], reason: str) -> None:
    for job_id, attempt in attempts.items():
        services.fail_job(job_id, reason, attempt=attempt)
