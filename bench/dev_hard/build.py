"""Build `bench/dev/handwritten_hard.txt` from the marked-up sources in `src/`.

    python -m bench.dev_hard.build [--check]

Each source is `src/NNN_genre.txt` written with `⟦gold|label⟧` and `⟪negative|note⟫` marks
(`bench.dev_hard.markup`); its id is `hard-NNN` and its genre the part after the number. The
output uses the `=== id genre` / `[[surface|CODE]]` format of `bench/dev/handwritten.txt` and
loses the negatives' notes, which stay in the sources. The build refuses to write a set with
a malformed span, a gold string left unmarked elsewhere in its document (word-bounded), a gold
string still inside the gold-redacted text (substring, so the substring leak can reach 0), or
a document that does not read back to the same text and spans through `handwritten_dev`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.dev_hard.checks import leak_report, span_problems, unmarked_occurrences
from bench.dev_hard.markup import parse
from bench.dev_sets import CODES, HANDWRITTEN_HARD, handwritten_dev

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "src"
CODE_FOR_CATEGORY = {category: code for code, category in CODES.items()}
FORBIDDEN_IN_TEXT = ("[[", "]]", "\n=== ")


def build_document(path: Path) -> dict[str, Any]:
    """One record from one source file."""
    number, _, genre = path.stem.partition("_")
    marked = parse(path.read_text(encoding="utf-8").rstrip("\n"))
    return {
        "id": f"hard-{number}",
        "genre": genre,
        "text": marked.text,
        "spans": marked.spans,
        "negatives": marked.negatives,
    }


def build_all(sources: Path = SOURCES) -> list[dict[str, Any]]:
    """Every source file's record, in file-name order."""
    return [build_document(p) for p in sorted(sources.glob("*.txt"))]


def problems(docs: list[dict[str, Any]]) -> list[str]:
    """Malformed spans, unmarked gold strings and text the output format cannot carry."""
    found = []
    for doc in docs:
        found += span_problems(doc)
        found += [f"{doc['id']} unmarked: {m}" for m in unmarked_occurrences(doc)]
        found += [f"{doc['id']} substring leak: {m}" for m in leak_report(doc)]
        found += [
            f"{doc['id']} has unmapped label {s['label']!r}"
            for s in doc["spans"]
            if s["label"] not in CODE_FOR_CATEGORY
        ]
        found += [
            f"{doc['id']} text contains {bad!r}" for bad in FORBIDDEN_IN_TEXT if bad in doc["text"]
        ]
    return found


def marked_body(doc: dict[str, Any]) -> str:
    """The document's text with each gold span written `[[surface|CODE]]`."""
    text, pieces, cursor = doc["text"], [], 0
    for span in doc["spans"]:
        pieces.append(text[cursor : span["start"]])
        pieces.append(f"[[{span['text']}|{CODE_FOR_CATEGORY[span['label']]}]]")
        cursor = span["end"]
    pieces.append(text[cursor:])
    return "".join(pieces)


def serialise(docs: list[dict[str, Any]]) -> str:
    """The whole set in the `=== id genre` format."""
    return "".join(f"=== {d['id']} {d['genre']}\n{marked_body(d)}\n" for d in docs)


def round_trip_problems(docs: list[dict[str, Any]], data: str) -> list[str]:
    """Documents that `handwritten_dev` would read back differently from `data`."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "set.txt"
        path.write_text(data, encoding="utf-8")
        back = handwritten_dev(path)
    if len(back) != len(docs):
        return [f"{len(docs)} documents written, {len(back)} read back"]
    found = []
    for doc, read in zip(docs, back, strict=True):
        spans = [{k: s[k] for k in ("start", "end", "label")} for s in doc["spans"]]
        if (read["id"], read["genre"], read["text"], read["spans"]) != (
            doc["id"],
            doc["genre"],
            doc["text"],
            spans,
        ):
            found.append(f"{doc['id']} does not read back the same")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    docs = build_all()
    data = serialise(docs) if not problems(docs) else ""
    found = problems(docs) or round_trip_problems(docs, data)
    for message in found:
        print(message, file=sys.stderr)
    if found:
        return 1
    if args.check:
        same = HANDWRITTEN_HARD.exists() and HANDWRITTEN_HARD.read_text(encoding="utf-8") == data
        print(
            "up to date" if same else f"{HANDWRITTEN_HARD.name} differs from src/", file=sys.stderr
        )
        return 0 if same else 1
    HANDWRITTEN_HARD.write_text(data, encoding="utf-8")
    spans = sum(len(d["spans"]) for d in docs)
    print(f"wrote {len(docs)} documents, {spans} gold spans to {HANDWRITTEN_HARD}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
