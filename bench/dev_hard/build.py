"""Build the hand-written dev sets from their marked-up sources (`BUILDS`).

    python -m bench.dev_hard.build [--set dev-hand-hard] [--check]

Each source is `NNN_genre.txt` written with `⟦gold|label⟧` and `⟪negative|note⟫` marks
(`bench.dev_hard.markup`); its id is `<prefix>-NNN` and its genre the part after the number: `src/`
→ `bench/dev/handwritten_hard.txt` (ids `hard-NNN`), `bench/dev_wild/src/wild/` →
`handwritten_wild.txt` (`wild-NNN`), `bench/dev_wild/src/blind/` → `handwritten_wild_blind.txt`
(`wildb-NNN`), `bench/dev_fresh/src/` → `handwritten_fresh.txt` (`fresh-NNN`, aggregate-only, never
used to choose between changes), `bench/dev_open/src/` → `handwritten_open.txt` (`open-NNN`,
written in session 12 for error analysis; `dev_open2`, `dev_open3` likewise, `open2-NNN`,
`open3-NNN`); the hand-written *training* sets, one per folder
`bench/train_hand/src/<x>/` → `bench/train_hand/handwritten_train_<x>.txt` (`trn<x>-NNN`), which
only the learned detectors' training reads: no evaluation set, no benchmark. Without `--set` every
set is built (or checked). The output uses the `=== id genre` / `[[surface|CODE]]` format of
`bench/dev/handwritten.txt` and loses the negatives' notes, which stay in the sources. The build
refuses to write a set with a malformed span, a gold string left unmarked elsewhere in its document
(word-bounded), a document that does not read back to the same text and spans through
`handwritten_dev`, and, for evaluation sets only, a gold string still inside the gold-redacted text
(substring, so the substring leak can reach 0; training text may keep "Cal" beside "call").
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.dev_hard.checks import leak_report, span_problems, unmarked_occurrences
from bench.dev_hard.markup import parse
from bench.dev_sets import (
    CODES,
    HANDWRITTEN_FRESH,
    HANDWRITTEN_FRESH2,
    HANDWRITTEN_HARD,
    HANDWRITTEN_OPEN,
    HANDWRITTEN_OPEN2,
    HANDWRITTEN_OPEN3,
    HANDWRITTEN_OPEN4,
    HANDWRITTEN_OPEN5,
    HANDWRITTEN_OPEN6,
    HANDWRITTEN_WILD,
    HANDWRITTEN_WILD_BLIND,
    handwritten_dev,
)

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "src"
WILD_SOURCES = HERE.parent / "dev_wild" / "src"
TRAIN_HAND = HERE.parent / "train_hand"


@dataclass(frozen=True)
class Build:
    """Where one set's sources are, the prefix of its document ids, and its output file."""

    sources: Path
    prefix: str
    output: Path
    # Evaluation sets refuse a gold string found inside another word ("Cal" in "call"): the
    # leak metric matches substrings and would count it leaked whatever the detector did.
    # Training text only needs every word-bounded repeat marked, so it may hold such names.
    substring_leaks_refused: bool = True


BUILDS: dict[str, Build] = {
    "dev-hand-hard": Build(SOURCES, "hard", HANDWRITTEN_HARD),
    "dev-hand-wild": Build(WILD_SOURCES / "wild", "wild", HANDWRITTEN_WILD),
    "dev-hand-wild-blind": Build(WILD_SOURCES / "blind", "wildb", HANDWRITTEN_WILD_BLIND),
    "dev-hand-fresh": Build(HERE.parent / "dev_fresh" / "src", "fresh", HANDWRITTEN_FRESH),
    "dev-hand-fresh2": Build(HERE.parent / "dev_fresh2" / "src", "fresh2", HANDWRITTEN_FRESH2),
    "dev-hand-open": Build(HERE.parent / "dev_open" / "src", "open", HANDWRITTEN_OPEN),
    "dev-hand-open2": Build(HERE.parent / "dev_open2" / "src", "open2", HANDWRITTEN_OPEN2),
    "dev-hand-open3": Build(HERE.parent / "dev_open3" / "src", "open3", HANDWRITTEN_OPEN3),
    "dev-hand-open4": Build(HERE.parent / "dev_open4" / "src", "open4", HANDWRITTEN_OPEN4),
    "dev-hand-open5": Build(HERE.parent / "dev_open5" / "src", "open5", HANDWRITTEN_OPEN5),
    "dev-hand-open6": Build(HERE.parent / "dev_open6" / "src", "open6", HANDWRITTEN_OPEN6),
    **{
        f"train-hand-{part}": Build(
            TRAIN_HAND / "src" / part,
            f"trn{part}",
            TRAIN_HAND / f"handwritten_train_{part}.txt",
            substring_leaks_refused=False,
        )
        for part in sorted(p.name for p in (TRAIN_HAND / "src").iterdir() if p.is_dir())
    },
}
CODE_FOR_CATEGORY = {category: code for code, category in CODES.items()}
FORBIDDEN_IN_TEXT = ("[[", "]]", "\n=== ")


def build_document(path: Path, prefix: str = "hard") -> dict[str, Any]:
    """One record from one source file."""
    number, _, genre = path.stem.partition("_")
    marked = parse(path.read_text(encoding="utf-8").rstrip("\n"))
    return {
        "id": f"{prefix}-{number}",
        "genre": genre,
        "text": marked.text,
        "spans": marked.spans,
        "negatives": marked.negatives,
    }


def build_all(sources: Path = SOURCES, prefix: str = "hard") -> list[dict[str, Any]]:
    """Every source file's record, in file-name order."""
    return [build_document(p, prefix) for p in sorted(sources.glob("*.txt"))]


def build_set(name: str) -> list[dict[str, Any]]:
    """The records of the set `name` (a key of `BUILDS`)."""
    spec = BUILDS[name]
    return build_all(spec.sources, spec.prefix)


def problems(docs: list[dict[str, Any]], substring_leaks_refused: bool = True) -> list[str]:
    """Malformed spans, unmarked gold strings and text the output format cannot carry."""
    found = []
    for doc in docs:
        found += span_problems(doc)
        found += [f"{doc['id']} unmarked: {m}" for m in unmarked_occurrences(doc)]
        if substring_leaks_refused:
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


def build_one(name: str, check: bool) -> int:
    """Write (or with `check` compare) one set's file; 1 when it has problems or differs."""
    output = BUILDS[name].output
    docs = build_set(name)
    found = problems(docs, BUILDS[name].substring_leaks_refused)
    data = serialise(docs) if not found else ""
    found = found or round_trip_problems(docs, data)
    for message in found:
        print(message, file=sys.stderr)
    if found:
        return 1
    if check:
        same = output.exists() and output.read_text(encoding="utf-8") == data
        print(f"{output.name}: " + ("up to date" if same else "differs from its sources"))
        return 0 if same else 1
    output.write_text(data, encoding="utf-8")
    spans = sum(len(d["spans"]) for d in docs)
    print(f"wrote {len(docs)} documents, {spans} gold spans to {output}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--set", choices=sorted(BUILDS), help="one set (default: every set)")
    args = parser.parse_args(argv)
    names = [args.set] if args.set else list(BUILDS)
    return max(build_one(name, args.check) for name in names)


if __name__ == "__main__":
    sys.exit(main())
