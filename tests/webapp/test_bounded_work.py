"""Work in a web request stays bounded: long texts are not detected in the request, hostile
files are refused from their zip directory or parsed in a limited child process, and the job
page pages its spans."""

from __future__ import annotations

import pytest
from django.urls import reverse

from anonymizer import Settings
from anonymizer.api import plan
from tests.documents import docx_bytes, pdf_bytes
from tests.factories import succeeded_job
from tests.fuzz_corpus import (
    _docx_xml,
    _long_text_docx,
    _pdf_stream_bomb,
    _zip_bomb,
    _zip_many_members,
)
from webapp.jobs.documents import DocumentError, extract_text
from webapp.jobs.planning import plan_bounded, worst_case_receipt
from webapp.ledger import costs

TEXTS_BY_K = [
    "Hello there.",
    "Mail jane@example.com about the merger, then call Bob.",
    "Write to a@example.com, b@example.com, c@example.com and d@example.com about it today.",
    ("Long plain sentence number one about nothing in particular at all. " * 12),
]


@pytest.mark.parametrize("composition", ["basic", "zcdp", "gdp"])
@pytest.mark.parametrize("metric_unit", [None, 0.5])
def test_the_worst_case_reservation_bounds_the_cost_of_every_document(composition, metric_unit):
    settings = Settings(
        mechanism="dp-embed-invert",
        detector="regex",
        epsilon=4,
        composition=composition,
        metric_unit=metric_unit,
    )
    bound = costs.release_cost(worst_case_receipt(settings)).mu_squared
    seen_k = set()
    for text in TEXTS_BY_K:
        receipt = plan(text, settings).receipt
        seen_k.add(receipt.n_chunks)
        assert costs.release_cost(receipt).mu_squared <= bound * (1 + 1e-9), receipt.n_chunks
    assert len(seen_k) >= 3  # the bound was checked against several K


def test_a_broken_bound_would_be_caught():
    """A reservation at K = 3 under basic composition is below the cost of a K = 1 document."""
    settings = Settings(mechanism="dp-embed-invert", detector="regex", epsilon=4)
    three_chunks = plan(TEXTS_BY_K[2], settings).receipt
    one_chunk = plan("Hello there.", settings).receipt
    assert three_chunks.n_chunks >= 2 and one_chunk.n_chunks == 1
    assert costs.release_cost(three_chunks).mu_squared < costs.release_cost(one_chunk).mu_squared


@pytest.mark.django_db
def test_a_long_text_is_not_detected_in_the_request(settings, monkeypatch):
    settings.INLINE_PLAN_MAX_CHARS = 50
    detected = []
    monkeypatch.setattr(
        "anonymizer.detection.regex.RegexDetector.detect",
        lambda self, text: detected.append(len(text)) or [],
    )
    planned = plan_bounded("x " * 100, Settings(mechanism="redact", detector="regex"))
    assert not planned.exact and planned.n_pii is None and detected == []
    planned = plan_bounded("short text", Settings(mechanism="redact", detector="regex"))
    assert planned.exact and detected == [10]


@pytest.mark.django_db
def test_the_preview_of_a_long_text_says_it_shows_the_worst_case(client, alice, settings):
    settings.INLINE_PLAN_MAX_CHARS = 50
    client.force_login(alice)
    response = client.post(
        reverse("submit_preview"),
        {"mechanism": "redact", "detector": "regex", "text": "Mail jane@example.com. " * 10},
    )
    assert response.status_code == 200 and 'id="preview-bound"' in response.content.decode()


@pytest.mark.parametrize(
    "name, data, reason",
    [
        ("bomb.docx", _zip_bomb(), "looks like a zip bomb"),
        ("many.docx", _zip_many_members(), "files; a .docx may hold at most"),
        (
            "nomain.docx",
            docx_bytes(["x"]).replace(b"word/document.xml", b"word/documenz.xml"),
            "not a Word document",
        ),
        ("long.docx", _long_text_docx(), "characters of text"),
        ("deep.docx", _docx_xml(b"<a>" * 100_000 + b"</a>" * 100_000), "not a readable .docx"),
        ("bomb.pdf", _pdf_stream_bomb(), "no extractable text|could not be read|cannot be read"),
        ("junk.pdf", b"%PDF-1.4 junk", "not a readable PDF"),
    ],
)
def test_hostile_files_are_refused_with_a_reason(settings, name, data, reason):
    with pytest.raises(DocumentError, match=reason):
        extract_text(name, data)


def test_a_parser_that_runs_too_long_is_stopped(settings):
    settings.PARSE_TIMEOUT_SECONDS = 0.01
    with pytest.raises(DocumentError, match="took longer than"):
        extract_text("slow.pdf", pdf_bytes(["hello"]))


def test_valid_files_still_read_through_the_child_process():
    assert extract_text("a.docx", docx_bytes(["Hello", "World"])) == ("Hello\nWorld", "docx")
    text, kind = extract_text("a.pdf", pdf_bytes(["Mail jane@example.com"]))
    assert "jane@example.com" in text and kind == "pdf"


def test_utf16_without_a_bom_is_recognised():
    data = "Mail jane@example.com today.".encode("utf-16-le")
    assert extract_text("a.txt", data)[0] == "Mail jane@example.com today."


@pytest.mark.django_db
def test_the_job_page_pages_a_long_output_even_without_newlines(client, alice, settings):
    settings.JOB_PAGE_OUTPUT_CHARS = 100
    job = succeeded_job(alice, " ".join(f"piece {i}" for i in range(1500)) + " jane@example.com")
    client.force_login(alice)
    first = client.get(reverse("job_detail", args=[job.pk])).content.decode()
    shown = first.split('id="output-full"')[0]
    assert "piece 0 " in shown and "piece 1499" not in shown and "page 1 of 3" in first
    assert 'id="output-truncated"' in first
    last = client.get(reverse("job_detail", args=[job.pk]), {"page": "3"}).content.decode()
    assert "piece 1499 " in last.split('id="output-full"')[0] and "[EMAIL]" in last
