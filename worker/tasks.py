"""Celery tasks: take a job id, claim it once, run anonymizer, hand the result to a service."""

from __future__ import annotations

import logging
import time

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from anonymizer import AnonymizerError, Settings
from anonymizer.api import rewrite as run_rewrite
from webapp.jobs import services

log = logging.getLogger(__name__)
PROGRESS_INTERVAL_S = 1.0


class ThrottledProgress:
    """Writes progress to the job row at most about once a second (first and last always)."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.last = 0.0

    def __call__(self, fraction: float, stage: str) -> None:
        now = time.monotonic()
        if now - self.last >= PROGRESS_INTERVAL_S or fraction >= 1.0 or self.last == 0.0:
            self.last = now
            services.record_progress(self.job_id, fraction, stage)


@shared_task(name="worker.tasks.rewrite", acks_late=True, reject_on_worker_lost=True)
def rewrite(job_id: int) -> None:
    job = services.claim_job(job_id)
    if job is None:
        log.info("job %s not claimable (already taken or cancelled)", job_id)
        return
    started = time.monotonic()
    try:
        settings = Settings.from_mapping(job.settings)
        services.record_progress(job_id, 0.0, "detecting")
        result = run_rewrite(job.document.text, settings, progress=ThrottledProgress(job_id))
    except services.CancelledByUser:
        services.finish_cancelled(job_id)
        log.info("job %s cancelled after %.1fs", job_id, time.monotonic() - started)
        return
    except AnonymizerError as exc:
        services.fail_job(job_id, str(exc))
        return
    except SoftTimeLimitExceeded:
        services.fail_job(job_id, "The job took longer than the time limit and was stopped.")
        return
    except Exception as exc:  # the job must end failed with a reason, never stuck running
        log.exception("job %s crashed", job_id)
        services.fail_job(job_id, f"Internal error while rewriting ({type(exc).__name__}).")
        return
    services.complete_job(job_id, result)
    log.info("job %s done in %.1fs", job_id, time.monotonic() - started)
