"""The sweep and the job lifecycle around it, on the database alone (fault tests run processes)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from anonymizer import Settings, rewrite
from tests.factories import JobFactory
from webapp.jobs import services, sweep
from webapp.jobs.models import RewriteJob
from webapp.ledger.models import LedgerEntry

pytestmark = pytest.mark.django_db
LONG_AGO = timezone.now() - timedelta(days=1)


@pytest.fixture
def rung(monkeypatch):
    sent: list[int] = []
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", sent.append)
    return sent


def submitted(user, rung, mechanism: str = "redact") -> RewriteJob:  # type: ignore[no-untyped-def]
    job = services.submit_text(
        user,
        name="n.txt",
        text="Mail jane@example.com today.",
        rewrite_settings=Settings(mechanism=mechanism, detector="regex"),
    )
    rung.clear()
    return job


def lose_worker(job: RewriteJob) -> RewriteJob:
    """Claim the job, then let its heartbeat go stale as if the worker died."""
    services.claim_job(job.pk)
    RewriteJob.objects.filter(pk=job.pk).update(heartbeat_at=LONG_AGO)
    return RewriteJob.objects.get(pk=job.pk)


def test_jobs_route_to_the_queue_their_mechanism_names(alice, rung):
    assert submitted(alice, rung, "redact").queue == "cpu"
    assert submitted(alice, rung, "santext").queue == "cpu"
    assert submitted(alice, rung, "dp-embed-invert").queue == "gpu"
    assert services.queue_for("no-such-mechanism") == "cpu"


def test_a_job_whose_worker_was_lost_is_queued_again_with_its_reservation(
    alice, rung, django_capture_on_commit_callbacks
):
    job = lose_worker(submitted(alice, rung))
    with django_capture_on_commit_callbacks(execute=True):
        report = sweep.recover_stale_jobs()
    job.refresh_from_db()
    assert report.requeued == [job.pk] and rung == [job.pk]
    assert job.state == "queued" and job.attempts == 1 and "worker was lost" in job.stage
    assert LedgerEntry.objects.get(job=job).status == "reserved"
    assert services.claim_job(job.pk).attempts == 2


def test_a_job_that_lost_its_worker_on_every_attempt_fails_and_returns_its_budget(
    alice, rung, settings
):
    settings.JOB_MAX_ATTEMPTS = 2
    job = submitted(alice, rung)
    lose_worker(job)
    sweep.recover_stale_jobs()
    lose_worker(job)
    report = sweep.recover_stale_jobs()
    job.refresh_from_db()
    assert report.failed == [job.pk] and job.state == "failed"
    assert "stopped responding on each of its 2 attempts" in job.error
    assert LedgerEntry.objects.get(job=job).status == "released"


def test_a_fresh_heartbeat_keeps_the_job_running(alice, rung):
    job = submitted(alice, rung)
    services.claim_job(job.pk)
    services.touch_heartbeat([job.pk])
    assert not sweep.recover_stale_jobs()
    assert RewriteJob.objects.get(pk=job.pk).state == "running"


def test_a_stale_job_its_owner_cancelled_ends_cancelled(alice, rung):
    job = lose_worker(submitted(alice, rung))
    RewriteJob.objects.filter(pk=job.pk).update(cancel_requested=True)
    assert sweep.recover_stale_jobs().cancelled == [job.pk]
    assert RewriteJob.objects.get(pk=job.pk).state == "cancelled"


def test_a_worker_presumed_lost_cannot_store_a_result_over_the_new_attempt(alice, rung):
    job = lose_worker(submitted(alice, rung))
    first_attempt = job.attempts
    sweep.recover_stale_jobs()
    services.claim_job(job.pk)
    result = rewrite(job.document.text, Settings.from_mapping(job.settings))
    services.complete_job(job.pk, result, attempt=first_attempt)
    assert RewriteJob.objects.get(pk=job.pk).state == "running"
    services.complete_job(job.pk, result, attempt=first_attempt + 1)
    assert RewriteJob.objects.get(pk=job.pk).state == "succeeded"


def test_queued_jobs_are_rung_again_only_for_messages_the_broker_lacks(alice, rung):
    jobs = [submitted(alice, rung) for _ in range(5)]
    RewriteJob.objects.update(rung_at=LONG_AGO)
    assert sweep.ring_waiting_jobs(timezone.now(), lambda queue: 5) == []
    rung_now = sweep.ring_waiting_jobs(timezone.now(), lambda queue: 3 if queue == "cpu" else 0)
    assert rung_now == [jobs[0].pk, jobs[1].pk] and rung == rung_now
    # the two just rung wait RING_AGAIN_AFTER_SECONDS before they are due again
    again = sweep.ring_waiting_jobs(timezone.now(), lambda queue: 0)
    assert again == [j.pk for j in jobs[2:]]


def test_recently_rung_jobs_and_an_unreachable_broker_ring_nothing(alice, rung):
    submitted(alice, rung)
    assert sweep.ring_waiting_jobs(timezone.now(), lambda queue: 0) == []  # rung at submit
    RewriteJob.objects.update(rung_at=LONG_AGO)
    assert sweep.ring_waiting_jobs(timezone.now(), lambda queue: None) == []


def test_a_submission_succeeds_when_the_broker_is_unreachable(alice, settings):
    from tests.processes import free_port, point_producer_at
    from worker.celery_app import app

    previous = app.conf.broker_url
    point_producer_at(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    try:
        job = services.submit_text(
            alice, name="n.txt", text="hello", rewrite_settings=Settings(mechanism="redact")
        )
        assert services.enqueue_rewrite(job.pk) is False
    finally:
        point_producer_at(previous)
    assert RewriteJob.objects.get(pk=job.pk).state == "queued"


def test_claiming_counts_attempts_and_a_duplicate_message_claims_nothing(alice, rung):
    job = JobFactory(owner=alice)
    assert services.claim_job(job.pk).attempts == 1
    assert services.claim_job(job.pk) is None


def test_a_job_killed_at_the_hard_time_limit_fails_instead_of_running_again(alice, rung, settings):
    settings.CELERY_TASK_TIME_LIMIT = 60
    job = submitted(alice, rung)
    services.claim_job(job.pk)
    RewriteJob.objects.filter(pk=job.pk).update(
        started_at=LONG_AGO - timedelta(minutes=5), heartbeat_at=LONG_AGO
    )
    assert sweep.recover_stale_jobs().failed == [job.pk]
    assert "ran past the time limit of 60 s" in RewriteJob.objects.get(pk=job.pk).error
