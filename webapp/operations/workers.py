"""The broker's queues and the workers behind them, asked with short timeouts so the operator
page answers quickly even when Redis or every worker is down."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypeVar

import redis
from django.conf import settings
from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from webapp.jobs import services
from webapp.jobs.models import RewriteJob

log = logging.getLogger(__name__)
QUEUES = (services.CPU_QUEUE, services.GPU_QUEUE)
# kombu's Redis transport keeps a queue as a list per priority step and the messages that
# workers took but have not acknowledged (acks_late: running or prefetched) in one hash.
_PRIORITY_SEPARATOR = "\x06\x16"
_PRIORITY_STEPS = (3, 6, 9)
_UNACKED = "unacked"
T = TypeVar("T")


@dataclass(frozen=True)
class BrokerStatus:
    reachable: bool
    error: str = ""
    ping_ms: float | None = None
    waiting: dict[str, int] = field(default_factory=dict)  # queue -> messages not yet taken
    unacked: int | None = None


@dataclass(frozen=True)
class QueueStatus:
    name: str
    waiting_in_broker: int | None
    queued_jobs: int
    running_jobs: int
    oldest_queued_at: datetime | None
    last_heartbeat_at: datetime | None  # newest heartbeat of a running job on this queue
    workers: list[str]


@dataclass(frozen=True)
class WorkerStatus:
    name: str
    queues: list[str]
    concurrency: int | None


@dataclass(frozen=True)
class WorkersReport:
    broker: BrokerStatus
    queues: list[QueueStatus]
    workers: list[WorkerStatus]
    workers_error: str = ""
    checked_at: datetime = field(default_factory=timezone.now)


def broker_status(url: str | None = None, timeout: float = 1.0) -> BrokerStatus:
    """Ping Redis and read each queue's length, each call bounded by `timeout` seconds."""
    try:
        client = redis.Redis.from_url(
            url or settings.CELERY_BROKER_URL,
            socket_connect_timeout=timeout,
            socket_timeout=timeout,
        )
        started = time.perf_counter()
        client.ping()
        ping_ms = (time.perf_counter() - started) * 1000
        pipe = client.pipeline()
        for queue in QUEUES:
            for key in _queue_keys(queue):
                pipe.llen(key)
        pipe.hlen(_UNACKED)
        lengths = pipe.execute()
    except (redis.RedisError, OSError, ValueError) as exc:
        return BrokerStatus(False, error=f"{type(exc).__name__}: {str(exc).rstrip('.')}")
    finally:
        if "client" in locals():
            client.close()
    per_queue = len(_queue_keys(QUEUES[0]))
    waiting = {
        queue: sum(lengths[i * per_queue : (i + 1) * per_queue]) for i, queue in enumerate(QUEUES)
    }
    return BrokerStatus(True, ping_ms=ping_ms, waiting=waiting, unacked=lengths[-1])


def _queue_keys(queue: str) -> list[str]:
    return [queue, *(f"{queue}{_PRIORITY_SEPARATOR}{step}" for step in _PRIORITY_STEPS)]


def worker_statuses(timeout: float = 1.0) -> list[WorkerStatus]:
    """The workers that answer a broadcast within `timeout`, their queues and pool size."""
    from worker.celery_app import app

    # a broadcast collects replies until the timeout, so it cannot time one worker's answer
    inspect = app.control.inspect(timeout=timeout)
    active_queues = inspect.active_queues() or {}
    stats = inspect.stats() or {}
    return [
        WorkerStatus(
            name=name,
            queues=sorted(q["name"] for q in queues),
            concurrency=(stats.get(name, {}).get("pool", {}) or {}).get("max-concurrency"),
        )
        for name, queues in sorted(active_queues.items())
    ]


def call_with_deadline(function: Callable[[], T], seconds: float) -> T:
    """Run `function` in a daemon thread and give up after `seconds` (TimeoutError)."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = function()
        except Exception as exc:  # reported to the caller below
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="operator-check", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TimeoutError(f"no answer within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


def job_counts_by_queue() -> dict[str, dict]:
    """Queued and running jobs per queue from the database (the source of truth)."""
    rows = (
        RewriteJob.objects.filter(state__in=[RewriteJob.State.QUEUED, RewriteJob.State.RUNNING])
        .values("queue")
        .annotate(
            queued=Count("pk", filter=Q(state=RewriteJob.State.QUEUED)),
            running=Count("pk", filter=Q(state=RewriteJob.State.RUNNING)),
            oldest=Min("created_at", filter=Q(state=RewriteJob.State.QUEUED)),
            heartbeat=Max("heartbeat_at", filter=Q(state=RewriteJob.State.RUNNING)),
        )
    )
    counts: dict[str, dict] = {q: {"queued": 0, "running": 0} for q in QUEUES}
    for row in rows:
        entry = counts.setdefault(row["queue"], {"queued": 0, "running": 0})
        entry["queued"] += row["queued"]
        entry["running"] += row["running"]
        entry["oldest"] = _earliest(entry.get("oldest"), row["oldest"])
        entry["heartbeat"] = _latest(entry.get("heartbeat"), row["heartbeat"])
    return counts


def _earliest(a: datetime | None, b: datetime | None) -> datetime | None:
    return min((x for x in (a, b) if x), default=None)


def _latest(a: datetime | None, b: datetime | None) -> datetime | None:
    return max((x for x in (a, b) if x), default=None)


def workers_report(timeout: float = 1.0) -> WorkersReport:
    """Broker, queues and workers, in at most about 3 × `timeout` seconds."""
    broker = broker_status(timeout=timeout)
    workers: list[WorkerStatus] = []
    workers_error = ""
    if broker.reachable:
        try:
            workers = call_with_deadline(lambda: worker_statuses(timeout), 2 * timeout + 1)
        except Exception as exc:  # kombu raises many types for a broker that went away
            workers_error = f"{type(exc).__name__}: {exc}"
            log.warning("operator page: inspecting workers failed: %s", workers_error)
    else:
        workers_error = "the broker cannot be reached, so no worker can be asked"
    counts = job_counts_by_queue()
    queues = [
        QueueStatus(
            name=queue,
            waiting_in_broker=broker.waiting.get(queue) if broker.reachable else None,
            queued_jobs=counts[queue]["queued"],
            running_jobs=counts[queue]["running"],
            oldest_queued_at=counts[queue].get("oldest"),
            last_heartbeat_at=counts[queue].get("heartbeat"),
            workers=[w.name for w in workers if queue in w.queues],
        )
        for queue in QUEUES
    ]
    return WorkersReport(broker, queues, workers, workers_error)
