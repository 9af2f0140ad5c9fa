"""The web app the way people use it: uploads, live receipt preview, progress, spans, cancel,
history filters and pages, the zip download. Screenshots go to test-artifacts/."""

import io
import zipfile

import pytest
from playwright.sync_api import expect

from tests.documents import docx_bytes, pdf_bytes
from tests.e2e.helpers import choose_mechanism
from tests.factories import JobFactory
from webapp.jobs.models import RewriteJob

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _upload(page, name: str, data: bytes, mime: str) -> None:
    page.set_input_files(
        "input[name=file]", files=[{"name": name, "mimeType": mime, "buffer": data}]
    )


def test_docx_upload_is_rewritten_with_diffed_spans_and_a_zip(
    logged_in, live_server, celery_worker_process, screenshot, tmp_path
):
    page = logged_in
    _upload(
        page,
        "letter.docx",
        docx_bytes(["Dear team,", "write to jane.doe@example.com today."]),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    )
    choose_mechanism(page, "redact")
    page.select_option("select[name=detector]", "regex")
    expect(page.locator("#preview-notion")).to_have_text("none")
    screenshot("submit")
    page.click("#submit-button")
    page.wait_for_url("**/jobs/*/")
    expect(page.locator("#output")).to_be_visible(timeout=60_000)
    chip = page.locator("#output mark.rep").first
    expect(chip).to_have_text("[EMAIL]")
    expect(chip).to_have_attribute("data-tip", "email address · found by regex")
    expect(page.locator("#receipt-text")).to_contain_text("Privacy receipt — redact")
    page.click("#view-side")
    expect(page.locator(".side .was").first).to_have_text("jane.doe@example.com")
    screenshot("result")
    with page.expect_download() as info:
        page.click("#download-zip")
    download = info.value
    assert download.suggested_filename.startswith(
        "letter-job"
    ) and download.suggested_filename.endswith(".zip")
    archive = zipfile.ZipFile(io.BytesIO(open(download.path(), "rb").read()))
    names = archive.namelist()
    assert len(names) == 4 and all(n.startswith("letter-job") for n in names)
    assert any(n.endswith("-anonymized.docx") for n in names)
    output = archive.read([n for n in names if n.endswith("-anonymized.txt")][0]).decode()
    assert output == "Dear team,\nwrite to [EMAIL] today."


def test_pdf_upload_is_rewritten(logged_in, live_server, celery_worker_process):
    page = logged_in
    _upload(
        page,
        "invoice.pdf",
        pdf_bytes(["Invoice for ops@example.org", "Call +44 20 7946 0958"]),
        "application/pdf",
    )
    choose_mechanism(page, "redact")
    page.select_option("select[name=detector]", "regex")
    page.click("#submit-button")
    page.wait_for_url("**/jobs/*/")
    expect(page.locator("#output")).to_contain_text("[EMAIL]", timeout=60_000)
    expect(page.locator("#output")).to_contain_text("[PHONE]")


def test_the_receipt_preview_follows_epsilon(logged_in, live_server):
    page = logged_in
    page.fill("textarea[name=text]", "Contact Jane Doe at jane@example.com.")
    choose_mechanism(page, "dp-embed-invert")
    page.select_option("select[name=detector]", "regex")
    page.select_option("select[name=composition]", "basic")
    expect(page.locator("#preview-k")).to_have_text("2")
    page.fill("input[name=epsilon]", "16")
    expect(page.locator("#preview-eps-chunk")).to_have_text("8.0")
    sigma_16 = page.locator("#preview-sigma").inner_text()
    page.fill("input[name=epsilon]", "4")
    expect(page.locator("#preview-eps-chunk")).to_have_text("2.0")
    sigma_4 = page.locator("#preview-sigma").inner_text()
    assert float(sigma_4) > float(sigma_16)


def test_a_queued_job_is_cancelled_from_its_page(logged_in, live_server, monkeypatch, screenshot):
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", lambda job_id: None)
    page = logged_in
    page.fill("textarea[name=text]", "Hold this one: a@b.co")
    choose_mechanism(page, "redact")
    page.select_option("select[name=detector]", "regex")
    page.click("#submit-button")
    page.wait_for_url("**/jobs/*/")
    expect(page.locator("#job-status .state")).to_have_text("queued")
    screenshot("job")
    page.click("#cancel-button")
    expect(page.locator("#job-status .state")).to_have_text("cancelled")
    assert RewriteJob.objects.get().state == "cancelled"


def test_history_filters_and_pages(logged_in, live_server, django_user_model, screenshot):
    alice = django_user_model.objects.get(username="alice")
    for i in range(30):
        JobFactory(owner=alice, document__name=f"report-{i:02d}.txt", state="succeeded", n_chunks=i)
    JobFactory(owner=alice, document__name="failed-memo.txt", state="failed")
    page = logged_in
    page.goto(f"{live_server.url}/history/")
    expect(page.locator(".pager")).to_contain_text("page 1 of 2")
    screenshot("history")
    page.click(".pager a[rel=next]")
    expect(page.locator(".pager")).to_contain_text("page 2 of 2")
    assert "page=2" in page.url
    page.select_option("select[name=state]", "failed")
    expect(page.locator("#history-table tbody tr")).to_have_count(1)
    expect(page.locator("#history-table")).to_contain_text("failed-memo.txt")
    page.select_option("select[name=state]", "")
    page.fill("input[name=q]", "report-1")
    expect(page.locator("#history-table tbody tr")).to_have_count(10)


def test_dp_embed_invert_shows_corrector_progress_and_rewritten_chunks(
    logged_in, live_server, celery_worker_process, tiny_models_available, screenshot
):
    page = logged_in
    page.fill("textarea[name=text]", "Contact Jane Doe at jane@example.com about the merger.")
    choose_mechanism(page, "dp-embed-invert")
    page.select_option("select[name=detector]", "regex")
    page.select_option("select[name=composition]", "gdp")
    page.fill("input[name=num_steps]", "100")
    expect(page.locator("#preview-k")).to_have_text("3")
    page.click("#submit-button")
    page.wait_for_url("**/jobs/*/")
    expect(page.locator("#job-status .stage")).to_contain_text("correcting step", timeout=90_000)
    expect(page.locator("#job-status progress")).to_be_visible()
    screenshot("job-running")
    expect(page.locator("#output")).to_be_visible(timeout=90_000)
    expect(page.locator("#output .chunk")).to_have_count(3)
    expect(page.locator("#output mark.rep")).to_have_text(["[PERSON]", "[EMAIL]"])
    expect(page.locator("#receipt-text")).to_contain_text("Guarantee: (eps,delta)-DP")
    expect(page.locator("#receipt-text")).to_contain_text("composition=gdp")
    screenshot("result-dp-embed-invert")
