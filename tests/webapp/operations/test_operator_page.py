"""The operator's page: staff only; exact reasons and install commands; queues read from a real
Redis with short timeouts; the receipt-chain check."""

import pytest
import redis
from django.db import connection
from django.urls import reverse

from tests.conftest import free_port
from tests.factories import JobFactory, succeeded_job
from webapp.operations.mechanisms import NOT_INSTALLED, mechanism_statuses, reason_for
from webapp.operations.workers import broker_status

pytestmark = pytest.mark.django_db
URLS = ["operator", "operator_workers", "operator_chain"]


@pytest.fixture
def operator(django_user_model):  # type: ignore[no-untyped-def]
    return django_user_model.objects.create_user("ops", password="ops-password-1", is_staff=True)


@pytest.fixture
def unreachable_broker(settings):  # type: ignore[no-untyped-def]
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"


@pytest.mark.parametrize("name", URLS)
def test_anonymous_is_sent_to_login(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.parametrize("name", URLS)
def test_it_returns_403_to_users_who_are_not_staff(client, alice, name):
    client.force_login(alice)
    assert client.get(reverse(name)).status_code == 403


def test_unavailable_mechanisms_show_the_exact_reason_and_install_command(
    client, operator, unreachable_broker
):
    client.force_login(operator)
    page = client.get(reverse("operator")).content.decode()
    dp = next(m for m in mechanism_statuses() if m.name == "dp-embed-invert")
    if dp.available:
        pytest.skip("dp-embed-invert's weights are installed here")
    assert "model weights are not installed" in page
    assert '<pre class="command">python -m anonymizer models fetch</pre>' in page
    assert 'id="mechanism-redact" class="available"' in page


def test_only_staff_see_the_exact_reason(alice, operator):
    reason = "weights missing under /srv/models; run `python -m anonymizer models fetch`"
    assert reason_for(operator, reason) == reason
    assert reason_for(alice, reason) == NOT_INSTALLED
    assert reason_for(alice, None) is None


def test_queue_lengths_come_from_the_real_broker(client, operator, redis_url, settings):
    settings.CELERY_BROKER_URL = redis_url
    broker = redis.Redis.from_url(redis_url)
    broker.delete("cpu", "gpu")
    broker.lpush("cpu", "m1", "m2")
    broker.lpush("gpu\x06\x166", "m3")  # kombu's key for a priority step of the gpu queue
    try:
        status = broker_status()
        assert status.reachable and status.waiting == {"cpu": 2, "gpu": 1}
        JobFactory(owner=operator, mechanism="redact")
        client.force_login(operator)
        page = client.get(reverse("operator_workers")).content.decode()
        assert "Broker reachable" in page
        assert '<tr id="queue-cpu"><td><code>cpu</code></td>\n          <td>2</td>' in page
    finally:
        broker.delete("cpu", "gpu\x06\x166")


@pytest.mark.timeout(60)
def test_an_unreachable_broker_is_reported_and_the_page_still_answers(
    client, operator, unreachable_broker
):
    client.force_login(operator)
    page = client.get(reverse("operator") + "?now=1").content.decode()
    assert "Broker unreachable" in page and "ConnectionError" in page
    assert "the broker cannot be reached, so no worker can be asked" in page


def test_the_chain_check_reports_an_intact_chain(client, operator, alice):
    succeeded_job(alice)
    succeeded_job(alice)
    client.force_login(operator)
    page = client.get(reverse("operator_chain")).content.decode()
    assert "Intact." in page and "2 receipts in 1 chain verified" in page


def test_the_chain_check_reports_a_tampered_receipt(client, operator, alice):
    job = succeeded_job(alice)
    succeeded_job(alice)
    with connection.cursor() as cursor:  # what an attacker with database access would do
        cursor.execute(
            "UPDATE jobs_receipt SET payload = %s WHERE job_id = %s",
            ['{"mechanism": "redact", "notion": "(eps,delta)-DP"}', job.pk],
        )
    client.force_login(operator)
    page = client.get(reverse("operator_chain")).content.decode()
    assert "Broken." in page and f"job {job.pk}" in page


def test_recent_failures_are_listed_with_their_reason(client, operator, alice):
    JobFactory(owner=alice, state="failed", error="The worker ran out of memory.")
    client.force_login(operator)
    page = client.get(reverse("operator")).content.decode()
    assert "1 failed" in page and "The worker ran out of memory." in page


def test_the_submit_page_shows_the_exact_reason_to_operators_only(client, alice, operator):
    dp = next(m for m in mechanism_statuses() if m.name == "dp-embed-invert")
    if dp.available:
        pytest.skip("dp-embed-invert's weights are installed here")
    client.force_login(alice)
    page = client.get(reverse("submit")).content.decode()
    assert f"unavailable: {NOT_INSTALLED}" in page and "models fetch" not in page
    full = {"epsilon": "4", "delta": "0.001", "clip_radius": "1.5", "num_steps": "5"}
    full.update(composition="gdp", detector="regex", max_len="32")
    refused = client.post(
        reverse("submit"), {"mechanism": "dp-embed-invert", "text": "Mail a@b.org", **full}
    )
    assert refused.context["form"].errors["mechanism"] == [
        f"This mechanism is unavailable here: {NOT_INSTALLED}"
    ]
    preview = client.post(
        reverse("submit_preview"),
        {"mechanism": "dp-embed-invert", "text": "Mail a@b.org", "detector": "regex"},
    ).content.decode()
    assert "models fetch" not in preview
    client.force_login(operator)
    assert "models fetch" in client.get(reverse("submit")).content.decode()
