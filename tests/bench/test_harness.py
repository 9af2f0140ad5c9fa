"""A smoke run of the evaluation harness on five documents with stand-in mechanisms."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from anonymizer import registry
from anonymizer.mechanisms.redact import RedactMechanism
from anonymizer.registry import MechanismInfo
from anonymizer.types import RewriteResult
from bench.__main__ import main
from bench.evaluate import Config, run, spans_to_detections
from bench.loaders import write_jsonl

DOCS = [
    (
        "Contact Jane Doe at jane.doe@example.com or call 415-555-0188 about the merger.",
        [
            ("Jane Doe", "full person name"),
            ("jane.doe@example.com", "email address"),
            ("415-555-0188", "phone number"),
        ],
    ),
    (
        "Patient Maria Garcia, age 42, was seen on Friday. Her SSN is 123-45-6789.",
        [("Maria Garcia", "full person name"), ("123-45-6789", "ssn")],
    ),
    (
        "Please wire the funds to IBAN GB82WEST12345698765432 before Monday.",
        [("GB82WEST12345698765432", "iban")],
    ),
    (
        "The server at 192.168.10.4 was accessed from Paris last night.",
        [("192.168.10.4", "ip address"), ("Paris", "location")],
    ),
    ("Nothing personal is written in this short note about the weather.", []),
]


def _doc(text, entities):  # type: ignore[no-untyped-def]
    spans = []
    for surface, label in entities:
        start = text.index(surface)
        spans.append({"start": start, "end": start + len(surface), "label": label})
    return {"text": text, "spans": spans}


@pytest.fixture
def corpus_file(tmp_path):  # type: ignore[no-untyped-def]
    return write_jsonl([_doc(t, e) for t, e in DOCS], tmp_path / "corpus.jsonl")


class EchoAtInfinity(RedactMechanism):
    """Test mechanism: redacts at finite ε, releases the input unchanged at ε = ∞."""

    name = "bench-test-echo"

    def rewrite(self, text, settings, progress=None):  # type: ignore[no-untyped-def]
        result = super().rewrite(text, settings, progress)
        receipt = replace(
            result.receipt,
            mechanism=self.name,
            notion="test",
            epsilon_total=settings.epsilon,
            composition=settings.composition,
        )
        output = text if settings.epsilon == float("inf") else result.output
        return RewriteResult(text, output, result.spans, receipt)


@pytest.fixture
def test_mechanisms(monkeypatch):  # type: ignore[no-untyped-def]
    registry.list_mechanisms()  # load the built-ins first
    monkeypatch.setitem(
        registry._REGISTRY,
        "bench-test-echo",
        MechanismInfo(
            name="bench-test-echo",
            title="echo",
            guarantee="none",
            description="test only",
            parameters=("epsilon", "composition", "detector"),
            factory=EchoAtInfinity,
            uses_epsilon=True,
        ),
    )
    monkeypatch.setitem(
        registry._REGISTRY,
        "bench-test-missing",
        MechanismInfo(
            name="bench-test-missing",
            title="missing",
            guarantee="none",
            description="test only",
            parameters=("epsilon",),
            factory=EchoAtInfinity,
            uses_epsilon=True,
            check_available=lambda: "weights not installed here",
        ),
    )
    registry.get_mechanism.cache_clear()
    yield
    registry.get_mechanism.cache_clear()


def test_the_harness_writes_json_markdown_and_plots(corpus_file, tmp_path, test_mechanisms):
    out = tmp_path / "results"
    code = main(
        [
            "--corpus",
            str(corpus_file),
            "--n",
            "5",
            "--detectors",
            "regex,gold",
            "--mechanisms",
            "bench-test-echo,bench-test-missing",
            "--eps",
            "1,16,inf",
            "--compositions",
            "basic,zcdp",
            "--mechanism-detector",
            "regex",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    data = json.loads((out / "evaluation.json").read_text())
    rows = {(r["name"], r["epsilon"]): r for r in data["rows"]}

    assert rows[("identity (no anonymization)", None)]["leak"] == 1.0
    gold = rows[("redact (gold)", None)]
    assert gold["leak"] == 0.0 and gold["f2"] == 1.0
    regex = rows[("redact (regex)", None)]
    assert 0.0 <= regex["leak"] < 1.0 and regex["per_category"]["email address"]["recall"] == 1.0
    engines = [r for r in data["rows"] if r["kind"] == "baseline"]
    assert engines and engines[0]["n"] == 5  # Presidio's own engines ran on the same documents

    # every finite ε for each composition, and ε = ∞ once
    cells = [(r["composition"], r["epsilon"]) for r in data["rows"] if r["kind"] == "mechanism"]
    assert cells == [("basic", 1.0), ("basic", 16.0), ("zcdp", 1.0), ("zcdp", 16.0), (None, "inf")]
    assert rows[("bench-test-echo (no noise)", "inf")]["leak"] == 1.0
    assert rows[("bench-test-echo (basic)", 16.0)]["leak"] == regex["leak"]

    skipped = {s["name"]: s["reason"] for s in data["skipped"]}
    assert skipped["bench-test-missing"] == "weights not installed here"
    assert data["corpus"]["documents"] == 5 and data["timings"]["total_seconds"] > 0

    markdown = (out / "evaluation.md").read_text()
    assert "| redact (regex) | 5 |" in markdown
    assert "### bench-test-echo" in markdown and "weights not installed here" in markdown
    for name in ("eps_vs_semsim.png", "eps_vs_leak.png"):
        assert (out / name).read_bytes().startswith(b"\x89PNG")


def test_a_run_without_mechanism_rows_writes_no_plots(corpus_file, tmp_path):
    config = Config(
        n_detectors=2,
        n_mechanisms=2,
        corpus=corpus_file,
        detectors=("regex",),
        presidio_baseline=False,
        out=tmp_path,
    )
    state = run(config, parts=("detectors",))
    assert [r.name for r in state.rows] == ["identity (no anonymization)", "redact (regex)"]
    assert (tmp_path / "evaluation.md").exists()
    assert not (tmp_path / "eps_vs_leak.png").exists()


def test_an_unknown_detector_is_skipped_with_its_reason(corpus_file, tmp_path):
    config = Config(
        n_detectors=2,
        corpus=corpus_file,
        detectors=("no-such-detector",),
        presidio_baseline=False,
        out=tmp_path,
        plots=False,
    )
    state = run(config, parts=("detectors",))
    assert state.skipped[0].name == "redact (no-such-detector)"
    assert "no-such-detector" in state.skipped[0].reason


def test_the_corpus_command_saves_jsonl(corpus_file, tmp_path):
    assert main(["corpus", "--corpus", str(corpus_file), "--out", str(tmp_path)]) == 0
    lines = (tmp_path / "corpus.jsonl").read_text().splitlines()
    assert len(lines) == 5 and json.loads(lines[0])["spans"][0]["label"] == "full person name"


def test_predicted_spans_come_from_output_pieces():
    from anonymizer.types import Span

    spans = [
        Span("Hi ", False),
        Span("Jane", True, "full person name", "[PERSON]"),
        Span("!", False),
    ]
    assert spans_to_detections(spans, "Hi Jane!") == [(3, 7, "full person name")]
    assert spans_to_detections(spans, "something else") is None


def test_sweeps_are_compared_with_references_on_the_same_documents(
    corpus_file, tmp_path, test_mechanisms
):
    config = Config(
        n_detectors=5,
        n_mechanisms=3,
        corpus=corpus_file,
        detectors=("regex",),
        mechanisms=("bench-test-echo",),
        epsilons=(4.0,),
        compositions=("basic",),
        mechanism_detector="regex",
        presidio_baseline=False,
        out=tmp_path,
    )
    state = run(config)
    [subset] = [r for r in state.rows if r.kind == "subset"]
    assert subset.name == "redact (regex)" and subset.n == 3
    [mechanism] = [r for r in state.rows if r.kind == "mechanism"]
    assert mechanism.n == 3 and mechanism.leak == subset.leak  # same redaction, same documents
    assert (
        "References on the mechanisms' documents (n = 3)"
        in (tmp_path / "evaluation.md").read_text()
    )
