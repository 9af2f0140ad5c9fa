"""The detection pipeline: overlap order, allow/deny lists and the whitelist for every detector."""

from __future__ import annotations

import pytest

from anonymizer.detection import apply_lists, detect, detector_names, get_detector
from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.errors import InvalidSettings
from anonymizer.settings import Settings
from anonymizer.types import Detection


def det(start: int, end: int, category: str = "custom", score: float = 0.5) -> Detection:
    return Detection(start, end, category, placeholder_for(category), "test", score)


def test_overlaps_prefer_the_earliest_span() -> None:
    kept = resolve_overlaps([det(5, 20, score=0.9), det(0, 10, score=0.1)])
    assert [(d.start, d.end) for d in kept] == [(0, 10)]


def test_overlaps_prefer_the_longest_span_among_equal_starts() -> None:
    kept = resolve_overlaps([det(0, 5, score=0.99), det(0, 12, score=0.2)])
    assert [(d.start, d.end) for d in kept] == [(0, 12)]


def test_overlaps_prefer_the_most_confident_among_equal_spans() -> None:
    kept = resolve_overlaps([det(0, 5, "location", 0.4), det(0, 5, "full person name", 0.8)])
    assert [d.category for d in kept] == ["full person name"]


def test_overlaps_keep_disjoint_and_adjacent_spans() -> None:
    kept = resolve_overlaps([det(0, 5), det(5, 9), det(12, 15)])
    assert [(d.start, d.end) for d in kept] == [(0, 5), (5, 9), (12, 15)]


TEXT = "Write to jane@example.com or Maria Lopez at +44 20 7946 0958 about Project Falcon."


def surfaces(text: str, detections: list[Detection]) -> set[str]:
    return {text[d.start : d.end] for d in detections}


class FixedDetector:
    """Returns fixed detections, so that list handling is tested apart from any model."""

    name = "fixed"

    def __init__(self, found: list[Detection]) -> None:
        self.found = found

    def detect(self, text: str) -> list[Detection]:
        return list(self.found)


def test_allow_list_drops_detections_inside_an_allowed_string_only() -> None:
    email = TEXT.index("jane@example.com")
    found = [det(email, email + 16, "email address"), det(email, email + 4, "full person name")]
    kept = apply_lists(TEXT, found, allow_list=("JANE@example.com",))
    assert kept == []
    kept = apply_lists(TEXT, found, allow_list=("jane",))
    assert surfaces(TEXT, kept) == {"jane@example.com"}  # the longer span is not allowed


def test_deny_list_matches_whole_words_case_insensitively_and_outranks_the_allow_list() -> None:
    kept = apply_lists(
        TEXT, [], allow_list=("project falcon",), deny_list=("PROJECT FALCON", "ale")
    )
    assert surfaces(TEXT, kept) == {"Project Falcon"}
    assert all(d.category == "custom" and d.placeholder == "[REDACTED]" for d in kept)


def test_whitelist_keeps_whole_categories() -> None:
    phone = TEXT.index("+44")
    found = [det(phone, phone + 16, "phone number"), det(9, 25, "email address")]
    kept = apply_lists(TEXT, found, whitelist_categories=("Phone Number",))
    assert [d.category for d in kept] == ["email address"]


def test_an_allowed_span_does_not_hide_an_overlapping_different_one() -> None:
    start = TEXT.index("Maria")
    found = [
        det(start, start + 5, "full person name", 0.9),
        det(start, start + 11, "location", 0.1),
    ]
    kept = resolve_overlaps(apply_lists(TEXT, found, allow_list=("Maria Lopez",)))
    assert kept == []
    kept = resolve_overlaps(apply_lists(TEXT, found, whitelist_categories=("location",)))
    assert surfaces(TEXT, kept) == {"Maria"}


SETTINGS = {
    "allow_list": ("jane@example.com",),
    "deny_list": ("project falcon",),
    "whitelist_categories": ("phone number",),
}


@pytest.mark.parametrize("detector", ["regex", "presidio", "spacy", "ner", "combined"])
def test_lists_apply_with_every_detector(detector: str) -> None:
    plain = detect(TEXT, Settings(detector=detector))
    listed = detect(TEXT, Settings(detector=detector, **SETTINGS))
    assert "jane@example.com" not in surfaces(TEXT, listed)
    assert "Project Falcon" in surfaces(TEXT, listed)
    assert not any(d.category == "phone number" for d in listed)
    if detector not in ("spacy", "ner"):  # NER models find no e-mails or phones
        assert "jane@example.com" in surfaces(TEXT, plain)
        assert any(d.category == "phone number" for d in plain)


def test_lists_apply_to_gold_spans() -> None:
    start = TEXT.index("Maria")
    gold = [det(start, start + 11, "full person name"), det(9, 25, "email address")]
    found = detect(TEXT, Settings(detector="gold", **SETTINGS), gold=gold)
    assert surfaces(TEXT, found) == {"Maria Lopez", "Project Falcon"}


def test_no_redaction_means_no_detections_at_all() -> None:
    assert detect(TEXT, Settings(detector="regex", redact_pii=False, deny_list=("maria",))) == []


def test_the_none_detector_still_applies_the_deny_list() -> None:
    found = detect(TEXT, Settings(detector="none", deny_list=("maria",)))
    assert surfaces(TEXT, found) == {"Maria"}


def test_registry_knows_the_builtin_detectors_and_builds_each_once() -> None:
    assert {"regex", "presidio", "spacy", "combined"} <= set(detector_names())
    assert get_detector("regex") is get_detector("regex")
    with pytest.raises(InvalidSettings):
        get_detector("nope")
    with pytest.raises(InvalidSettings, match="gold"):
        get_detector("gold")


def test_combined_is_the_default_detector() -> None:
    assert Settings().detector == "combined"


def test_combined_keeps_the_specific_regex_category_on_an_identical_span():
    text = "The patient, a 71 years old retiree, filed EIN 58-1458305 last week."
    found = detect(text, Settings(detector="combined"))
    by_text = {text[d.start : d.end]: d.category for d in found}
    assert by_text["71 years old"] == "age"  # with its unit, as the annotation guideline says
    assert by_text["58-1458305"] == "ein"
