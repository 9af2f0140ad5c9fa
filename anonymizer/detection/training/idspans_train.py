"""Train the identifier span classifier (`anonymizer.detection.idspans`) and ship its weights.

    python -m anonymizer.detection.training.idspans_train            # rebuild the shipped model

Training documents: `bench.corpus` (seed 7; the dev corpus uses 42), the NER's synthetic
training generator (`synth`, seed 1), tables whose identifier columns are known only by their
header (`table_documents`), documents of non-PII look-alikes (versions, times, amounts,
code names: `distractor_documents`) and the hand-written training documents in
`bench/train_hand/` (weighted up: the only text not written by a template). Half the examples
are repeated without the words before them, since the generators put a keyword before
nearly every identifier and the rules already find those. No development or frozen set is
read for training. The per-category probability thresholds are
then chosen on `dev-hand-hard` + `dev-hand-wild` (allowed for tuning), over the candidates
the rest of the default detector leaves uncovered.

Why scikit-learn's LogisticRegression: a maintained, deterministic multinomial model over
sparse hashed features that trains in minutes on two cores; its weights are a small matrix
that numpy applies at run time.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from anonymizer.detection.idspans import (
    HASH_BITS,
    MODEL_DIR,
    NONE,
    Coverage,
    IdSpanModel,
    candidate_spans,
    document_counts,
    feature_index,
    span_features,
)
from anonymizer.detection.training import run_with_fixed_hash_seed

CORPUS_SEED = 7
SYNTH_SEED = 1
DISTRACTOR_SEED = 3
TABLE_SEED = 5
HAND_WEIGHT = 4.0
DROPOUT_SHARE = 0.5
NONE_WEIGHT = 3.0  # run-time candidates are mostly not PII; generated text is dense with it
_KEYWORD_PREFIXES = ("w-", "key=")
MIN_IOU = 0.5
PRUNE = 0.005  # a weight this small moves no decision (thresholds are chosen after pruning)
UNTUNED_THRESHOLD = 0.9  # a category the tuning documents never showed it
MIN_THRESHOLD = 0.4
FP_COST = 3.0  # a threshold must find at least three spans for each false one it adds


def _iou(a: tuple[int, int], b: tuple[int, int]) -> float:
    inter = min(a[1], b[1]) - max(a[0], b[0])
    if inter <= 0:
        return 0.0
    return inter / (max(a[1], b[1]) - min(a[0], b[0]))


def candidate_labels(
    doc: dict[str, Any], covered: Sequence[tuple[int, int]] = ()
) -> list[tuple[int, int, str | None]]:
    """Every candidate of a document that no `covered` span overlaps (as at run time, where
    the rules' detections are taken out first), with its gold label: the category of a gold
    span it matches at IoU >= 0.5, `none` where it touches no gold span, None (left out of
    training) where it only cuts one."""
    spans = sorted((s["start"], s["end"], s["label"]) for s in doc["spans"])
    out = []
    for c in candidate_spans(doc["text"], Coverage(covered)):
        best, label, touched = 0.0, None, False
        for s, e, lab in spans:
            if s >= c.end:
                break
            if e <= c.start:
                continue
            touched = True
            iou = _iou((c.start, c.end), (s, e))
            if iou > best:
                best, label = iou, lab
        if best >= MIN_IOU:
            out.append((c.start, c.end, label))
        else:
            out.append((c.start, c.end, None if touched else NONE))
    return out


def examples(
    docs: Iterable[dict[str, Any]], weight: float, rng: random.Random
) -> tuple[list[list[str]], list[str], list[float]]:
    """Feature lists, labels and sample weights of every labelled candidate, and for a share
    of them a copy without the words before them: the generators write a keyword before
    almost every identifier, and the rules already find those; what is left at run time is
    the identifier without its keyword."""
    feats, labels, weights = [], [], []
    for doc in docs:
        counts = document_counts(doc["text"])
        for start, end, label in candidate_labels(doc):
            if label is None:
                continue
            f = span_features(doc["text"], start, end, counts)
            w = weight * (NONE_WEIGHT if label == NONE else 1.0)
            feats.append(f)
            labels.append(label)
            weights.append(w)
            if rng.random() < DROPOUT_SHARE:
                feats.append([x for x in f if not x.startswith(_KEYWORD_PREFIXES)])
                labels.append(label)
                weights.append(w)
    return feats, labels, weights


def hashed_matrix(feature_lists: Sequence[Sequence[str]]) -> Any:
    """A sparse 0/1 matrix (one row per candidate) over the hashed feature columns."""
    from scipy.sparse import csr_matrix

    indptr, indices = [0], []
    for feats in feature_lists:
        indices.extend(sorted({feature_index(f) for f in feats}))
        indptr.append(len(indices))
    data = np.ones(len(indices), dtype=np.float32)
    return csr_matrix((data, indices, indptr), shape=(len(feature_lists), 1 << HASH_BITS))


_DISTRACTOR_FRAMES = (
    "Updated {tool} to {version} last week, see the changelog.",
    "Released {version} on the {n}th, {n} fixes.",
    "build {version} ({hex}) on {compound}",
    "The {word} meeting starts at {time} in room {n}.",
    "Total: {amount} ({n} items, {percent} off)",
    "Dose: {n} mg twice daily, weight {decimal} kg, {n} cm.",
    "{compound} was {word} from {year} to {year}.",
    "{title}, {year}–{year}",
    "We need {n} more {word}s by {time}, about {amount}.",
    "Step {n}: run `{snake}` with --{compound} {n}",
    "  {snake}: {n}\n  {snake}: {word}",
    "| {word} | {n} | {amount} | {percent} |",
    "Page {n} of {n}, line {n}, section {n}.{n}",
    "{n} x {word} @ {amount} = {amount}",
    "score {n}-{n} after {n} minutes, {n} {word}s",
    "It was a {compound} {word}, {n} out of {n}.",
    "Train {n} leaves at {time}, platform {n}, coach {n}.",
    "ERROR {compound}: {word} failed after {n} retries ({decimal}s)",
    "{year}: {word} {compound}, {n} people, {percent}",
    "Open {hours} daily except {word}; closes at {time}.",
)


def _distractor(rng: random.Random, words: list[str], key: str) -> str:
    n = rng.randint
    makers = {
        "tool": lambda: rng.choice(["node", "python", "nginx", "postgres", "the app", "iOS"]),
        "version": lambda: rng.choice(
            [
                f"v{n(0, 9)}.{n(0, 30)}.{n(0, 20)}",
                f"{n(1, 20)}.{n(0, 9)}",
                f"{n(1, 9)}.{n(0, 20)}.{n(0, 9)}-rc{n(1, 5)}",
                f"{n(1, 4)}.{n(0, 9)}.{n(0, 99)}-beta",
            ]
        ),
        "hex": lambda: "".join(rng.choices("0123456789abcdef", k=rng.choice([7, 8, 12]))),
        "n": lambda: str(rng.choice([n(1, 12), n(1, 60), n(1, 500), n(1, 9999)])),
        "time": lambda: rng.choice(
            [
                f"{n(0, 23)}:{n(0, 59):02d}",
                f"{n(1, 12)}{rng.choice(['am', 'pm'])}",
                f"{n(7, 11)}:{n(0, 5)}0–{n(12, 23)}:{n(0, 5)}0",
            ]
        ),
        "amount": lambda: rng.choice(
            [
                f"€{n(1, 999)}.{n(0, 99):02d}",
                f"${n(1, 99)},{n(0, 999):03d}.00",
                f"{n(1, 999)},{n(0, 99):02d} €",
                f"£{n(1, 500)}",
            ]
        ),
        "percent": lambda: f"{n(1, 99)}%",
        "decimal": lambda: f"{n(0, 99)}.{n(0, 9)}",
        "year": lambda: str(n(1950, 2026)),
        "hours": lambda: f"{n(6, 10)}–{n(16, 22)}",
        "word": lambda: rng.choice(words),
        "title": lambda: " ".join(w.capitalize() for w in rng.sample(words, 2)),
        "compound": lambda: "-".join(rng.sample(words, rng.choice([2, 2, 3]))),
        "snake": lambda: "_".join(rng.sample(words, 2)) + rng.choice(["", "", str(n(1, 9))]),
    }
    return makers[key]()


def distractor_documents(n: int, seed: int) -> list[dict[str, Any]]:
    """Documents with no PII, made of what identifier shapes are confused with: versions,
    hashes, times, amounts, measures, years, counts, code names and compounds of common
    words (wordfreq's most frequent English words)."""
    from wordfreq import top_n_list

    from anonymizer.detection.names import is_known_name

    rng = random.Random(seed)
    words = [
        w for w in top_n_list("en", 3000) if w.isalpha() and len(w) > 2 and not is_known_name(w)
    ]
    docs = []
    for i in range(n):
        lines = []
        for frame in rng.sample(_DISTRACTOR_FRAMES, 6):
            lines.append(re.sub(r"\{(\w+)\}", lambda m: _distractor(rng, words, m.group(1)), frame))
        docs.append({"id": f"distractor-{i}", "text": "\n".join(lines), "spans": []})
    return docs


# Tables and lists whose identifier columns carry only a header, never a keyword per value.
_ID_HEADERS = {
    "internal id": [
        "ID",
        "No.",
        "Member no.",
        "Staff no",
        "Emp ID",
        "Badge",
        "Client",
        "Acct",
        "User ID",
        "Customer",
        "Employee #",
        "Nr.",
        "Code",
        "Serial",
        "Asset",
        "Card",
    ],
    "reference id": [
        "Ref",
        "Case",
        "Ticket",
        "Order",
        "Invoice",
        "Claim",
        "Booking",
        "Incident",
        "Rx",
        "File",
        "Docket",
        "Tracking",
        "Conf.",
    ],
    "handle": ["User", "Username", "Login", "Handle", "Account", "Owner", "Author", "Assignee"],
    "age": ["Age", "Age (yrs)", "Yrs", "Alter", "Edad", "Âge"],
    "license plate": ["Reg", "Plate", "Vehicle reg", "Registration", "Kennzeichen"],
}
_PLAIN_HEADERS = {
    "qty": ["Qty", "Units", "Count", "Items", "Pcs"],
    "amount": ["Amount", "Total", "Price", "Fee", "Balance"],
    "year": ["Year", "Since", "Joined", "Season"],
    "hours": ["Hours", "Hrs", "Mins", "Score", "Points", "Rank", "Page", "Room", "Floor"],
}


def _id_value(rng: random.Random, kind: str, name: str) -> str:
    n = rng.randint
    up = "ABCDEFGHJKLMNPRSTUVWXYZ"
    prefix = "".join(rng.choices(up, k=rng.randint(1, 3)))
    first, _, last = name.lower().partition(" ")
    last = re.sub(r"[^a-z]", "", last) or "x"
    first = re.sub(r"[^a-z]", "", first) or "y"
    makers = {
        "internal id": lambda: rng.choice(
            [
                f"{n(0, 999999):06d}",
                f"{prefix}-{n(0, 99999):05d}",
                f"{n(10000, 99999999)}",
                f"{prefix}{n(100, 99999)}",
                f"{prefix.lower()}_{n(1000, 9999999)}",
                f"#{n(100, 9999):04d}",
            ]
        ),
        "reference id": lambda: rng.choice(
            [
                f"{prefix}-{n(2019, 2026)}-{n(1, 9999):04d}",
                f"{n(1000000, 99999999)}",
                f"{prefix}{n(100000, 9999999)}",
                f"{prefix}/{n(1, 99)}/{n(100, 99999)}",
                "".join(rng.choices(up + "0123456789", k=6)),
            ]
        ),
        "handle": lambda: rng.choice(
            [
                f"{first[0]}{last}",
                f"{first}.{last}",
                f"{first}_{last[:1]}",
                f"{first}{n(1, 99)}",
                f"{first}-{last}",
                f"@{first}{last[:3]}",
            ]
        ),
        "age": lambda: (
            str(n(1, 99))
            if rng.random() < 0.85
            else rng.choice(["seven", "nineteen", "forty-two", "sixty"])
        ),
        "license plate": lambda: rng.choice(
            [
                f"{rng.choice(up)}{rng.choice(up)}{n(10, 99)} {''.join(rng.choices(up, k=3))}",
                f"{''.join(rng.choices(up, k=2))} {n(10, 99)} {''.join(rng.choices(up, k=2))}",
                f"{''.join(rng.choices(up, k=3))}-{n(10, 99)}{rng.choice(up)}",
                f"{rng.choice(up)}-{''.join(rng.choices(up, k=2))} {n(100, 9999)}",
            ]
        ),
        "qty": lambda: str(n(1, 40)),
        "amount": lambda: rng.choice(
            [f"{n(1, 999)}.{n(0, 99):02d}", f"€{n(5, 900)}", f"{n(1, 9)},{n(0, 999):03d}"]
        ),
        "year": lambda: str(n(1990, 2025)),
        "hours": lambda: str(n(1, 60)),
    }
    return makers[kind]()


class _Table:
    """A table's text and gold spans, written cell by cell."""

    def __init__(self, style: str, widths: list[int]) -> None:
        self.style, self.widths = style, widths
        self.parts: list[str] = []
        self.spans: list[dict[str, Any]] = []
        self.length = 0

    def put(self, value: str, label: str | None) -> None:
        if label:
            self.spans.append(
                {"start": self.length, "end": self.length + len(value), "label": label}
            )
        self.parts.append(value)
        self.length += len(value)

    def row(self, cells: list[tuple[str, str | None]]) -> None:
        for j, (value, label) in enumerate(cells):
            if self.style == "pipes":
                self.put("| " if j == 0 else " | ", None)
            elif j:
                pad = max(1, self.widths[j - 1] - len(cells[j - 1][0]))
                self.put("\t" if self.style == "tabs" else " " * pad, None)
            self.put(value, label)
        self.put(" |\n" if self.style == "pipes" else "\n", None)


_NAME_HEADERS = ["Name", "Member", "Employee", "Patient", "Driver"]


def table_documents(n: int, seed: int) -> list[dict[str, Any]]:
    """Tables (space-aligned, piped or tab-separated) with a name column (Faker, several
    locales), one or two identifier columns known only by their header, and plain number
    columns (quantities, amounts, years, counts)."""
    from faker import Faker

    rng = random.Random(seed)
    fakers = [Faker(loc) for loc in ("en_GB", "en_US", "de_DE", "fr_FR", "es_ES", "it_IT", "pl_PL")]
    for i, fake in enumerate(fakers):
        fake.seed_instance(seed * 100 + i)
    docs = []
    for i in range(n):
        id_kinds = rng.sample(list(_ID_HEADERS), rng.choice([1, 2]))
        plain = rng.sample(list(_PLAIN_HEADERS), rng.choice([0, 1, 2]))
        columns = [(k, rng.choice(_ID_HEADERS[k]), True) for k in id_kinds]
        columns += [(k, rng.choice(_PLAIN_HEADERS[k]), False) for k in plain]
        rng.shuffle(columns)
        columns.insert(rng.randint(0, len(columns)), ("name", rng.choice(_NAME_HEADERS), False))
        style = rng.choice(["spaces", "pipes", "tabs"])
        table = _Table(style, [max(len(h), 12) + 2 for _, h, _ in columns])
        titles = ["", "Roster\n\n", "Export " + str(rng.randint(1, 99)) + "\n\n"]
        table.put(rng.choice(titles), None)
        table.row([(h, None) for _, h, _ in columns])
        if style == "pipes":
            table.row([("---", None) for _ in columns])
        for _ in range(rng.randint(2, 7)):
            fake = rng.choice(fakers)
            name = f"{fake.first_name()} {fake.last_name()}"
            cells: list[tuple[str, str | None]] = []
            for kind, _, is_id in columns:
                if kind == "name":
                    cells.append((name, "full person name"))
                else:
                    cells.append((_id_value(rng, kind, name), kind if is_id else None))
            table.row(cells)
        docs.append({"id": f"table-{i}", "text": "".join(table.parts), "spans": table.spans})
    return docs


def training_documents(
    n_corpus: int, n_synth: int, n_distractor: int, n_tables: int
) -> tuple[list[dict], list[dict]]:
    """Generated documents and the hand-written training documents (whatever has landed)."""
    from anonymizer.detection.training.handwritten import hand_files, load_hand_docs
    from anonymizer.detection.training.synth import generate
    from bench.corpus import generate_corpus

    generated = (
        generate_corpus(n_corpus, CORPUS_SEED)
        + generate(n_synth, SYNTH_SEED)
        + distractor_documents(n_distractor, DISTRACTOR_SEED)
        + table_documents(n_tables, TABLE_SEED)
    )
    return generated, load_hand_docs(hand_files())


def fit(
    feature_lists: list[list[str]], labels: list[str], weights: list[float], c: float
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Multinomial logistic regression; returns the labels, the used columns (sorted), their
    coefficients (columns × labels) and the intercepts."""
    from sklearn.linear_model import LogisticRegression

    matrix = hashed_matrix(feature_lists)
    model = LogisticRegression(C=c, max_iter=300, tol=1e-4)
    model.fit(matrix, labels, sample_weight=np.asarray(weights))
    used = np.unique(matrix.indices)
    coef, intercept = model.coef_, model.intercept_
    if len(model.classes_) == 2:  # sklearn keeps one row for two classes: logits (0, w·x + b)
        coef, intercept = np.vstack([np.zeros_like(coef), coef]), np.r_[0.0, intercept]
    return [str(x) for x in model.classes_], used.astype(np.int64), coef[:, used].T, intercept


def save(
    directory: Path,
    labels: list[str],
    columns: np.ndarray,
    coef: np.ndarray,
    intercept: np.ndarray,
    thresholds: dict[str, float],
    info: dict[str, Any],
) -> None:
    """Write weights.npz (float16 coefficients; columns whose every weight is below PRUNE are
    left out) and meta.json."""
    directory.mkdir(parents=True, exist_ok=True)
    keep = np.abs(coef).max(axis=1) >= PRUNE
    columns, coef = columns[keep], coef[keep]
    np.savez_compressed(
        directory / "weights.npz",
        columns=columns,
        coef=coef.astype(np.float16),
        intercept=intercept.astype(np.float32),
    )
    meta = {
        "hash_bits": HASH_BITS,
        "labels": labels,
        "thresholds": thresholds,
        "default_threshold": UNTUNED_THRESHOLD,
        **info,
    }
    (directory / "meta.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")


def choose_thresholds(
    model: IdSpanModel, tuning_docs: Sequence[dict[str, Any]]
) -> tuple[dict[str, float], dict[str, dict[str, int]]]:
    """Per category, the threshold on P(PII) (>= MIN_THRESHOLD) that maximises
    found - FP_COST × false spans among the candidates the rest of the default detector
    leaves uncovered in the tuning documents; 1.0 (never) where no threshold gains. Also
    returns what each chosen threshold finds there (found / false)."""
    from anonymizer.detection.combined import CombinedDetector

    detector = CombinedDetector(idspans=False)
    scored: dict[str, list[tuple[float, bool]]] = {}
    for doc in tuning_docs:
        text = doc["text"]
        taken = [(d.start, d.end) for d in detector.detect(text)]
        gold = [(s["start"], s["end"]) for s in doc["spans"]]
        cands = candidate_spans(text, Coverage(taken))
        if not cands:
            continue
        counts = document_counts(text)
        probs = model.probabilities([span_features(text, c.start, c.end, counts) for c in cands])
        for c, row in zip(cands, probs, strict=True):
            label, score = model.decide(row)
            hit = any(_iou((c.start, c.end), g) >= MIN_IOU for g in gold)
            scored.setdefault(label, []).append((score, hit))
    thresholds, found = {}, {}
    for label, points in sorted(scored.items()):
        best_t, best_gain, best_counts = 1.0, 0.0, (0, 0)
        for t in sorted({p for p, _ in points if p >= MIN_THRESHOLD}):
            tp = sum(hit for p, hit in points if p >= t)
            fp = sum(not hit for p, hit in points if p >= t)
            if tp - FP_COST * fp > best_gain:
                best_t, best_gain, best_counts = t, tp - FP_COST * fp, (tp, fp)
        thresholds[label] = round(best_t, 4)
        found[label] = {"found": best_counts[0], "false": best_counts[1]}
    return thresholds, found


def main(argv: list[str] | None = None) -> int:
    run_with_fixed_hash_seed("anonymizer.detection.training.idspans_train", argv)
    parser = argparse.ArgumentParser(prog="python -m anonymizer.detection.training.idspans_train")
    parser.add_argument("--n-corpus", type=int, default=5000)
    parser.add_argument("--n-synth", type=int, default=500)
    parser.add_argument("--n-distractor", type=int, default=1500)
    parser.add_argument("--n-tables", type=int, default=800)
    parser.add_argument("--hand-weight", type=float, default=HAND_WEIGHT)
    parser.add_argument("--c", type=float, default=0.1, help="inverse L2 strength")
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    args = parser.parse_args(argv)
    began = time.time()
    generated, hand = training_documents(
        args.n_corpus, args.n_synth, args.n_distractor, args.n_tables
    )
    rng = random.Random(0)
    feats, labels, weights = examples(generated, 1.0, rng)
    f2, l2, w2 = examples(hand, args.hand_weight, rng)
    feats, labels, weights = feats + f2, labels + l2, weights + w2
    print(f"{len(generated)} generated + {len(hand)} hand-written documents, {len(feats)} examples")
    print(Counter(labels).most_common())
    classes, columns, coef, intercept = fit(feats, labels, weights, args.c)
    info = {
        "documents": {
            "corpus": args.n_corpus,
            "synth": args.n_synth,
            "distractor": args.n_distractor,
            "tables": args.n_tables,
            "hand": len(hand),
        },
        "examples": len(feats),
        "c": args.c,
        "hand_weight": args.hand_weight,
    }
    save(args.out, classes, columns, coef, intercept, {}, info)
    from bench.dev_sets import HANDWRITTEN_HARD, HANDWRITTEN_WILD, handwritten_dev

    tuning = handwritten_dev(HANDWRITTEN_HARD) + handwritten_dev(HANDWRITTEN_WILD)
    thresholds, info["tuning"] = choose_thresholds(IdSpanModel(args.out), tuning)
    info["train_seconds"] = round(time.time() - began)
    save(args.out, classes, columns, coef, intercept, thresholds, info)
    size = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"thresholds {thresholds}")
    kept = len(IdSpanModel(args.out).columns)
    print(f"saved {args.out} ({size} bytes, {kept} columns) in {info['train_seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
