"""Where a queued job stands: how many jobs are ahead of it on its queue, and a rough wait
estimated from how long recent jobs of its mechanism took.

The estimate needs no knowledge of the workers: while jobs wait, every slot of the queue is
busy, so the jobs running on it show how many run at once.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from webapp.jobs.models import RewriteJob

State = RewriteJob.State
RECENT_JOBS = 20  # durations the estimate is taken from
RECENT_WINDOW = timedelta(days=7)


@dataclass(frozen=True)
class QueuePosition:
    queue: str
    ahead: int  # queued jobs on the same queue that run before this one
    running: int  # jobs running on the queue now
    typical_seconds: float | None  # median duration of recent jobs of this mechanism
    sample_size: int
    wait_seconds: float | None  # rough wait until this job starts; None without a sample

    @property
    def wait_text(self) -> str:
        if self.wait_seconds is None:
            return "no recent jobs of this mechanism to estimate from"
        return f"about {human_duration(self.wait_seconds)}"


def job_queue(job: RewriteJob) -> str:
    queue = getattr(job, "queue", None)
    if queue:
        return queue
    from anonymizer import AnonymizerError, mechanism_info
    from webapp.operations.mechanisms import queue_of

    try:
        return queue_of(mechanism_info(job.mechanism))
    except AnonymizerError:
        return "cpu"


def queue_position(job: RewriteJob) -> QueuePosition | None:
    """The job's place in its queue while it is queued; None once it has started or ended."""
    if job.state != State.QUEUED:
        return None
    on_queue = RewriteJob.objects.filter(queue=job.queue)
    earlier = Q(created_at__lt=job.created_at) | Q(created_at=job.created_at, pk__lt=job.pk)
    ahead = on_queue.filter(earlier, state=State.QUEUED, cancel_requested=False).count()
    running = on_queue.filter(state=State.RUNNING).count()
    durations = recent_durations(job.mechanism)
    typical = statistics.median(durations) if durations else None
    return QueuePosition(
        queue=job.queue,
        ahead=ahead,
        running=running,
        typical_seconds=typical,
        sample_size=len(durations),
        wait_seconds=estimate_wait(ahead, running, typical),
    )


def estimate_wait(ahead: int, running: int, typical: float | None) -> float | None:
    """Half a typical job for the running ones to free a slot, then the jobs ahead in rounds
    of as many as run at once."""
    if typical is None:
        return None
    if ahead == 0 and running == 0:
        return 0.0
    slots = max(running, 1)
    return typical / 2 + math.floor(ahead / slots) * typical


def recent_durations(mechanism: str) -> list[float]:
    since = timezone.now() - RECENT_WINDOW
    rows = (
        RewriteJob.objects.filter(
            mechanism=mechanism,
            state=State.SUCCEEDED,
            finished_at__gte=since,
            started_at__isnull=False,
        )
        .order_by("-finished_at")
        .values_list("started_at", "finished_at")[:RECENT_JOBS]
    )
    return [max((end - start).total_seconds(), 0.0) for start, end in rows]


def human_duration(seconds: float) -> str:
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    if seconds < 3600:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"
