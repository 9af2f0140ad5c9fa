"""bench.ner_tokenizer_cache: both detectors timed on the same documents, and any difference
in what they find stops the comparison."""

from __future__ import annotations

from typing import Any

import pytest

from anonymizer.detection import learned
from anonymizer.detection.regex import RegexDetector
from bench import ner_tokenizer_cache

TEXTS = [
    "Dear Anna Kowalski,\nyour parcel left Łódź on 3 May.\nCall 0161 496 0018 if it is late.",
    "kev said paddy's mum moved to ballymount\n\nGBR-RP-7731 was on the form",
]

_PIPELINES: dict[bool, Any] = {}


@pytest.fixture(autouse=True)
def one_pipeline_per_variant(monkeypatch: Any) -> None:
    """Build each variant's pipeline once for the module (the bench builds three per set)."""
    build = learned._build_pipeline

    def built_once(cache_spans: bool = True) -> Any:
        if cache_spans not in _PIPELINES:
            _PIPELINES[cache_spans] = build(cache_spans=cache_spans)
        return _PIPELINES[cache_spans]

    monkeypatch.setattr(learned, "_build_pipeline", built_once)


def test_it_times_both_variants_in_every_round_and_finds_them_identical() -> None:
    result = ner_tokenizer_cache.compare_set("tiny", TEXTS, rounds=2, rules=RegexDetector())
    assert result["docs"] == 2
    assert result["detections"] > 0
    for times in (result["seconds"], result["tokenizer"]):
        assert {v: len(t) for v, t in times.items()} == {"untouched": 2, "cached": 2}


def test_it_stops_when_the_variants_find_different_things(monkeypatch: Any) -> None:
    real = ner_tokenizer_cache.combined

    def dropping_the_last_find_when_cached(cached: bool, rules: Any) -> Any:
        detector = real(cached, rules)
        if cached:
            detect_many = detector.detect_many

            def lossy(texts: list[str]) -> list[list[Any]]:
                found = detect_many(texts)
                return [doc[:-1] for doc in found]  # every document loses one detection

            detector.detect_many = lossy
        return detector

    monkeypatch.setattr(ner_tokenizer_cache, "combined", dropping_the_last_find_when_cached)
    with pytest.raises(AssertionError, match="documents differ"):
        ner_tokenizer_cache.compare_set("tiny", TEXTS, rounds=2, rules=RegexDetector())
