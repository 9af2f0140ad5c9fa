"""Evaluation sets for detector development, kept apart from the frozen sets.

- `training_sample`: documents of the NER model's own training corpus (the seed it was
  trained on), to show how much better the detector does on what it was fitted to;
- `synthetic_heldout`: the training generator with a seed it was never trained or tuned on;
- `corpus_dev`: `bench.corpus`, a different generator (other templates and genres) the old
  rules were written against and the model never saw;
- `handwritten_dev`: `bench/dev/handwritten.txt`, short documents written by hand for
  development (chats, letters, CVs, tickets, logs, court text, invoices, address blocks,
  forms), with gold spans marked inline as `[[surface|LABEL]]`; misses on it were studied
  and fixed, so its figures are optimistic;
- `handwritten_blind`: `bench/dev/handwritten_blind.txt`, written after the last change to
  rules, combiner and model, and scored without changing anything afterwards;
- `handwritten_hard` (set `dev-hand-hard`): `bench/dev/handwritten_hard.txt`, built by
  `bench.dev_hard.build` from `bench/dev_hard/src/`, 40 longer documents in genres the other
  sets lack, annotated by the guideline in `bench/frozen/README.md` without reading the rules.
- `handwritten_wild` / `handwritten_wild_blind` (sets `dev-hand-wild`, `dev-hand-wild-blind`):
  `bench/dev/handwritten_wild*.txt`, built by `bench.dev_hard.build` from
  `bench/dev_wild/src/{wild,blind}/`, written from scratch by an annotator who never read the
  detector or the frozen data; error analysis is allowed on the first, the second is
  aggregate-only.
- `handwritten_fresh` (set `dev-hand-fresh`): `bench/dev/handwritten_fresh.txt`, built from
  `bench/dev_fresh/src/`, written last by an annotator who read neither the detector nor any
  other data; aggregate-only and never used to choose between changes (measured once, at the end).

The frozen sets (`bench/frozen/`) are read only by `bench.detection_bench`, for aggregate
figures; nothing here opens them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

DEV_DIR = Path(__file__).resolve().parent / "dev"
HANDWRITTEN_DEV = DEV_DIR / "handwritten.txt"
HANDWRITTEN_BLIND = DEV_DIR / "handwritten_blind.txt"
HANDWRITTEN_HARD = DEV_DIR / "handwritten_hard.txt"
HANDWRITTEN_WILD = DEV_DIR / "handwritten_wild.txt"
HANDWRITTEN_WILD_BLIND = DEV_DIR / "handwritten_wild_blind.txt"
HANDWRITTEN_FRESH = DEV_DIR / "handwritten_fresh.txt"
HANDWRITTEN_FRESH2 = DEV_DIR / "handwritten_fresh2.txt"
HANDWRITTEN_OPEN = DEV_DIR / "handwritten_open.txt"
HANDWRITTEN_OPEN2 = DEV_DIR / "handwritten_open2.txt"
HANDWRITTEN_OPEN3 = DEV_DIR / "handwritten_open3.txt"
HANDWRITTEN_OPEN4 = DEV_DIR / "handwritten_open4.txt"
HANDWRITTEN_OPEN5 = DEV_DIR / "handwritten_open5.txt"
HANDWRITTEN_OPEN6 = DEV_DIR / "handwritten_open6.txt"
TRAINING_SEED = 1  # the seed `python -m anonymizer.detection.training train` uses by default
HELDOUT_SEED = 2024
CORPUS_SEED = 42

CODES: dict[str, str] = {
    "PER": "full person name",
    "ORG": "organization",
    "LOC": "location",
    "ADDR": "street address",
    "ZIP": "postal code",
    "NRP": "nationality or group",
    "EMAIL": "email address",
    "PHONE": "phone number",
    "AGE": "age",
    "DOB": "date of birth",
    "DATE": "date",
    "IP": "ip address",
    "MAC": "mac address",
    "URL": "url",
    "IBAN": "iban",
    "BIC": "swift/bic",
    "CARD": "card number",
    "SSN": "ssn",
    "NID": "national id",
    "PASS": "passport number",
    "DL": "driver's license",
    "PLATE": "license plate",
    "MRN": "medical record number",
    "MEDLIC": "medical license",
    "ROUTING": "routing number",
    "ACCT": "bank account number",
    "IID": "internal id",
    "REF": "reference id",
    "HANDLE": "handle",
    "SECRET": "secret",
}
_MARK = re.compile(r"\[\[(?!\[)(.+?)\|([A-Z]+)\]\]", re.DOTALL)
_HEADER = re.compile(r"^=== (\S+) (\S+)\n", re.MULTILINE)


def parse_marked(body: str) -> tuple[str, list[dict[str, Any]]]:
    """Plain text and gold spans from text with `[[surface|CODE]]` marks."""
    parts: list[str] = []
    spans: list[dict[str, Any]] = []
    length = 0
    last = 0
    for m in _MARK.finditer(body):
        plain = body[last : m.start()]
        parts.append(plain)
        length += len(plain)
        surface, code = m.group(1), m.group(2)
        spans.append({"start": length, "end": length + len(surface), "label": CODES[code]})
        parts.append(surface)
        length += len(surface)
        last = m.end()
    parts.append(body[last:])
    return "".join(parts), spans


def handwritten_dev(path: Path = HANDWRITTEN_DEV) -> list[dict[str, Any]]:
    """The hand-written development documents."""
    raw = path.read_text(encoding="utf-8")
    heads = list(_HEADER.finditer(raw))
    docs = []
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(raw)
        text, spans = parse_marked(raw[head.end() : end].rstrip("\n"))
        docs.append({"id": head.group(1), "genre": head.group(2), "text": text, "spans": spans})
    return docs


def training_sample(n: int) -> list[dict[str, Any]]:
    from anonymizer.detection.training.synth import generate

    return generate(n, TRAINING_SEED)


def synthetic_heldout(n: int) -> list[dict[str, Any]]:
    from anonymizer.detection.training.synth import generate

    return generate(n, HELDOUT_SEED)


def corpus_dev(n: int) -> list[dict[str, Any]]:
    from bench.corpus import generate_corpus

    return generate_corpus(n, CORPUS_SEED)


LONG_DOCS = 16


def long_dev(n: int = LONG_DOCS) -> list[dict[str, Any]]:
    """`n` long documents of 10-60 kB, each dev-corpus and dev-hand / dev-hand-hard documents
    joined end to end (gold spans shifted): the long-document case for speed."""
    hand = handwritten_dev() + handwritten_dev(HANDWRITTEN_HARD)
    corpus = corpus_dev(400)
    cycled = hand * (len(corpus) // len(hand) + 1)
    pool = [doc for pair in zip(corpus, cycled[: len(corpus)], strict=True) for doc in pair]
    docs, taken = [], 0
    for k in range(n):
        target = 10_000 + (k * 7919) % 50_000
        parts: list[str] = []
        spans: list[dict[str, Any]] = []
        length = 0
        while length < target:
            doc = pool[taken % len(pool)]
            taken += 1
            if parts:
                parts.append("\n\n")
                length += 2
            spans += [
                {**s, "start": s["start"] + length, "end": s["end"] + length} for s in doc["spans"]
            ]
            parts.append(doc["text"])
            length += len(doc["text"])
        docs.append({"id": f"long-{k}", "genre": "joined", "text": "".join(parts), "spans": spans})
    return docs
