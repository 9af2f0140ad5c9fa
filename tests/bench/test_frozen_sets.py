"""The frozen evaluation sets stay frozen, well-formed, reproducible and loadable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anonymizer.detection.categories import CATEGORIES, placeholder_for
from anonymizer.metrics import leaked_surfaces
from bench.frozen import freeze, generate, handwritten
from bench.frozen.markup import parse_markup
from bench.loaders import load_corpus
from bench.third_party import presidio_faker

FROZEN = Path(freeze.__file__).resolve().parent
MANIFEST = json.loads((FROZEN / "MANIFEST.json").read_text(encoding="utf-8"))
SETS = ["handwritten.jsonl", "independent.jsonl", "presidio_faker.jsonl"]
# The studyable half of the third-party generator's sentences, held to the same format.
DEV_PRESIDIO = presidio_faker.OUTPUTS["dev"]


def _docs(name: str | Path) -> list[dict]:
    lines = (FROZEN / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


@pytest.mark.parametrize("name", SETS)
def test_data_files_match_the_manifest_hashes(name):
    assert freeze.sha256(FROZEN / name) == MANIFEST[name]["sha256"]


@pytest.mark.parametrize("name", [*SETS, DEV_PRESIDIO])
def test_every_span_is_non_empty_known_and_disjoint(name):
    docs = _docs(name)
    assert len({d["id"] for d in docs}) == len(docs)
    for doc in docs:
        text = doc["text"]
        previous_end = 0
        for span in doc["spans"]:
            surface = text[span["start"] : span["end"]]
            assert surface.strip() and surface == surface.strip() == span["text"], (doc["id"], span)
            assert span["label"] in CATEGORIES, (doc["id"], span)
            assert span["start"] >= previous_end, f"{doc['id']}: overlapping spans at {span}"
            previous_end = span["end"]
        for negative in doc["negatives"]:
            assert text[negative["start"] : negative["end"]] == negative["text"]
            assert not any(
                s["start"] < negative["end"] and negative["start"] < s["end"] for s in doc["spans"]
            ), (doc["id"], negative)


@pytest.mark.parametrize("name", [*SETS, DEV_PRESIDIO])
def test_redacting_exactly_the_gold_spans_leaks_nothing(name):
    """Every occurrence of a gold string is itself gold, so the leak metric can reach 0."""
    for doc in _docs(name):
        pieces, last = [], 0
        for span in doc["spans"]:
            pieces += [doc["text"][last : span["start"]], placeholder_for(span["label"])]
            last = span["end"]
        redacted = "".join(pieces) + doc["text"][last:]
        assert leaked_surfaces(redacted, [s["text"] for s in doc["spans"]]) == [], doc["id"]


def test_handwritten_jsonl_is_built_from_its_marked_up_sources():
    rebuilt = handwritten.render_jsonl(handwritten.build_documents())
    assert (FROZEN / "handwritten.jsonl").read_text(encoding="utf-8") == rebuilt


def test_generator_with_the_recorded_seed_reproduces_the_independent_set_byte_for_byte():
    recorded = MANIFEST["independent.jsonl"]
    assert recorded["built_by"] == generate.COMMAND
    docs = generate.generate(recorded["seed"], recorded["n"])
    assert handwritten.render_jsonl(docs).encode() == (FROZEN / "independent.jsonl").read_bytes()


def test_the_presidio_sets_come_from_disjoint_halves_of_the_generator_s_templates():
    """The frozen sentences' templates were never studied: no dev sentence shares one."""
    assert MANIFEST["presidio_faker.jsonl"]["generator"] == presidio_faker.GENERATOR
    assert presidio_faker.template_half("My name is {{name}}") in ("dev", "frozen")
    halves = {presidio_faker.template_half(t) for t in ("a", "b", "c", "d", "e", "f", "g")}
    assert halves == {"dev", "frozen"}
    frozen_texts = {d["text"] for d in _docs("presidio_faker.jsonl")}
    assert not frozen_texts & {d["text"] for d in _docs(DEV_PRESIDIO)}


@pytest.mark.parametrize("split", ["dev", "frozen"])
def test_the_third_party_generator_reproduces_its_sets_byte_for_byte(split):
    """Needs presidio-evaluator (not a project dependency): see bench/third_party/presidio_faker."""
    pytest.importorskip("presidio_evaluator", reason="presidio-evaluator is not installed")
    documents, _ = presidio_faker.build(split)
    assert presidio_faker.render(documents) == presidio_faker.OUTPUTS[split].read_text("utf-8")


@pytest.mark.parametrize("name", SETS)
def test_bench_loaders_reads_both_sets_with_their_labels(name):
    raw = _docs(name)
    loaded = load_corpus(FROZEN / name)
    assert [d["id"] for d in loaded] == [d["id"] for d in raw]
    for got, want in zip(loaded, raw, strict=True):
        assert [(s["start"], s["end"], s["label"]) for s in got["spans"]] == [
            (s["start"], s["end"], s["label"]) for s in want["spans"]
        ]


@pytest.mark.parametrize(
    "source",
    ["[[Jane|no such label]]", "[[Jane|name]", "call {{Desk: now", "[[ Jane|name]]"],
)
def test_malformed_markup_is_rejected(source):
    with pytest.raises(ValueError):
        parse_markup(source)


def test_markup_offsets_point_at_the_marked_text():
    text, spans, negatives = parse_markup("Hi [[Ana|name]], {{ZIP:|label}} [[1016 GV|zip]].")
    assert text == "Hi Ana, ZIP: 1016 GV."
    assert [(text[s["start"] : s["end"]], s["label"]) for s in spans] == [
        ("Ana", "full person name"),
        ("1016 GV", "postal code"),
    ]
    assert [text[n["start"] : n["end"]] for n in negatives] == ["ZIP:"]
