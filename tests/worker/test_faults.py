"""Fault injection with real processes: a production-shaped stack (Redis, a `cpu` worker, a
`gpu` worker, beat running the sweep every second) loses a pool child, a whole worker, or
Redis itself, and every job still ends `succeeded` with exactly one charged ledger entry,
no reservation left, and a receipt chain that verifies.

Recovery times are printed and written to test-artifacts/fault_recovery.json.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from anonymizer import Settings
from tests.conftest import shared_database_url, worker_env
from tests.processes import ROOT, RedisServer, beat, point_producer_at, wait_for, worker
from webapp.jobs import services
from webapp.jobs.models import RewriteJob
from webapp.ledger.models import LedgerEntry
from webapp.ledger.verify import verify_receipt_chains

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(os.environ.get("TEST_ARTIFACTS_DIR", ROOT / "test-artifacts"))
FAST_SWEEP = {
    "ANONYMIZER_SWEEP_INTERVAL_SECONDS": "1",
    "ANONYMIZER_RING_AGAIN_AFTER_SECONDS": "2",
    "ANONYMIZER_HEARTBEAT_INTERVAL_SECONDS": "0.5",
    "ANONYMIZER_JOB_STALE_SECONDS": "4",
    "ANONYMIZER_JOB_MAX_ATTEMPTS": "3",
}
REDACT = Settings(mechanism="redact", detector="regex")
RECOVERY: dict[str, dict[str, float | int]] = {}


def slow_gpu_settings(num_steps: int = 60) -> Settings:
    """DP-Embed-Invert with tiny models: enough corrector steps to be killed mid-job."""
    return Settings(
        mechanism="dp-embed-invert", detector="regex", num_steps=num_steps, composition="gdp"
    )


class Stack:
    """Redis, both workers and beat, as scripts/run.sh starts them (short sweep periods)."""

    def __init__(self, env: dict[str, str], log_dir: Path, redis: RedisServer) -> None:
        self.env, self.log_dir, self.redis = env, log_dir, redis
        self.cpu = worker("cpu", "cpu", 2, env, log_dir)
        # the gpu worker warms the default detector in each new child, as in production:
        # a respawned child must still report ready in time
        self.gpu = self.start_gpu_worker()
        self.beat = beat(env, log_dir)

    def start_gpu_worker(self):  # type: ignore[no-untyped-def]
        env = {**self.env, "ANONYMIZER_WORKER_WARM_DETECTOR": "1"}
        return worker("gpu", "gpu", 1, env, self.log_dir)

    def signal_workers(self, signum: int) -> None:
        for process in (self.cpu, self.gpu):
            os.killpg(process.pid, signum)

    def stop(self) -> None:
        for process in (self.beat, self.cpu, self.gpu):
            process.stop()


@pytest.fixture(scope="module")
def stack(django_db_setup, django_db_blocker, tmp_path_factory, tiny_model_dir):  # type: ignore[no-untyped-def]
    from worker.celery_app import app

    log_dir = tmp_path_factory.mktemp("fault-stack")
    redis = RedisServer(log_dir / "redis")
    redis.start()
    env = {
        **worker_env(
            redis.url, shared_database_url(django_db_blocker), tmp_path_factory, tiny_model_dir
        ),
        **FAST_SWEEP,
    }
    previous_broker = app.conf.broker_url
    point_producer_at(redis.url)
    running = Stack(env, log_dir, redis)
    yield running
    running.stop()
    redis.stop()
    point_producer_at(previous_broker)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "fault_recovery.json").write_text(json.dumps(RECOVERY, indent=2))
    print("\nfault recovery:", json.dumps(RECOVERY, indent=2))


def submit(user, settings: Settings, text: str = "Mail jane@example.com today.") -> RewriteJob:  # type: ignore[no-untyped-def]
    return services.submit_text(user, name="n.txt", text=text, rewrite_settings=settings)


def wait_finished(job_ids: list[int], timeout: float) -> list[RewriteJob]:
    wait_for(
        lambda: (
            not RewriteJob.objects.filter(pk__in=job_ids)
            .exclude(state__in=RewriteJob.FINAL_STATES)
            .exists()
        ),
        timeout,
        f"jobs {job_ids} to finish",
        interval=0.2,
    )
    return list(RewriteJob.objects.filter(pk__in=job_ids).order_by("pk"))


def assert_nothing_lost(jobs: list[RewriteJob]) -> None:
    """Every job succeeded once: one charged ledger entry each, none reserved, chain intact."""
    assert [(j.pk, j.state, j.error) for j in jobs] == [(j.pk, "succeeded", "") for j in jobs]
    entries = LedgerEntry.objects.filter(job__in=jobs)
    assert sorted(entries.values_list("job_id", flat=True)) == sorted(j.pk for j in jobs)
    assert set(entries.values_list("status", flat=True)) == {"charged"}
    assert not LedgerEntry.objects.filter(status="reserved").exists()
    assert all(j.receipt is not None for j in jobs)
    report = verify_receipt_chains()
    assert report.ok, report.first_broken


def freeze_mid_job(job_id: int, pid: int, *, group: bool) -> None:
    """SIGSTOP the process (group) running the job, then check the job is still unfinished.

    Without the freeze a fast machine can finish the job between the check and the kill,
    and the test would then exercise nothing.
    """
    (os.killpg if group else os.kill)(pid, signal.SIGSTOP)
    state = RewriteJob.objects.get(pk=job_id).state
    assert state == "running", f"job {job_id} was already {state} when frozen: raise num_steps"


def wait_running(job_id: int, timeout: float = 120) -> RewriteJob:
    wait_for(
        lambda: RewriteJob.objects.filter(pk=job_id, state="running").exists(),
        timeout,
        f"job {job_id} to start",
    )
    return RewriteJob.objects.get(pk=job_id)


def test_a_job_whose_pool_child_is_killed_runs_again_and_succeeds(stack, alice):
    job = submit(alice, slow_gpu_settings())
    wait_running(job.pk)
    time.sleep(1.0)  # mid-job
    (child,) = stack.gpu.pool_children()
    freeze_mid_job(job.pk, child, group=False)
    killed_at = time.monotonic()
    os.kill(child, signal.SIGKILL)
    wait_for(
        lambda: RewriteJob.objects.filter(pk=job.pk, attempts=2).exists(),
        60,
        "the job's second attempt",
    )
    reclaimed_after = time.monotonic() - killed_at
    (job,) = wait_finished([job.pk], 180)
    assert_nothing_lost([job])
    assert job.attempts == 2
    assert stack.gpu.proc.poll() is None and stack.gpu.pool_children() != [child]
    RECOVERY["pool child killed"] = {
        "jobs": 1,
        "lost": 0,
        "rerun_started_after_s": round(reclaimed_after, 1),
        "succeeded_after_s": round(time.monotonic() - killed_at, 1),
    }


def test_a_job_whose_whole_worker_is_killed_succeeds_after_a_restart(stack, alice):
    job = submit(alice, slow_gpu_settings())
    wait_running(job.pk)
    time.sleep(1.0)
    freeze_mid_job(job.pk, stack.gpu.pid, group=True)
    killed_at = time.monotonic()
    stack.gpu.kill()
    stack.gpu = stack.start_gpu_worker()
    restarted_after = time.monotonic() - killed_at
    (job,) = wait_finished([job.pk], 180)
    assert_nothing_lost([job])
    assert job.attempts == 2
    RECOVERY["whole worker killed and restarted"] = {
        "jobs": 1,
        "lost": 0,
        "worker_restart_s": round(restarted_after, 1),
        "succeeded_after_s": round(time.monotonic() - killed_at, 1),
    }


def test_jobs_queued_when_redis_is_killed_all_succeed_after_it_restarts(stack, alice):
    stack.signal_workers(signal.SIGSTOP)  # busy workers: the jobs wait in Redis
    try:
        jobs = [submit(alice, REDACT, f"Mail user{i}@example.com today.") for i in range(12)]
        jobs += [
            submit(alice, slow_gpu_settings(num_steps=1), f"Call Ann {i} today.") for i in (1, 2)
        ]
        stack.redis.kill()  # no persistence in this Redis: every message is gone
        stack.redis.start()
        restarted_at = time.monotonic()
    finally:
        stack.signal_workers(signal.SIGCONT)
    finished = wait_finished([j.pk for j in jobs], 240)
    assert_nothing_lost(finished)
    RECOVERY["redis killed with 14 jobs queued"] = {
        "jobs": len(jobs),
        "lost": sum(1 for j in finished if j.state != "succeeded"),
        "all_succeeded_after_s": round(time.monotonic() - restarted_at, 1),
    }


def test_submitting_while_redis_is_down_succeeds_and_the_job_runs_when_it_is_back(stack, alice):
    client = Client()
    client.force_login(alice)
    stack.redis.kill()
    try:
        started = time.monotonic()
        response = client.post(
            reverse("submit"),
            {"mechanism": "redact", "detector": "regex", "text": "Mail ann@example.com now."},
        )
        request_s = time.monotonic() - started
        assert response.status_code == 302, response.content.decode()[:2000]
        job = RewriteJob.objects.get(owner=alice)
        assert job.state == "queued"
        time.sleep(2)
    finally:
        stack.redis.start()
    back_at = time.monotonic()
    (job,) = wait_finished([job.pk], 120)
    assert_nothing_lost([job])
    assert job.output == "Mail [EMAIL] now."
    RECOVERY["submit while redis is down"] = {
        "jobs": 1,
        "lost": 0,
        "submit_request_s": round(request_s, 2),
        "succeeded_after_redis_back_s": round(time.monotonic() - back_at, 1),
    }
