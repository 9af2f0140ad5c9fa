"""The operator's page asks a real Celery worker which queues it consumes."""

import os

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_a_running_worker_is_listed_under_its_queue(
    client, django_user_model, celery_worker_process, redis_url, settings
):
    settings.CELERY_BROKER_URL = redis_url
    staff = django_user_model.objects.create_user("ops", password="x-pass-12345", is_staff=True)
    client.force_login(staff)
    page = client.get(reverse("operator_workers")).content.decode()
    assert "Broker reachable" in page
    assert f"test-worker-{os.getpid()}@" in page  # the fixture's worker answered the broadcast
    for queue in ("cpu", "gpu"):  # it consumes both queues
        row = page.split(f'id="queue-{queue}"')[1].split("</tr>")[0]
        assert f"test-worker-{os.getpid()}@" in row and "none answering" not in row
