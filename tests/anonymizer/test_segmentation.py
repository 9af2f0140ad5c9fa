"""Segmentation: K counting, pass-through chunks, and splitting without losing text."""

import pytest

from anonymizer import Settings, plan
from anonymizer.segmentation import count_chunks, heuristic_token_count, segment, split_sentences
from anonymizer.types import Detection


def _det(text, value, category="full person name", placeholder="[PERSON]"):
    start = text.index(value)
    return Detection(start, start + len(value), category, placeholder, "gold")


def test_contact_sentence_has_two_chunks_and_a_pass_through_period():
    text = "Contact Jane Doe at jane@example.com."
    dets = [_det(text, "Jane Doe"), _det(text, "jane@example.com", "email address", "[EMAIL]")]
    pieces = segment(text, dets, redact_pii=True, max_len=32)
    assert [p.text for p in pieces] == ["Contact ", "Jane Doe", " at ", "jane@example.com", "."]
    assert count_chunks(pieces) == 2
    assert pieces[-1].chunk_idx is None


@pytest.mark.parametrize("max_len", [8, 16, 32])
def test_long_text_is_split_under_the_token_limit_without_losing_text(max_len):
    text = " ".join(
        f"Sentence number {i} talks about topic {i % 7}, and then continues." for i in range(200)
    )
    pieces = segment(text, [], redact_pii=True, max_len=max_len)
    assert "".join(p.text for p in pieces) == text
    assert all(heuristic_token_count(p.text) <= max_len for p in pieces if p.chunk_idx is not None)
    assert count_chunks(pieces) > 200 * 12 // max_len // 2


def test_a_word_longer_than_the_limit_is_split_inside_the_word():
    text = "x" * 400
    pieces = segment(text, [], redact_pii=True, max_len=8)
    assert "".join(p.text for p in pieces) == text
    assert count_chunks(pieces) > 1


def test_no_redact_splits_sentences():
    text = "Dr. Smith arrived at 9 a.m. today. He left early! Did he return?"
    parts = split_sentences(text)
    assert "".join(parts) == text and len(parts) == 3
    pieces = segment(text, [], redact_pii=False, max_len=32)
    assert count_chunks(pieces) == 3


def test_plan_reports_k_and_sigma_for_the_seed_example_without_models():
    result = plan(
        "Contact Jane Doe at jane@example.com.", Settings(mechanism="redact", detector="regex")
    )
    assert result.receipt.mechanism == "redact"
