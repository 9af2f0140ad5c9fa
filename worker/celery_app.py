"""The Celery app, configured from Django settings (namespace CELERY), with two queues.

`cpu` runs redaction, the token mechanisms, planning and housekeeping (concurrency = cores);
`gpu` runs mechanisms whose registry entry needs a GPU (concurrency 1). The queue is chosen
per job when it is enqueued (`webapp.jobs.services.queue_for`), and beat runs the sweep.
"""

from __future__ import annotations

import logging
import os
import threading

import django
from celery import Celery
from celery.signals import worker_process_init
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")
django.setup()

from django.conf import settings  # noqa: E402  (after django.setup)

app = Celery("anonymizer")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = (Queue("cpu"), Queue("gpu"))
app.conf.include = ["worker.tasks", "worker.review_tasks"]

log = logging.getLogger(__name__)
_warm_up: threading.Thread | None = None


@worker_process_init.connect
def _start_detector_warm_up(**_: object) -> None:
    """Load the default detector in the background of a new pool child.

    The hook itself returns at once: Celery kills a child that does not report ready within
    `worker_proc_alive_timeout`, and loading the default detector can take longer than that.
    """
    global _warm_up
    if settings.WORKER_WARM_DETECTOR:
        _warm_up = threading.Thread(target=_warm_detector, name="warm-detector", daemon=True)
        _warm_up.start()


def _warm_detector() -> None:
    from anonymizer import AnonymizerError, Settings
    from anonymizer.detection import get_detector, warm_up

    try:
        warm_up(get_detector(Settings().detector))
    except AnonymizerError as exc:
        log.warning("default detector unavailable: %s", exc)
    except Exception:  # a failed warm-up only means the first job loads it
        log.exception("warming the default detector failed")


def wait_for_warm_up() -> None:
    """A job waits for a warm-up in progress rather than loading the same models twice."""
    if _warm_up is not None:
        _warm_up.join()
