"""The benchmark corpus is well formed, and the combined detector leaks less than Presidio."""

from __future__ import annotations

import json
import time
from collections import Counter

from anonymizer.detection.categories import PLACEHOLDERS
from anonymizer.mechanisms.redact import RedactMechanism
from anonymizer.metrics import leak_counts
from anonymizer.settings import Settings
from anonymizer.types import Detection
from bench.corpus import generate_corpus, main
from bench.detection_bench import redact


def test_corpus_spans_align_with_the_text_and_use_our_categories() -> None:
    docs = generate_corpus(120, seed=5)
    for doc in docs:
        previous_end = 0
        for span in doc["spans"]:
            surface = doc["text"][span["start"] : span["end"]]
            assert surface and surface == surface.strip()
            assert span["start"] >= previous_end  # ordered, no overlaps
            previous_end = span["end"]
            assert span["label"] in PLACEHOLDERS


def test_corpus_is_reproducible_and_seed_dependent() -> None:
    assert generate_corpus(30, seed=1) == generate_corpus(30, seed=1)
    assert generate_corpus(30, seed=1) != generate_corpus(30, seed=2)


def test_corpus_of_600_documents_is_fast_and_varied() -> None:
    start = time.perf_counter()
    docs = generate_corpus(600, seed=0)
    assert time.perf_counter() - start < 20
    assert len(docs) == 600
    assert len(Counter(d["genre"] for d in docs)) >= 8
    labels = Counter(s["label"] for d in docs for s in d["spans"])
    assert len(labels) >= 25
    texts = " ".join(d["text"] for d in docs)
    assert any("\u4e00" <= c <= "\u9fff" for c in texts)  # CJK
    assert any("\u0400" <= c <= "\u04ff" for c in texts)  # Cyrillic
    assert any(c in "áéíóúäöüøåçñłś" for c in texts)  # diacritics
    names = [
        d["text"][s["start"] : s["end"]]
        for d in docs
        for s in d["spans"]
        if s["label"] == "full person name"
    ]
    assert any(n.islower() for n in names) and any(n.isupper() for n in names)
    assert len(set(d["text"][:60] for d in docs)) > 500  # no template dominates


def test_corpus_cli_writes_jsonl(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "corpus.jsonl"
    assert main(["--n", "5", "--seed", "3", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 5 and all({"text", "spans"} <= set(r) for r in rows)


def test_leak_counts_gold_strings_still_present_case_insensitively() -> None:
    text = "Jane Doe, jane@x.com"
    email = Detection(10, 20, "email address", "[EMAIL]", "test")
    assert redact(text, [email]) == "Jane Doe, [EMAIL]"
    assert leak_counts(["JANE DOE, [EMAIL]"], [["Jane Doe", "jane@x.com"]]) == (1, 2)


def leaked_spans(doc: dict, output: str) -> list[bool]:
    lowered = output.lower()
    return [doc["text"][s["start"] : s["end"]].lower() in lowered for s in doc["spans"]]


def test_combined_detector_leaks_fewer_gold_pii_strings_than_presidio_alone() -> None:
    from presidio_anonymizer import AnonymizerEngine

    from anonymizer.detection.presidio import analyzer_engine

    docs = generate_corpus(40, seed=11)
    analyzer, anonymizer = analyzer_engine(), AnonymizerEngine()
    redact, settings = RedactMechanism(), Settings(mechanism="redact", detector="combined")
    leaked = Counter()
    for doc in docs:
        ours = redact.rewrite(doc["text"], settings).output
        theirs = anonymizer.anonymize(
            text=doc["text"], analyzer_results=analyzer.analyze(text=doc["text"], language="en")
        ).text
        leaked["combined"] += sum(leaked_spans(doc, ours))
        leaked["presidio"] += sum(leaked_spans(doc, theirs))
    total = sum(len(d["spans"]) for d in docs)
    assert leaked["combined"] < leaked["presidio"]
    assert leaked["combined"] / total < 0.10
