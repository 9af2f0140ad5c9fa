"""A real redis-server and a real Celery worker process run a job end to end (no eager mode)."""

import time

import pytest

from anonymizer import Settings
from webapp.jobs import services
from webapp.jobs.models import RewriteJob

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def wait_until_finished(job_id: int, timeout: float = 60) -> RewriteJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = RewriteJob.objects.get(pk=job_id)
        if job.is_finished:
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still {job.state} ({job.stage}) after {timeout}s")


def test_a_submitted_job_succeeds_with_the_placeholder(celery_worker_process, alice):
    job = services.submit_text(
        alice,
        name="note.txt",
        text="Please email jane.doe@example.com about it.",
        rewrite_settings=Settings(mechanism="redact", detector="regex"),
    )
    job = wait_until_finished(job.pk)
    assert job.state == "succeeded", job.error
    assert job.output == "Please email [EMAIL] about it."
    assert job.receipt.payload["notion"] == "none"


def test_a_redelivered_message_does_nothing(celery_worker_process, alice):
    job = services.submit_text(
        alice,
        name="n.txt",
        text="call +1 415-555-0188",
        rewrite_settings=Settings(mechanism="redact", detector="regex"),
    )
    job = wait_until_finished(job.pk)
    services.enqueue_rewrite(job.pk)  # as if the broker delivered it again
    time.sleep(2)
    again = RewriteJob.objects.get(pk=job.pk)
    assert again.state == "succeeded" and again.finished_at == job.finished_at
    assert again.output == "call [PHONE]"


def test_a_failing_job_keeps_its_document_and_says_why(celery_worker_process, alice):
    job = services.submit_text(
        alice,
        name="n.txt",
        text="hello",
        rewrite_settings=Settings(mechanism="redact", detector="regex"),
    )
    RewriteJob.objects.filter(pk=job.pk).update(settings={"mechanism": "no-such-mechanism"})
    # re-enqueue with broken settings: the first message may already be consumed
    job = wait_until_finished(job.pk)
    if job.state == "succeeded":
        pytest.skip("worker consumed the job before the settings were changed")
    assert job.state == "failed" and "no-such-mechanism" in job.error
    assert job.document.text == "hello"


def test_one_message_runs_all_queued_jobs_with_the_same_settings_as_a_batch(
    celery_worker_process, alice, monkeypatch
):
    same = Settings(mechanism="redact", detector="regex")
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", lambda job_id: None)
    jobs = [
        services.submit_text(
            alice, name=f"n{i}.txt", text=f"mail user{i}@example.com", rewrite_settings=same
        )
        for i in range(3)
    ]
    other = services.submit_text(
        alice,
        name="o.txt",
        text="mail x@example.com",
        rewrite_settings=Settings(
            mechanism="redact", detector="regex", allow_list=("x@example.com",)
        ),
    )
    monkeypatch.undo()
    services.enqueue_rewrite(jobs[0].pk)  # only the first job's message is sent
    finished = [wait_until_finished(j.pk) for j in jobs]
    assert [j.output for j in finished] == ["mail [EMAIL]"] * 3
    assert RewriteJob.objects.get(pk=other.pk).state == "queued"  # different settings


def test_dp_embed_invert_runs_in_the_worker_with_progress_and_a_charged_receipt(
    celery_worker_process, alice
):
    from anonymizer import plan
    from webapp.ledger.models import LedgerEntry

    text = "Contact Jane Doe at jane@example.com or call +1 415-555-0188 about the merger."
    # enough corrector steps that the once-a-second progress writes catch one of them
    settings = Settings(
        mechanism="dp-embed-invert", detector="regex", num_steps=100, composition="gdp", epsilon=16
    )
    planned = plan(text, settings).receipt
    job = services.submit_text(alice, name="memo.txt", text=text, rewrite_settings=settings)
    stages = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        current = RewriteJob.objects.get(pk=job.pk)
        stages.add(current.stage)
        if current.is_finished:
            break
        time.sleep(0.1)
    assert current.state == "succeeded", current.error
    assert any(stage.startswith("correcting step") for stage in stages), stages
    receipt = current.receipt.payload
    assert receipt["notion"] == "(eps,delta)-DP" and receipt["composition"] == "gdp"
    assert receipt["n_chunks"] == planned.n_chunks == 4
    assert receipt["sigma"] == pytest.approx(planned.sigma)
    assert receipt["seeded"] is False
    pii = [s["placeholder"] for s in current.spans if s["is_pii"]]
    assert pii == ["[PERSON]", "[EMAIL]", "[PHONE]"]
    assert [p for p in ("[PERSON]", "[EMAIL]", "[PHONE]") if p in current.output] == pii
    entry = LedgerEntry.objects.get(job=current)
    assert len(entry.events) == 4 and current.noised_release


@pytest.mark.parametrize("mechanism", ["santext", "custext", "clusant"])
def test_token_level_mechanisms_run_in_the_worker(celery_worker_process, alice, mechanism):
    text = "Please call Dr. Maria Lopez at +1 415-555-0188 or mail maria@example.com."
    settings = Settings(
        mechanism=mechanism, detector="regex", epsilon=4, candidates_per_category=50, n_clusters=4
    )
    job = wait_until_finished(
        services.submit_text(alice, name="t.txt", text=text, rewrite_settings=settings).pk,
        timeout=180,
    )
    assert job.state == "succeeded", job.error
    receipt = job.receipt.payload
    assert receipt["mechanism"] == mechanism and receipt["details"]["n_tokens"] == 3
    assert job.output.startswith("Please call ") and job.output.endswith(".")
    sanitized = [s for s in job.spans if s["is_pii"]]
    assert [s["category"] for s in sanitized] == [
        "full person name",
        "phone number",
        "email address",
    ]
    if mechanism == "custext":  # clusters of several tokens: no metric-LDP claim
        assert receipt["notion"].startswith("eps-LDP within cluster only")
    else:
        assert receipt["notion"].startswith("eps-metric-LDP per token")
