"""The first real path: log in, paste text with an email, watch the job, download the receipt."""

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import choose_mechanism

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_user_rewrites_pasted_text_and_downloads_the_receipt(
    logged_in, live_server, celery_worker_process, screenshot
):
    page = logged_in
    page.fill("textarea[name=text]", "Hello, please write to jane.doe@example.com soon.")
    choose_mechanism(page, "redact")
    page.select_option("select[name=detector]", "regex")
    screenshot("skeleton-submit")
    page.click("#submit-button")
    page.wait_for_url("**/jobs/*/")
    expect(page.locator("#job-status .state")).to_have_text("succeeded", timeout=60_000)
    expect(page.locator("#output")).to_contain_text("[EMAIL]")
    expect(page.locator("#output")).not_to_contain_text("jane.doe@example.com")
    screenshot("skeleton-result")
    with page.expect_download() as info:
        page.click("#download-receipt")
    download = info.value
    assert download.suggested_filename.endswith("-receipt.json")
    data = json.loads(open(download.path(), encoding="utf-8").read())
    receipt = data["receipt"]
    assert receipt["mechanism"] == "redact" and receipt["notion"] == "none"
    assert receipt["seeded"] is False and len(receipt["input_sha256"]) == 64
    assert any("No formal privacy guarantee" in c for c in receipt["caveats"])
