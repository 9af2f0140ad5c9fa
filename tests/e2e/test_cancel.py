"""Cancel stops a slow token-sanitizer job (building a 50,000-word candidate set) promptly and
the job ends `cancelled`, not failed. The measured latency is written to test-artifacts/."""

import json
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import choose_mechanism
from webapp.jobs.models import RewriteJob

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TARGET_SECONDS = 2.0
# The shared 2-core machines are 2-4x slower than an idle one; the target is reported, and
# only a gross miss fails the test (no timed assertions at the target itself).
GROSS_MISS_SECONDS = 5 * TARGET_SECONDS


def test_cancel_stops_a_slow_token_job(logged_in, live_server, celery_worker_process, screenshot):
    page = logged_in
    page.fill("textarea[name=text]", "The Landlord signs the lease for the Tenant.")
    choose_mechanism(page, "santext")
    page.select_option("select[name=detector]", "none")
    page.fill("textarea[name=sensitive_words]", "Landlord\nTenant")
    page.fill("input[name=candidates_per_category]", "50000")
    page.click("#submit-button")
    page.wait_for_url("**/jobs/*/")
    job = RewriteJob.objects.get()
    expect(page.locator("#job-status .state")).to_have_text("running", timeout=120_000)
    time.sleep(3.0)  # well inside the slow step (embedding 50,000 candidate words)
    clicked = time.monotonic()
    page.click("#cancel-button")
    while RewriteJob.objects.get(pk=job.pk).state == "running":
        assert time.monotonic() - clicked < 60, "the job did not stop"
        time.sleep(0.05)
    stopped = time.monotonic() - clicked
    expect(page.locator("#job-status .state")).to_have_text("cancelled")
    shown = time.monotonic() - clicked
    screenshot("cancelled")
    job.refresh_from_db()
    assert job.state == "cancelled" and job.error == "" and not hasattr(job, "receipt")
    artifacts = screenshot("cancelled").parent
    (artifacts / "cancel-latency.json").write_text(
        json.dumps({"stopped_s": round(stopped, 3), "shown_s": round(shown, 3)})
    )
    assert stopped < GROSS_MISS_SECONDS, f"stopped {stopped:.2f}s after the click"
