"""Uploads become text or are refused with a reason: formats, sizes, binary, encodings."""

import pytest

from tests.documents import docx_bytes, pdf_bytes
from webapp.jobs.documents import DocumentError, extract_text


def test_it_reads_utf8_text_and_markdown():
    assert extract_text("a.txt", "Grüße, Jane".encode()) == ("Grüße, Jane", "txt")
    assert extract_text("a.md", b"# Title\nbody") == ("# Title\nbody", "md")


def test_it_reads_utf16_with_a_bom():
    assert extract_text("a.txt", "Zoë".encode("utf-16")) == ("Zoë", "txt")


def test_it_reads_docx_paragraphs():
    text, kind = extract_text("a.docx", docx_bytes(["Dear Jane,", "call +1 415-555-0188."]))
    assert kind == "docx" and text == "Dear Jane,\ncall +1 415-555-0188."


def test_it_reads_pdf_text():
    text, kind = extract_text("a.pdf", pdf_bytes(["Invoice for jane@example.com", "Total 12"]))
    assert kind == "pdf" and "jane@example.com" in text and "Total 12" in text


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.txt", b"", "is empty"),
        ("blank.txt", b"  \n\t ", "contains no text"),
        ("binary.txt", b"\x00\x01\x02abc", "binary"),
        ("latin1.txt", "café".encode("latin-1"), "not valid UTF-8"),
        ("photo.png", b"\x89PNG\r\n", "not a supported file type"),
        ("broken.docx", b"PK not really a zip", "not a readable .docx"),
        ("broken.pdf", b"%PDF-1.4 garbage", "PDF"),
    ],
)
def test_it_refuses_bad_uploads_with_a_reason(name, data, reason):
    with pytest.raises(DocumentError, match=reason):
        extract_text(name, data)


def test_it_refuses_oversized_files(settings):
    settings.MAX_DOCUMENT_BYTES = 100
    with pytest.raises(DocumentError, match="the limit is 100 bytes"):
        extract_text("big.txt", b"a" * 101)


def test_it_refuses_pdfs_over_the_page_limit(settings):
    settings.MAX_PDF_PAGES = 0
    with pytest.raises(DocumentError, match="the limit is 0"):
        extract_text("a.pdf", pdf_bytes(["x"]))
