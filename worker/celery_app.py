"""The Celery app, configured from Django settings (namespace CELERY); one `gpu` queue."""

from __future__ import annotations

import os

import django
from celery import Celery
from celery.signals import worker_process_init, worker_ready
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")
django.setup()

app = Celery("anonymizer")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = (Queue("gpu"),)
app.conf.task_routes = {"worker.tasks.*": {"queue": "gpu"}}
app.conf.include = ["worker.tasks", "worker.review_tasks"]


@worker_process_init.connect
def _warm_default_detector(**_: object) -> None:
    """Load the default detector (Presidio + spaCy) once per child, not on its first job."""
    import logging

    from anonymizer import AnonymizerError, Settings
    from anonymizer.detection import get_detector

    try:
        get_detector(Settings().detector).detect("warm up")
    except AnonymizerError as exc:
        logging.getLogger(__name__).warning("default detector unavailable: %s", exc)


@worker_ready.connect
def _housekeeping(**_: object) -> None:
    """Fail jobs whose worker died, and purge originals past the retention period."""
    from webapp.jobs.retention import purge_expired_documents
    from webapp.jobs.services import fail_stale_jobs

    fail_stale_jobs()
    purge_expired_documents()
