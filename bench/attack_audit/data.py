"""Attack data: documents from two independent generators, their sanitized spans and the
candidate sets an attacker must pick each original from.

Sources. Training documents (the attacker's auxiliary corpus) come from `bench.corpus`
(Faker, 20 locales) and from the independent generator `bench.frozen.generate` (mimesis,
own templates), each with its own seed, never the seeds of the frozen sets or of the other
benchmarks. Evaluation sets, reported separately: `corpus` (a fresh `bench.corpus` seed),
`independent` (the frozen `bench/frozen/independent.jsonl`) and `handwritten` (the frozen
hand-written set). Nothing is tuned on an evaluation set.

Records. A record is one draw of the mechanism: a distinct string of a category with a public
candidate set in one document (occurrences that differ only in case share a draw, as in the
rewrite). Its secret is the string the rewrite embeds (the first occurrence).

Candidate sets. Each record's candidate set holds its secret and `size − 1` distractors: other
records' secrets of the same category drawn, without repeats, from the other documents of the
same split and source (so the distractors follow the population the secrets come from; the
mechanism's public outputs are not excluded from either side, because excluding them from
the distractors only would make "is a public candidate" a giveaway). By exchangeability the
secret is uniformly placed, so the public prior over a candidate set is uniform.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.gold import category_for_label
from anonymizer.settings import Settings
from anonymizer.token_dp.tokens import find_tokens
from anonymizer.types import Detection

FROZEN = Path(__file__).resolve().parents[1] / "frozen"
TRAIN_SEEDS = {"corpus": 15_001, "independent": 15_002}
EVAL_CORPUS_SEED = 15_003
CANDIDATE_SET_SEED = 15_004
WINDOW = 100  # characters of context on each side of a record's first occurrence


@dataclass(frozen=True)
class Scale:
    """How many documents each part uses, and the mechanisms' candidate-set size."""

    train_corpus: int
    train_independent: int
    eval_corpus: int
    eval_independent: int  # documents of the frozen independent set (max 1000)
    eval_handwritten: int  # documents of the frozen hand-written set (max 77)
    candidates_per_category: int
    candidate_set_size: int = 20


FULL = Scale(700, 900, 300, 1000, 77, 2000)
SMALL = Scale(70, 90, 40, 80, 0, 120, candidate_set_size=10)


@dataclass(frozen=True)
class Record:
    """One draw of the mechanism in one document."""

    doc: int  # index of the document in its split
    category: str
    secret: str
    start: int  # first occurrence
    end: int
    context: str = ""  # the text around the first occurrence, every span a placeholder
    candidates: tuple[str, ...] = ()  # the secret and its distractors, shuffled
    truth: int = -1  # index of the secret in `candidates`

    @property
    def key(self) -> tuple[str, str]:
        return (self.category, self.secret.casefold())


@dataclass
class Split:
    """Documents of one split (train or an evaluation set) and their records."""

    name: str
    texts: list[str]
    golds: list[list[Detection]]
    sources: list[str]
    records: list[Record] = field(default_factory=list)

    def records_by_doc(self) -> dict[int, list[int]]:
        grouped: dict[int, list[int]] = defaultdict(list)
        for i, record in enumerate(self.records):
            grouped[record.doc].append(i)
        return grouped


def gold_detections(spans: list[dict[str, Any]]) -> list[Detection]:
    out = []
    for span in spans:
        category = category_for_label(str(span["label"]))
        out.append(
            Detection(
                int(span["start"]), int(span["end"]), category, placeholder_for(category), "gold"
            )
        )
    return out


def _read_jsonl(path: Path, limit: int) -> list[dict[str, Any]]:
    docs = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip() and len(docs) < limit:
                docs.append(json.loads(line))
    return docs


def raw_documents(scale: Scale) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """(source, document) lists for the training split and each evaluation set."""
    from bench.corpus import generate_corpus
    from bench.frozen.generate import generate

    parts: dict[str, list[tuple[str, dict[str, Any]]]] = {
        "train": [("corpus", d) for d in generate_corpus(scale.train_corpus, TRAIN_SEEDS["corpus"])]
        + [
            ("independent", d)
            for d in generate(TRAIN_SEEDS["independent"], scale.train_independent)
        ],
        "corpus": [("corpus", d) for d in generate_corpus(scale.eval_corpus, EVAL_CORPUS_SEED)],
        "independent": [
            ("independent", d)
            for d in _read_jsonl(FROZEN / "independent.jsonl", scale.eval_independent)
        ],
    }
    if scale.eval_handwritten:
        parts["handwritten"] = [
            ("handwritten", d)
            for d in _read_jsonl(FROZEN / "handwritten.jsonl", scale.eval_handwritten)
        ]
    return parts


def build_split(name: str, documents: list[tuple[str, dict[str, Any]]], size: int) -> Split:
    """A split with its records and candidate sets (independent of any mechanism)."""
    texts = [d["text"] for _, d in documents]
    golds = [gold_detections(d["spans"]) for _, d in documents]
    split = Split(name, texts, golds, [s for s, _ in documents])
    settings = Settings(mechanism="santext", detector="gold")
    for i, (text, gold) in enumerate(zip(texts, golds, strict=True)):
        tokens = find_tokens(text, settings, gold)
        seen: set[tuple[str, str]] = set()
        for token in tokens:
            if token.has_candidates and token.draw_key not in seen:
                seen.add(token.draw_key)
                context = _masked(text, tokens, token.start - WINDOW, token.end + WINDOW)
                split.records.append(
                    Record(i, token.category, token.text, token.start, token.end, context)
                )
    split.records = _with_candidate_sets(split, size)
    return split


def _masked(text: str, tokens: list[Any], start: int, end: int) -> str:
    """text[start:end] with every detected span it touches replaced by its placeholder."""
    start, end = max(0, start), min(len(text), end)
    out, cursor = [], start
    for token in tokens:
        if token.end <= start or token.start >= end:
            continue
        out.append(text[cursor : max(cursor, token.start)])
        out.append(token.placeholder or placeholder_for(token.category))
        cursor = max(cursor, token.end)
    out.append(text[cursor:end])
    return "".join(out)


def _with_candidate_sets(split: Split, size: int) -> list[Record]:
    """Records with `size`-string candidate sets; records whose category has too few other
    strings in the split are dropped (they cannot be audited at this set size)."""
    rng = random.Random(f"{CANDIDATE_SET_SEED}-{split.name}")
    pools: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for record in split.records:
        pools[(split.sources[record.doc], record.category)].append((record.doc, record.secret))
    kept = []
    for record in split.records:
        pool = pools[(split.sources[record.doc], record.category)]
        own = {r.casefold() for d, r in pool if d == record.doc}
        distinct = {s.casefold() for d, s in pool if d != record.doc and s.casefold() not in own}
        if len(distinct) < size - 1:
            continue
        chosen: dict[str, str] = {}
        while len(chosen) < size - 1:
            doc, secret = pool[rng.randrange(len(pool))]
            folded = secret.casefold()
            if doc != record.doc and folded not in own:
                chosen.setdefault(folded, secret)
        candidates = [record.secret, *chosen.values()]
        rng.shuffle(candidates)
        kept.append(
            Record(
                record.doc,
                record.category,
                record.secret,
                record.start,
                record.end,
                record.context,
                tuple(candidates),
                candidates.index(record.secret),
            )
        )
    return kept


def load_splits(scale: Scale) -> dict[str, Split]:
    """The training split and the evaluation sets, with records and candidate sets."""
    return {
        name: build_split(name, documents, scale.candidate_set_size)
        for name, documents in raw_documents(scale).items()
    }
