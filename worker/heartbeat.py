"""A heartbeat thread for the jobs a worker child is running.

It touches the jobs' `heartbeat_at` every HEARTBEAT_INTERVAL_SECONDS whatever the mechanism
is doing, so a stale heartbeat means the worker is gone, not that a model step is slow, and
the sweep's stale threshold can be short.
"""

from __future__ import annotations

import logging
import threading
from types import TracebackType

from django.conf import settings
from django.db import connection

from webapp.jobs import services

log = logging.getLogger(__name__)


class Heartbeat:
    """Context manager: beats for `job_ids` from a daemon thread until the block ends."""

    def __init__(self, job_ids: list[int], interval: float | None = None) -> None:
        self.job_ids = list(job_ids)
        self.interval = interval or settings.HEARTBEAT_INTERVAL_SECONDS
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="job-heartbeat", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                try:
                    services.touch_heartbeat(self.job_ids)
                except Exception:  # a missed beat is retried; the sweep tolerates a few
                    log.warning("heartbeat for jobs %s failed", self.job_ids, exc_info=True)
        finally:
            connection.close()  # this thread's own database connection
