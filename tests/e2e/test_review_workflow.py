"""Review, replace, restore (issue 13) in headless Chromium against a live server and a real
worker: the review page, every operator, restore, .docx and PDF round trips.

Detections come from a deny list or from spans the test marks itself (detector "none"), so
these tests do not depend on what the detectors happen to find.
"""

import io
import re
import zipfile

import pytest
from playwright.sync_api import expect

from tests.documents import pdf_bytes, rich_docx_bytes
from tests.e2e.helpers import choose_mechanism
from webapp.jobs.models import RewriteJob

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LETTER = (
    "Landlord: Jane Doe (jane@example.com) lets the flat in Manchester to John Smith.\n"
    "Jane Doe signs for the Landlord; the rent of EUR 1,250.00 is due monthly."
)


def _fill(page, text: str, deny: str, operator: str | None = None) -> None:  # type: ignore[no-untyped-def]
    page.fill("textarea[name=text]", text)
    choose_mechanism(page, "redact")
    page.select_option("select[name=detector]", "none")
    page.fill("textarea[name=deny_list]", deny)
    if operator:
        page.select_option("select[name=operator]", operator)


def _open_review(page) -> None:  # type: ignore[no-untyped-def]
    page.click("#review-button")
    page.wait_for_url("**/reviews/*/")
    expect(page.locator("#review-text")).to_be_visible(timeout=60_000)


def _select_text(page, needle: str) -> None:  # type: ignore[no-untyped-def]
    """Select `needle` inside the review text with the mouse, as a person would."""
    page.evaluate(
        """needle => {
            const area = document.getElementById('review-text');
            const walker = document.createTreeWalker(area, NodeFilter.SHOW_TEXT);
            while (walker.nextNode()) {
                const at = walker.currentNode.data.indexOf(needle);
                if (at >= 0) {
                    const range = document.createRange();
                    range.setStart(walker.currentNode, at);
                    range.setEnd(walker.currentNode, at + needle.length);
                    const selection = window.getSelection();
                    selection.removeAllRanges();
                    selection.addRange(range);
                    document.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
                    return;
                }
            }
            throw new Error('not found: ' + needle);
        }""",
        needle,
    )


def _wait_for_result(page) -> None:  # type: ignore[no-untyped-def]
    page.wait_for_url("**/jobs/*/")
    expect(page.locator("#job-status .state")).to_have_text("succeeded", timeout=60_000)


def test_review_reject_one_span_add_a_missed_one_and_apply(
    logged_in, live_server, celery_worker_process, screenshot
):
    page = logged_in
    _fill(page, LETTER, "Landlord\njane@example.com\nJane Doe")
    _open_review(page)
    marks = page.locator("#review-text button.mark")
    expect(marks).to_have_count(5)
    # keyboard: Tab to the first "Landlord" and press Enter to keep it
    first = page.locator("#c-0")
    first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#c-0")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#c-0")).to_be_focused()
    # the second "Landlord" stays replaced: one span rejected, not the string
    expect(page.locator("#row-4")).to_have_class("replaced")
    # select the missed "Manchester" with the mouse and mark it as a place
    _select_text(page, "Manchester")
    expect(page.locator("#add-text")).to_have_value("Manchester")
    assert page.locator("#add-start").input_value() == str(LETTER.index("Manchester"))
    page.select_option("#add-category", "location")
    page.click("#add-button")
    expect(page.locator("#review-text mark.added")).to_have_text(["Manchester"])
    expect(page.locator("#review-counts")).to_contain_text("5 spans will be replaced")
    screenshot("review")
    page.click("#apply-review")
    _wait_for_result(page)
    output = page.locator("#output")
    expect(output).to_contain_text("Landlord: [REDACTED] ([REDACTED]) lets the flat in [LOCATION]")
    expect(output).to_contain_text("[REDACTED] signs for the [REDACTED];")
    summary = page.locator("#receipt-summary")
    expect(summary).to_contain_text("5 spans replaced: 4 listed strings and 1 place.")
    expect(summary).to_contain_text("1 string you chose to keep: “Landlord”.")
    expect(summary).to_contain_text("1 span you marked yourself.")
    expect(summary).to_contain_text("Reviewed by alice before the rewrite.")
    expect(summary).to_contain_text("No formal privacy guarantee.")
    artifacts = screenshot("result-reviewed").parent
    page.locator("#receipt-caveats summary").click()
    page.locator("#receipt").screenshot(path=str(artifacts / "receipt.png"))
    job = RewriteJob.objects.get()
    review = job.receipt.payload["details"]["review"]
    assert review["kept_strings"] == ["Landlord"] and review["added_spans"] == 1


OPERATOR_OUTPUTS = {
    "placeholder": r"^\[REDACTED\] wrote to \[REDACTED\]\. \[REDACTED\] agreed\.$",
    "numbered": r"^\[REDACTED_1\] wrote to \[REDACTED_2\]\. \[REDACTED_1\] agreed\.$",
    "mask": r"^\*{8} wrote to \*{12}\. \*{8} agreed\.$",
    "hash": r"^\[REDACTED:([0-9a-f]{12})\] wrote to \[REDACTED:[0-9a-f]{12}\]\. "
    r"\[REDACTED:\1\] agreed\.$",
    "fake": r"^([A-Z][a-z]+ [A-Z][a-z]+) wrote to ([a-z]+@[a-z]+)\. \1 agreed\.$",
}


@pytest.mark.parametrize("operator", list(OPERATOR_OUTPUTS))
def test_each_operator_replaces_consistently(
    operator, logged_in, live_server, celery_worker_process
):
    page = logged_in
    _fill(
        page, "Jane Doe wrote to jane@example. Jane Doe agreed.", "Jane Doe\njane@example", operator
    )
    page.click("#submit-button")
    _wait_for_result(page)
    text = page.locator("#output").inner_text().replace("\u200b", "").strip()
    assert re.match(OPERATOR_OUTPUTS[operator], text), text
    assert "Jane Doe" not in text
    restorable = operator in ("numbered", "fake")
    expect(page.locator("#restore-link")).to_have_count(1 if restorable else 0)
    expect(page.locator("#output mark.rep").first).to_have_attribute(
        "data-tip", "custom · found by deny-list"
    )


def test_restore_puts_the_names_back_into_a_pasted_answer(
    logged_in, live_server, celery_worker_process, screenshot
):
    page = logged_in
    _fill(page, LETTER, "jane@example.com", "numbered")
    _open_review(page)
    for name in ("Jane Doe", "John Smith"):  # the typed, every-occurrence path
        page.fill("#add-text", name)
        page.select_option("#add-category", "full person name")
        page.click("#add-button")
        expect(page.locator("#added-list")).to_contain_text(name)
    page.click("#apply-review")
    _wait_for_result(page)
    expect(page.locator("#output")).to_contain_text(
        "Landlord: [PERSON_1] ([REDACTED_1]) lets the flat in Manchester to [PERSON_2]."
    )
    page.click("#restore-link")
    page.fill(
        "#restore-text",
        "Summary: [PERSON_2] rents from PERSON_1, who can be reached at [REDACTED_1].",
    )
    page.click("#restore-button")
    expect(page.locator("#restored-text")).to_have_text(
        "Summary: John Smith rents from Jane Doe, who can be reached at jane@example.com."
    )
    expect(page.locator("#restore-count")).to_contain_text("3 replacements put back")
    screenshot("restore")


def test_a_docx_with_header_footer_table_and_comment_round_trips_without_pii(
    logged_in, live_server, celery_worker_process, tmp_path
):
    page = logged_in
    page.set_input_files(
        "input[name=file]",
        files=[
            {
                "name": "lease.docx",
                "mimeType": "application/vnd.openxmlformats-officedocument."
                "wordprocessingml.document",
                "buffer": rich_docx_bytes(),
            }
        ],
    )
    choose_mechanism(page, "redact")
    page.select_option("select[name=detector]", "none")
    page.fill(
        "textarea[name=deny_list]",
        "Jane Doe\njane.doe@example.com\nGB82 WEST 1234 5698 7654 32\nManchester",
    )
    page.select_option("select[name=operator]", "numbered")
    page.click("#submit-button")
    _wait_for_result(page)
    expect(page.locator("#output")).to_contain_text("Confidential — prepared for [REDACTED_1]")
    with page.expect_download() as info:
        page.click("#download-original-format")
    assert info.value.suggested_filename.endswith("-anonymized.docx")
    data = open(info.value.path(), "rb").read()
    archive = zipfile.ZipFile(io.BytesIO(data))
    leaks = {
        name: needle
        for name in archive.namelist()
        for needle in (b"Jane", b"jane.doe", b"John Smith", b"5698", b"Manchester")
        if needle in archive.read(name)
    }
    assert leaks == {}
    import docx

    document = docx.Document(io.BytesIO(data))
    assert (
        document.sections[0].header.paragraphs[0].text == "Confidential — prepared for [REDACTED_1]"
    )
    assert document.sections[0].footer.paragraphs[0].text == "Questions: [REDACTED_3]"
    assert document.tables[0].cell(0, 1).text == "[REDACTED_1]"
    assert (
        document.paragraphs[0].runs[1].bold
        and document.paragraphs[0].runs[1].text == "[REDACTED_1]"
    )
    assert document.core_properties.author == "" and document.core_properties.revision == 0


def test_a_pdf_with_a_wrapped_iban_is_joined_before_detection(
    logged_in, live_server, celery_worker_process
):
    page = logged_in
    lines = [
        "Please pay the deposit into the landlord's account with IBAN GB82 WEST 1234 5698",
        "7654 32 before Friday, and keep the transfer receipt for your own records.",
        "Regards,",
        "The agent",
    ]
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "notice.pdf", "mimeType": "application/pdf", "buffer": pdf_bytes(lines)}],
    )
    choose_mechanism(page, "redact")
    page.select_option("select[name=detector]", "none")
    page.fill("textarea[name=deny_list]", "GB82 WEST 1234 5698 7654 32")
    page.click("#submit-button")
    _wait_for_result(page)
    output = page.locator("#output")
    expect(output).to_contain_text("with IBAN [REDACTED] before Friday")
    expect(output).not_to_contain_text("7654")
    expect(output).to_contain_text("Regards,")
    expect(page.locator("#layout-note")).to_contain_text("layout was not kept")
