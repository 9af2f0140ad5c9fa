"""Queue position: jobs ahead on the same queue only, and a wait estimated from recent
durations of the same mechanism."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import JobFactory
from webapp.operations.queueing import estimate_wait, human_duration, queue_position

pytestmark = pytest.mark.django_db


def _finished(owner, mechanism: str, seconds: float, queue: str = "cpu"):  # type: ignore[no-untyped-def]
    end = timezone.now() - timedelta(minutes=1)
    return JobFactory(
        owner=owner,
        mechanism=mechanism,
        queue=queue,
        state="succeeded",
        started_at=end - timedelta(seconds=seconds),
        finished_at=end,
    )


def test_only_earlier_queued_jobs_on_the_same_queue_count_as_ahead(alice, bob):
    older = [JobFactory(owner=bob, queue="cpu") for _ in range(3)]
    JobFactory(owner=bob, queue="gpu", mechanism="dp-embed-invert")  # another queue
    JobFactory(owner=bob, queue="cpu", cancel_requested=True)  # about to end
    JobFactory(owner=bob, queue="cpu", state="running")
    mine = JobFactory(owner=alice, queue="cpu")
    JobFactory(owner=bob, queue="cpu")  # came later
    position = queue_position(mine)
    assert (position.queue, position.ahead, position.running) == ("cpu", 3, 1)
    assert queue_position(older[0]).ahead == 0


def test_the_estimate_uses_the_median_of_recent_jobs_of_the_same_mechanism(alice, bob):
    for seconds in (10, 20, 30, 1000):
        _finished(bob, "santext", seconds)
    _finished(bob, "redact", 5000)  # another mechanism: not used
    old = _finished(bob, "santext", 9999)
    old.finished_at = timezone.now() - timedelta(days=30)  # too old: not used
    old.save()
    for _ in range(4):
        JobFactory(owner=bob, queue="cpu", state="running")
    for _ in range(4):
        JobFactory(owner=bob, queue="cpu")
    mine = JobFactory(owner=alice, mechanism="santext", queue="cpu")
    position = queue_position(mine)
    assert position.typical_seconds == 25 and position.sample_size == 4
    # half a job for a slot to free, then 4 ahead in rounds of 4 running at once
    assert position.wait_seconds == 12.5 + 25
    assert position.wait_text == "about 38 s"


def test_without_recent_jobs_there_is_no_estimate(alice):
    position = queue_position(JobFactory(owner=alice, mechanism="clusant"))
    assert position.wait_seconds is None
    assert position.wait_text == "no recent jobs of this mechanism to estimate from"


def test_a_started_job_has_no_queue_position(alice):
    assert queue_position(JobFactory(owner=alice, state="running")) is None
    assert queue_position(JobFactory(owner=alice, state="succeeded")) is None


@pytest.mark.parametrize(
    ("ahead", "running", "typical", "expected"),
    [
        (0, 0, 10.0, 0.0),
        (0, 2, 10.0, 5.0),
        (3, 1, 10.0, 35.0),
        (5, 2, 10.0, 25.0),
        (1, 0, None, None),
    ],
)
def test_estimate_wait(ahead, running, typical, expected):
    assert estimate_wait(ahead, running, typical) == expected


def test_durations_read_like_people_say_them():
    assert [human_duration(s) for s in (0.2, 42, 90, 7200)] == ["1 s", "42 s", "2 min", "2.0 h"]


def test_the_job_page_says_where_a_queued_job_stands(client, alice, bob):
    from django.urls import reverse

    _finished(bob, "redact", 8)
    JobFactory(owner=bob, queue="cpu")
    JobFactory(owner=bob, queue="cpu", state="running")
    mine = JobFactory(owner=alice, queue="cpu")
    client.force_login(alice)
    page = client.get(reverse("job_status", args=[mine.pk])).content.decode()
    assert "1 job ahead of this one on the <code>cpu</code> queue, 1 running" in page
    assert "Expected start: about 12 s (recent redact jobs took 8 s each" in page
    running = JobFactory(owner=alice, state="running")
    assert (
        'id="queue-position"'
        not in client.get(reverse("job_status", args=[running.pk])).content.decode()
    )
