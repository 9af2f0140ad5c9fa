"""Structural checks shared by the builders and the test of the hard dev sets."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from anonymizer.detection.categories import CATEGORIES, placeholder_for
from anonymizer.metrics import leaked_surfaces


def redact_gold(doc: Mapping[str, Any]) -> str:
    """The document with every gold span replaced by its category placeholder."""
    text = doc["text"]
    pieces: list[str] = []
    cursor = 0
    for span in sorted(doc["spans"], key=lambda s: s["start"]):
        pieces.append(text[cursor : span["start"]])
        pieces.append(placeholder_for(span["label"]))
        cursor = span["end"]
    pieces.append(text[cursor:])
    return "".join(pieces)


def leak_report(doc: Mapping[str, Any]) -> list[str]:
    """Gold strings still present after gold redaction, each with where it reappears."""
    redacted = redact_gold(doc)
    folded = redacted.casefold()
    report = []
    for surface in sorted({s["text"] for s in doc["spans"]}):
        if leaked_surfaces(redacted, [surface]):
            at = folded.find(surface.casefold())
            context = redacted[max(0, at - 30) : at + len(surface) + 30].replace("\n", " ")
            report.append(f"{surface!r} reappears in ...{context}...")
    return report


def unmarked_occurrences(
    doc: Mapping[str, Any], allowed: Iterable[tuple[str, str]] = ()
) -> list[str]:
    """Word-bounded, case-insensitive occurrences of a gold string outside every gold span.

    `allowed` lists (document id, folded surface) pairs whose collision is accepted.
    """
    text, spans = doc["text"], doc["spans"]
    exempt = {surface for doc_id, surface in allowed if doc_id == doc["id"]}
    found = []
    for surface in sorted({s["text"] for s in spans}):
        if surface.casefold() in exempt:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(surface)}(?!\w)", re.IGNORECASE)
        for m in pattern.finditer(text):
            if not any(s["start"] <= m.start() and m.end() <= s["end"] for s in spans):
                context = text[max(0, m.start() - 30) : m.end() + 30].replace("\n", " ")
                found.append(f"{surface!r} unmarked at {m.start()}: ...{context}...")
    return found


def _placement_problem(text: str, item: Mapping[str, Any], where: str) -> str | None:
    """Why a span or negative does not sit on its own text in `text`, or None."""
    if not 0 <= item["start"] < item["end"] <= len(text):
        return f"{where} out of range"
    if text[item["start"] : item["end"]] != item["text"]:
        return f"{where} text mismatch"
    return None


def span_problems(doc: Mapping[str, Any]) -> list[str]:
    """Malformed, unknown-label or overlapping spans and negatives, as messages."""
    text = doc["text"]
    problems = []
    previous_end = 0
    for span in doc["spans"]:
        where = f"{doc['id']} span {span.get('start')}:{span.get('end')}"
        if placement := _placement_problem(text, span, where):
            problems.append(placement)
            continue
        if span["text"] != span["text"].strip():
            problems.append(f"{where} has outer white space")
        if span["label"] not in CATEGORIES:
            problems.append(f"{where} unknown label {span['label']!r}")
        if span["start"] < previous_end:
            problems.append(f"{where} overlaps or is out of order")
        previous_end = span["end"]
    gold = [(s["start"], s["end"]) for s in doc["spans"]]
    for neg in doc["negatives"]:
        where = f"{doc['id']} negative {neg.get('start')}:{neg.get('end')}"
        if placement := _placement_problem(text, neg, where):
            problems.append(placement)
            continue
        if not neg.get("note"):
            problems.append(f"{where} has no note")
        if any(s < neg["end"] and neg["start"] < e for s, e in gold):
            problems.append(f"{where} overlaps a gold span")
    return problems
