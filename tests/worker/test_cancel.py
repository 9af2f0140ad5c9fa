"""Cancelling a running rewrite: the watcher interrupts long loops, and a cancel that meets
the time limit still ends `cancelled`."""

import time

import pytest
from celery.exceptions import SoftTimeLimitExceeded

from tests.factories import JobFactory
from webapp.jobs import services
from webapp.jobs.models import RewriteJob
from worker import tasks
from worker.cancel_watch import CancelWatcher

pytestmark = pytest.mark.django_db(transaction=True)


def _busy_for(seconds: float) -> int:
    """A long pure-Python loop that never calls a progress callback."""
    deadline = time.monotonic() + seconds
    spins = 0
    while time.monotonic() < deadline:
        spins += sum(range(100))
    return spins


def test_the_watcher_interrupts_a_loop_that_never_checks(alice):
    job = JobFactory(owner=alice, state="running", cancel_requested=True)
    with pytest.raises(services.CancelledByUser), CancelWatcher([job.pk], poll_seconds=0.05):
        _busy_for(30)  # a watcher that never fires lets this finish, and the test fails


def test_the_watcher_lets_an_uncancelled_rewrite_finish(alice):
    job = JobFactory(owner=alice, state="running")
    with CancelWatcher([job.pk], poll_seconds=0.05):
        assert _busy_for(0.3) > 0
    job.refresh_from_db()
    assert not job.cancel_requested


def test_a_cancel_after_the_loop_still_cancels(alice):
    job = JobFactory(owner=alice, state="running")
    with pytest.raises(services.CancelledByUser):
        with CancelWatcher([job.pk], poll_seconds=0.05) as watcher:
            RewriteJob.objects.filter(pk=job.pk).update(cancel_requested=True)
            watcher.thread.join(5)  # the watcher fires; the block then ends normally


@pytest.mark.parametrize("asked_to_stop, state", [(True, "cancelled"), (False, "failed")])
def test_the_time_limit_ends_cancelled_when_the_owner_asked_to_stop(
    alice, monkeypatch, asked_to_stop, state
):
    job = JobFactory(owner=alice, state="running", cancel_requested=asked_to_stop)

    def too_slow(*args, **kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(tasks, "rewrite_many", too_slow)
    tasks._run_batch([RewriteJob.objects.select_related("document").get(pk=job.pk)])
    job.refresh_from_db()
    assert job.state == state
    assert ("time limit" in job.error) is (not asked_to_stop)
