"""The wild hand-written dev sets (`dev-hand-wild`, `dev-hand-wild-blind`), the fresh ones
(`dev-hand-fresh`, `dev-hand-fresh2`) and the open ones (`dev-hand-open`, `-open2`, `-open3`)
are well-formed, complete, leak-free and exactly what the builder makes from their sources."""

from __future__ import annotations

import re

import pytest

from anonymizer.detection.categories import CATEGORIES
from bench import detection_bench
from bench.dev_hard import build
from bench.dev_hard.checks import leak_report, span_problems, unmarked_occurrences
from bench.dev_sets import CODES, handwritten_dev

MARK = re.compile(r"\[\[(?!\[)(.+?)\|([A-Z]+)\]\]", re.DOTALL)
# set name -> (fewest documents, fewest gold spans) the set must keep
SIZES = {
    "dev-hand-wild": (33, 1000),
    "dev-hand-wild-blind": (27, 750),
    "dev-hand-fresh": (30, 900),
    "dev-hand-fresh2": (69, 2300),
    "dev-hand-open": (48, 2150),
    "dev-hand-open2": (48, 2100),
    "dev-hand-open3": (48, 2250),
}
WILD_SETS = sorted(SIZES)


def _read(name: str) -> tuple[str, list[dict]]:
    output = build.BUILDS[name].output
    return output.read_text(encoding="utf-8"), handwritten_dev(output)


@pytest.mark.parametrize("name", WILD_SETS)
def test_the_file_is_exactly_what_the_builder_makes_from_the_sources(name):
    raw, _ = _read(name)
    docs = build.build_set(name)
    assert build.problems(docs) == []
    assert build.serialise(docs) == raw
    assert build.round_trip_problems(docs, raw) == []


@pytest.mark.parametrize("name", WILD_SETS)
def test_the_set_keeps_its_size_and_unique_ids(name):
    _, docs = _read(name)
    fewest_docs, fewest_spans = SIZES[name]
    assert len(docs) >= fewest_docs
    assert len({d["id"] for d in docs}) == len(docs)
    assert all(d["id"].startswith(build.BUILDS[name].prefix + "-") for d in docs)
    assert sum(len(d["spans"]) for d in docs) >= fewest_spans


@pytest.mark.parametrize("name", WILD_SETS)
def test_every_code_maps_to_a_detector_category(name):
    raw, _ = _read(name)
    codes = {m.group(2) for m in MARK.finditer(raw)}
    assert codes <= set(CODES)
    assert {CODES[c] for c in codes} <= set(CATEGORIES)


@pytest.mark.parametrize("name", WILD_SETS)
def test_spans_land_on_their_marked_text_in_order_without_overlap(name):
    raw, docs = _read(name)
    surfaces = iter(m.group(1) for m in MARK.finditer(raw))
    for doc in docs:
        spans = [{**s, "text": doc["text"][s["start"] : s["end"]]} for s in doc["spans"]]
        for span in spans:
            assert span["text"] == next(surfaces), (doc["id"], span)
        assert span_problems({**doc, "spans": spans, "negatives": []}) == [], doc["id"]
    assert next(surfaces, None) is None


@pytest.mark.parametrize("name", WILD_SETS)
def test_gold_redaction_leaves_no_gold_string_behind(name):
    for doc in build.build_set(name):
        assert unmarked_occurrences(doc) == [], doc["id"]
        assert leak_report(doc) == [], doc["id"]


def test_the_sets_share_no_document_with_each_other_or_the_older_dev_sets():
    texts = [d["text"] for name in WILD_SETS for d in build.build_set(name)]
    older = {d["text"] for d in build.build_set("dev-hand-hard")} | {
        d["text"] for d in handwritten_dev()
    }
    assert len(set(texts)) == len(texts)
    assert not set(texts) & older


def test_the_checks_catch_an_overlap_a_misplaced_span_and_an_unmarked_repeat():
    text = "Ola Nowak rang. ola will call back."
    name = {"start": 0, "end": 9, "label": "full person name", "text": "Ola Nowak"}
    first = {"start": 0, "end": 3, "label": "full person name", "text": "Ola"}
    doc = {"id": "t", "text": text, "spans": [name, first], "negatives": []}
    assert any("overlaps" in p for p in span_problems(doc))
    shifted = {**first, "start": 1, "end": 4}
    assert any("mismatch" in p for p in span_problems({**doc, "spans": [shifted]}))
    alone = {**doc, "spans": [first]}
    assert len(unmarked_occurrences(alone)) == 1
    assert leak_report(alone) != []


@pytest.mark.parametrize("name", WILD_SETS)
def test_the_benchmark_loads_the_set(name):
    assert name in detection_bench.SETS
    docs, source = detection_bench.load_set(name, 0)
    assert source == f"bench/dev/{build.BUILDS[name].output.name}"
    assert [d["id"] for d in docs] == [d["id"] for d in _read(name)[1]]


class _DetectsNothing:
    """Stands in for the benchmark's systems: no detections, so every gold span is a miss."""

    load_s = 0.0

    def run(self, docs):
        return {"_predictions": [[] for _ in docs]}


def test_the_benchmark_lists_misses_for_the_wild_set_but_never_for_the_blind_one(monkeypatch):
    monkeypatch.setattr(detection_bench, "Systems", _DetectsNothing)
    monkeypatch.setattr(detection_bench, "regex_throughput", lambda texts: {})
    result = detection_bench.run(WILD_SETS, 0, large=False, top_misses=5)
    assert len(result["sets"]["dev-hand-wild"]["top_misses"]) == 5
    assert "top_misses" not in result["sets"]["dev-hand-wild-blind"]
    assert "top_misses" not in result["sets"]["dev-hand-fresh"]
    assert "top_misses" not in result["sets"]["dev-hand-fresh2"]
    assert {"dev-hand-blind", "dev-hand-wild-blind", "dev-hand-fresh", "dev-hand-fresh2"} <= set(
        detection_bench.AGGREGATE_ONLY
    )
