"""The service a team runs, end to end in Chromium with a real worker: an operator invites a
colleague, who sets a password, logs in, uploads a batch of three files and downloads the
batch zip; the operator page shows the worker. Screenshots go to test-artifacts/."""

import io
import json
import zipfile

import pytest
from playwright.sync_api import expect

from tests.documents import docx_bytes, pdf_bytes
from tests.e2e.helpers import choose_mechanism
from tests.e2e.test_accounts import accept_invite, invite, log_in, shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
THREE_FILES = [
    {"name": "memo.txt", "mimeType": "text/plain", "buffer": b"Write to jane@example.com."},
    {"name": "letter.docx", "mimeType": DOCX, "buffer": docx_bytes(["Call +44 20 7946 0958"])},
    {"name": "invoice.pdf", "mimeType": "application/pdf", "buffer": pdf_bytes(["Pay a@b.org"])},
]


def test_invite_log_in_batch_of_three_and_download_the_zip(
    browser, page, live_server, celery_worker_process, django_user_model, redis_url, settings
):
    settings.CELERY_BROKER_URL = redis_url  # the operator page asks the test's broker
    django_user_model.objects.create_user("operator", password="operator-pass-1", is_staff=True)
    log_in(page, live_server.url, "operator", "operator-pass-1")
    url = invite(page, live_server.url, "dana")

    dana = browser.new_context(accept_downloads=True).new_page()
    accept_invite(dana, url, "dana-Long-pass-42")
    log_in(dana, live_server.url, "dana", "dana-Long-pass-42")
    dana.click("nav >> text=Batches")
    dana.click("#new-batch")
    dana.set_input_files("input[name=files]", files=THREE_FILES)
    dana.fill("input[name=name]", "March letters")
    choose_mechanism(dana, "redact")
    dana.select_option("select[name=detector]", "regex")
    dana.click("#batch-submit")
    dana.wait_for_url("**/batches/*/")
    expect(dana.locator("#batch-table tr.batch-item")).to_have_count(3)
    expect(dana.locator("#batch-state")).to_have_text("Finished", timeout=120_000)
    expect(dana.locator("#batch-summary")).to_have_text("3 succeeded")
    shoot(dana, "batch")

    with dana.expect_download() as info:
        dana.click("#batch-download")
    download = info.value
    assert download.suggested_filename.startswith("March-letters-batch")
    archive = zipfile.ZipFile(io.BytesIO(open(download.path(), "rb").read()))
    outputs = sorted(n for n in archive.namelist() if n.endswith("-anonymized.txt"))
    # per document: text output and two receipts; the .docx also as .docx; a manifest
    assert len(outputs) == 3 and len(archive.namelist()) == 3 * 3 + 1 + 1
    assert [n for n in archive.namelist() if n.endswith(".docx")] == [
        outputs[1].replace(".txt", ".docx")
    ]
    texts = [archive.read(n).decode() for n in outputs]
    assert texts == ["Write to [EMAIL].", "Call [PHONE]", "Pay [EMAIL]"]
    manifest = json.loads(archive.read("manifest.json"))
    assert [d["filename"] for d in manifest["documents"]] == [
        "memo.txt",
        "letter.docx",
        "invoice.pdf",
    ]

    page.goto(f"{live_server.url}/operator/")
    expect(page.locator("#broker")).to_contain_text("Broker reachable")
    expect(page.locator("#chain-state")).to_contain_text("3 receipts in 1 chain")
    expect(page.locator("#worker-list")).to_contain_text("test-")
    shoot(page, "operator")
    dana.context.close()
