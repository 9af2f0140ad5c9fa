"""The periodic sweep (run by Celery beat): the database is the source of truth, the broker a
doorbell.

- A running job whose heartbeat went stale lost its worker (a killed pool child, a dead
  worker or host). Nothing was released, so it goes back to `queued` and runs again with its
  ledger reservation carried over; after JOB_MAX_ATTEMPTS claims it fails with a reason.
- A queued job whose message may be lost (a broker restart, a failed enqueue) is rung again.
  Only as many jobs are rung as the broker's queue is short of, so jobs waiting behind a long
  one do not pile up duplicate messages; a duplicate is harmless anyway, because `claim_job`
  is a conditional UPDATE.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from webapp.jobs import services
from webapp.jobs.models import RewriteJob

log = logging.getLogger(__name__)
State = RewriteJob.State
QUEUES = (services.CPU_QUEUE, services.GPU_QUEUE)
MAX_RINGS_PER_SWEEP = 500
BrokerDepth = Callable[[str], "int | None"]


@dataclass
class SweepReport:
    requeued: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)
    rung: list[int] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.requeued or self.failed or self.cancelled or self.rung)


def sweep(now: datetime | None = None, broker_depth: BrokerDepth | None = None) -> SweepReport:
    """Recover jobs whose worker was lost, then ring queued jobs whose message may be lost."""
    now = now or timezone.now()
    report = recover_stale_jobs(now)
    report.rung = ring_waiting_jobs(now, broker_depth or broker_queue_depth)
    if report:
        log.info(
            "sweep: requeued %s, failed %s, cancelled %s, rang %s",
            report.requeued,
            report.failed,
            report.cancelled,
            report.rung,
        )
    return report


def recover_stale_jobs(now: datetime | None = None) -> SweepReport:
    """Requeue (or, past the attempt limit, fail) running jobs without a recent heartbeat."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.JOB_HEARTBEAT_STALE_SECONDS)
    stale = RewriteJob.objects.filter(state=State.RUNNING).filter(
        Q(heartbeat_at__lt=cutoff) | Q(heartbeat_at__isnull=True)
    )
    report = SweepReport()
    hard_limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT)
    for job_id, attempts, cancel_requested, started_at, heartbeat_at in stale.values_list(
        "pk", "attempts", "cancel_requested", "started_at", "heartbeat_at"
    ):
        if cancel_requested:
            services.finish_cancelled(job_id)
            report.cancelled.append(job_id)
        elif started_at and heartbeat_at and heartbeat_at - started_at >= hard_limit:
            # Celery's hard time limit killed it: running it again would only time out again
            services.fail_job(
                job_id,
                f"The job ran past the time limit of {hard_limit.total_seconds():.0f} s and "
                "was stopped. No output was released and your budget was returned.",
                attempt=attempts,
            )
            report.failed.append(job_id)
        elif attempts >= settings.JOB_MAX_ATTEMPTS:
            services.fail_job(
                job_id,
                f"The worker running this job stopped responding on each of its {attempts} "
                "attempts (it was killed, ran out of memory, or the machine went down). "
                "No output was released and your budget was returned; you can submit it again.",
                attempt=attempts,
            )
            report.failed.append(job_id)
        elif services.requeue_lost_job(job_id, attempts, cutoff):
            report.requeued.append(job_id)
    return report


def ring_waiting_jobs(now: datetime, broker_depth: BrokerDepth) -> list[int]:
    """Ring queued jobs, longest unrung first, for the messages each queue is missing."""
    cutoff = now - timedelta(seconds=settings.RING_AGAIN_AFTER_SECONDS)
    rung: list[int] = []
    for queue in QUEUES:
        waiting = RewriteJob.objects.filter(state=State.QUEUED, queue=queue, cancel_requested=False)
        due = waiting.filter(Q(rung_at__lt=cutoff) | Q(rung_at__isnull=True))
        if not due.exists():
            continue
        depth = broker_depth(queue)
        if depth is None:
            continue  # the broker cannot be asked; the next sweep tries again
        missing = waiting.count() - depth
        if missing <= 0:
            continue
        ids = list(
            due.order_by(F("rung_at").asc(nulls_first=True), "pk").values_list("pk", flat=True)[
                : min(missing, MAX_RINGS_PER_SWEEP)
            ]
        )
        ring(ids, now)
        rung.extend(ids)
    return rung


def ring(job_ids: list[int], now: datetime | None = None) -> None:
    """Send each job's doorbell again and note when."""
    RewriteJob.objects.filter(pk__in=job_ids).update(rung_at=now or timezone.now())
    for job_id in job_ids:
        services.enqueue_rewrite(job_id)


def broker_queue_depth(queue: str) -> int | None:
    """Messages waiting in the broker's queue, or None if the broker cannot be reached."""
    from worker.celery_app import app

    try:
        with app.connection_for_read() as connection:
            return connection.default_channel.queue_declare(queue=queue).message_count
    except Exception as exc:  # kombu and redis-py raise many types for an unreachable broker
        log.warning("sweep: cannot read the %s queue's depth (%s)", queue, type(exc).__name__)
        return None
