"""The hard hand-written dev set (`dev-hand-hard`) is well-formed, complete and leak-free."""

from __future__ import annotations

import re

from anonymizer.detection.categories import CATEGORIES
from bench import detection_bench
from bench.dev_hard import build
from bench.dev_hard.checks import unmarked_occurrences
from bench.dev_sets import CODES, HANDWRITTEN_HARD, handwritten_dev

RAW = HANDWRITTEN_HARD.read_text(encoding="utf-8")
DOCS = handwritten_dev(HANDWRITTEN_HARD)
MARK = re.compile(r"\[\[(?!\[)(.+?)\|([A-Z]+)\]\]", re.DOTALL)
# (document id, case-folded gold string) pairs allowed to occur unmarked; none are needed.
ALLOWED_COLLISIONS: frozenset[tuple[str, str]] = frozenset()


def _surfaces_in_file_order() -> list[str]:
    return [m.group(1) for m in MARK.finditer(RAW)]


def _unmarked_gold_strings(doc: dict) -> list[str]:
    """Word-bounded, case-insensitive repeats of a gold string outside every gold span."""
    text, spans = doc["text"], doc["spans"]
    found = []
    for surface in {text[s["start"] : s["end"]] for s in spans}:
        if (doc["id"], surface.casefold()) in ALLOWED_COLLISIONS:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(surface)}(?!\w)", re.IGNORECASE)
        for m in pattern.finditer(text):
            if not any(s["start"] <= m.start() and m.end() <= s["end"] for s in spans):
                found.append(f"{doc['id']}: {surface!r} at {m.start()}")
    return found


def test_the_set_has_40_documents_and_at_least_450_gold_spans():
    assert len(DOCS) == 40
    assert len({d["id"] for d in DOCS}) == 40
    assert sum(len(d["spans"]) for d in DOCS) >= 450


def test_every_code_in_the_file_maps_to_a_detector_category():
    codes = {m.group(2) for m in MARK.finditer(RAW)}
    assert codes <= set(CODES)
    assert {CODES[c] for c in codes} <= set(CATEGORIES)


def test_every_span_is_non_empty_disjoint_and_equals_its_marked_surface():
    surfaces = iter(_surfaces_in_file_order())
    for doc in DOCS:
        previous_end = 0
        for span in doc["spans"]:
            surface = doc["text"][span["start"] : span["end"]]
            assert surface == next(surfaces), (doc["id"], span)
            assert surface.strip() == surface != "", (doc["id"], span)
            assert span["start"] >= previous_end, (doc["id"], span)
            previous_end = span["end"]
    assert next(surfaces, None) is None


def test_no_gold_string_occurs_unmarked_in_its_document():
    assert [problem for doc in DOCS for problem in _unmarked_gold_strings(doc)] == []


def test_the_unmarked_check_finds_a_repeated_name_left_unmarked():
    doc = {"id": "t", "text": "Ola rang. ola will call back.", "spans": []}
    doc["spans"] = [{"start": 0, "end": 3, "label": "full person name", "text": "Ola"}]
    assert _unmarked_gold_strings(doc) == ["t: 'Ola' at 10"]
    assert len(unmarked_occurrences(doc)) == 1
    assert unmarked_occurrences(doc, allowed=[("t", "ola")]) == []


def test_the_file_is_exactly_what_the_builder_makes_from_the_sources():
    docs = build.build_all()
    assert build.problems(docs) == []
    assert build.serialise(docs) == RAW
    assert build.round_trip_problems(docs, RAW) == []


def test_the_benchmark_knows_the_set():
    assert "dev-hand-hard" in detection_bench.SETS
    docs, source = detection_bench.load_set("dev-hand-hard", 0)
    assert source == "bench/dev/handwritten_hard.txt"
    assert [d["id"] for d in docs] == [d["id"] for d in DOCS]
