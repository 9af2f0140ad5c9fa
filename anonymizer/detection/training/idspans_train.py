"""Train the identifier span classifier (`anonymizer.detection.idspans`) and ship its weights.

    python -m anonymizer.detection.training.idspans_train            # rebuild the shipped model
    python -m anonymizer.detection.training.idspans_train --retune   # only choose thresholds again

Training documents: `bench.corpus` (seed 7; the dev corpus uses 42), the NER's synthetic
training generator (`synth`, seed 1), tables whose identifier columns are known only by their
header (`table_documents`), configs, logs, JSON records, forms and chats whose values are known
only by their key, label or speaker (`structured_documents`), documents of non-PII look-alikes
(versions, times, amounts, code names: `distractor_documents`) and every hand-written training
document in `bench/train_hand/` (weighted up: the only text not written by a template). Half
the examples are repeated without the words before them (and the cue words and keys read from
them), since the generators put a keyword before nearly every identifier and the rules already
find those. No development or frozen set is read for training. The probability thresholds are
then chosen on `dev-hand-hard` + `dev-hand-wild` (allowed for tuning), over the candidates the
rest of the default detector leaves uncovered: one shared by all categories, and a category's
own only where those two sets hold enough of its candidates (`thresholds_from_points`).

Why scikit-learn's LogisticRegression: a maintained, deterministic multinomial model over
sparse hashed features that trains in minutes on two cores; its weights are a small matrix
that numpy applies at run time.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
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
    document_context,
    feature_index,
    span_features,
)
from anonymizer.detection.training import run_with_fixed_hash_seed

CORPUS_SEED = 7
SYNTH_SEED = 1
DISTRACTOR_SEED = 3
TABLE_SEED = 5
STRUCTURED_SEED = 9
HAND_WEIGHT = 8.0
DROPOUT_SHARE = 0.5
NONE_WEIGHT = 3.0  # run-time candidates are mostly not PII; generated text is dense with it
_KEYWORD_PREFIXES = ("w-", "key=", "cue<=", "cuekey=")
MIN_IOU = 0.5
PRUNE = 0.005  # a weight this small moves no decision (thresholds are chosen after pruning)
UNTUNED_THRESHOLD = 0.9  # a category the tuning documents never showed it
MIN_THRESHOLD = 0.4
FP_COST = 2.0  # a threshold must find at least two spans for each false one it adds
MIN_TUNING_POINTS = 30  # candidates above MIN_THRESHOLD a category needs for its own threshold


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
    speakers = document_context(doc["text"]).speakers
    for c in candidate_spans(doc["text"], Coverage(covered), speakers):
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
        context = document_context(doc["text"])
        for start, end, label in candidate_labels(doc):
            if label is None:
                continue
            f = span_features(doc["text"], start, end, context)
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

    def document(self, doc_id: str) -> dict[str, Any]:
        """The text written so far as a training document."""
        return {"id": doc_id, "text": "".join(self.parts), "spans": self.spans}

    def row(self, cells: list[tuple[str, str | None]]) -> None:
        for j, (value, label) in enumerate(cells):
            if self.style == "pipes":
                self.put("| " if j == 0 else " | ", None)
            elif self.style == "csv":
                self.put("," if j else "", None)
                value = value.replace(",", ".")
            elif j:
                pad = max(1, self.widths[j - 1] - len(cells[j - 1][0]))
                self.put("\t" if self.style == "tabs" else " " * pad, None)
            self.put(value, label)
        self.put(" |\n" if self.style == "pipes" else "\n", None)


_NAME_HEADERS = ["Name", "Member", "Employee", "Patient", "Driver"]


def table_documents(n: int, seed: int) -> list[dict[str, Any]]:
    """Tables (space-aligned, piped, tab- or comma-separated) with a name column (Faker, several
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
        style = rng.choice(["spaces", "pipes", "tabs", "csv"])
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
        docs.append(table.document(f"table-{i}"))
    return docs


# Keys of configs, logs and forms, by what their value is (None: not PII).
_KEYS: dict[str | None, list[str]] = {
    "handle": [
        "user",
        "username",
        "login",
        "owner",
        "author",
        "assignee",
        "actor",
        "uid",
        "cn",
        "admin",
        "created_by",
        "reviewer",
        "benutzer",
        "utilisateur",
        "usuario",
        "nick",
    ],
    "internal id": [
        "tenant_id",
        "account_id",
        "customer_id",
        "emp_id",
        "member",
        "client_id",
        "staff_no",
        "badge",
        "kundennummer",
        "user_id",
        "socio",
        "matricule",
    ],
    "secret": [
        "password",
        "passwd",
        "api_key",
        "token",
        "secret",
        "pin",
        "passcode",
        "wifi_pass",
        "client_secret",
        "passwort",
        "contraseña",
        "mot_de_passe",
    ],
    "age": ["age", "age_years", "alter", "edad", "âge", "leeftijd"],
    None: [
        "port",
        "timeout",
        "retries",
        "version",
        "level",
        "status",
        "count",
        "size",
        "duration_ms",
        "pid",
        "threads",
        "region",
        "env",
        "mode",
        "limit",
        "score",
        "build",
    ],
}


def _structured_value(rng: random.Random, fake: Any, words: list[str], kind: str | None) -> str:
    n = rng.randint
    if kind == "handle":
        first, last = (re.sub(r"\W", "", x.lower()) for x in (fake.first_name(), fake.last_name()))
        return rng.choice(
            [
                fake.user_name(),
                f"{rng.choice(words)}-{rng.choice(words)}",
                f"{rng.choice(words)}{rng.choice(words)}",
                f"{rng.choice(words)}_{n(1, 99)}",
                f"{first}.{last}",
                f"{first[:1]}{last}",
            ]
        )
    if kind == "secret":
        return rng.choice(
            [
                fake.password(length=rng.choice([8, 10, 14])),
                "".join(
                    rng.choices(
                        "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789",
                        k=rng.choice([16, 24, 32]),
                    )
                ),
                f"{n(0, 9999):04d}",
                f"{n(0, 999999):06d}",
                f"{rng.choice(words).capitalize()}{rng.choice(words).capitalize()}{n(1, 99)}",
            ]
        )
    if kind in ("internal id", "age"):
        return _id_value(rng, kind, fake.name())
    return rng.choice(
        [
            str(n(1, 65535)),
            str(n(1, 120)),
            f"{n(0, 9)}.{n(0, 30)}.{n(0, 9)}",
            rng.choice(["true", "false", "ok", "error", "debug", "info", "eu-west-1", "prod"]),
            rng.choice(words),
            f"{n(1, 999)}ms",
        ]
    )


def structured_documents(n: int, seed: int) -> list[dict[str, Any]]:
    """Configs, logs, JSON records, forms and chats whose user names, ids, secrets and ages are
    known only by their key, their form label or their speaker: `user=dfurlong`,
    `"owner": "bally-nights"`, "Username:" on the line above, a speaker named elsewhere in a
    chat. Other keys hold non-PII values of the same shapes (ports, counts, versions)."""
    from faker import Faker
    from wordfreq import top_n_list

    rng = random.Random(seed)
    fakers = [Faker(loc) for loc in ("en_GB", "en_US", "de_DE", "fr_FR", "es_ES", "nl_NL", "pl_PL")]
    for i, fake in enumerate(fakers):
        fake.seed_instance(seed * 100 + i)
    words = [w for w in top_n_list("en", 5000)[200:] if w.isalpha() and 3 <= len(w) <= 8]
    kinds = list(_KEYS)
    docs = []
    for i in range(n):
        fake = rng.choice(fakers)
        table = _Table("spaces", [])
        style = rng.choice(["logfmt", "json", "yaml", "ini", "form", "chat"])
        if style == "chat":
            speakers = [_structured_value(rng, fake, words, "handle") for _ in range(3)]
            speakers = [s.split(".")[0] if rng.random() < 0.3 else s for s in speakers]
            for _ in range(rng.randint(4, 9)):
                hh, mm = rng.randint(0, 23), rng.randint(0, 59)
                table.put(rng.choice([f"[{hh:02d}:{mm:02d}] ", f"{hh}:{mm:02d} - ", ""]), None)
                table.put(rng.choice(speakers), "handle")
                table.put(": " + " ".join(rng.sample(words, rng.randint(2, 6))), None)
                if rng.random() < 0.4:
                    table.put(rng.choice([" ping ", " ask ", " cc @", " thanks "]), None)
                    table.put(rng.choice(speakers), "handle")
                    table.put(f" at {hh}:{mm:02d} for {rng.randint(2, 40)} mins", None)
                table.put("\n", None)
            docs.append(
                {"id": f"structured-{i}", "text": "".join(table.parts), "spans": table.spans}
            )
            continue
        fields = rng.sample(kinds, rng.randint(2, 5))
        for _ in range(rng.randint(1, 4)):
            if style == "logfmt":
                # from the seeded rng, not Faker's date_time(), which draws up to "now"
                stamp = datetime(2020, 1, 1) + timedelta(seconds=rng.randrange(5 * 365 * 86400))
                table.put(f"{stamp.isoformat()} {rng.choice(['INFO', 'WARN'])} ", None)
            elif style == "json":
                table.put("{", None)
            for j, kind in enumerate(fields):
                key = rng.choice(_KEYS[kind])
                value = _structured_value(rng, fake, words, kind)
                before, between, after = {
                    "logfmt": (" " if j else "", "=", ""),
                    "json": (", " if j else "", '": "', '"'),
                    "yaml": ("", ": ", "\n"),
                    "ini": ("", " = ", "\n"),
                    "form": ("", ":\n  ", "\n\n"),
                }[style]
                if style == "json":
                    before += '"'
                    key = key.capitalize() if rng.random() < 0.1 else key
                elif style == "form":
                    key = key.replace("_", " ").capitalize()
                table.put(before + key + between, None)
                table.put(value, kind)
                table.put(after, None)
            table.put("}\n" if style == "json" else "\n", None)
        docs.append(table.document(f"structured-{i}"))
    return docs


def training_documents(
    n_corpus: int, n_synth: int, n_distractor: int, n_tables: int, n_structured: int
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
        + structured_documents(n_structured, STRUCTURED_SEED)
    )
    return generated, load_hand_docs(hand_files())


def fit(
    feature_lists: list[list[str]],
    labels: list[str],
    weights: list[float],
    c: float,
    max_iter: int = 300,
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Multinomial logistic regression; returns the labels, the used columns (sorted), their
    coefficients (columns × labels) and the intercepts."""
    from sklearn.linear_model import LogisticRegression

    matrix = hashed_matrix(feature_lists)
    used = np.unique(matrix.indices)
    model = LogisticRegression(C=c, max_iter=max_iter, tol=1e-4)
    # fitted on the used columns only: an unused column's weight stays 0 under L2 anyway
    model.fit(matrix[:, used], labels, sample_weight=np.asarray(weights))
    coef, intercept = model.coef_, model.intercept_
    if len(model.classes_) == 2:  # sklearn keeps one row for two classes: logits (0, w·x + b)
        coef, intercept = np.vstack([np.zeros_like(coef), coef]), np.r_[0.0, intercept]
    return [str(x) for x in model.classes_], used.astype(np.int64), coef.T, intercept


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


def _tuning_points(
    model: IdSpanModel, tuning_docs: Sequence[dict[str, Any]]
) -> dict[str, list[tuple[float, bool]]]:
    """Per emitted category, (P(PII), hits a gold span) of each candidate that the rest of the
    default detector leaves uncovered in the tuning documents; of overlapping candidates above
    MIN_THRESHOLD only the most probable counts, as at run time."""
    from anonymizer.detection.combined import CombinedDetector

    detector = CombinedDetector(idspans=False)
    scored: dict[str, list[tuple[float, bool]]] = {}
    for doc in tuning_docs:
        text = doc["text"]
        taken = [(d.start, d.end) for d in detector.detect(text)]
        gold = [(s["start"], s["end"]) for s in doc["spans"]]
        context = document_context(text)
        cands = candidate_spans(text, Coverage(taken), context.speakers)
        if not cands:
            continue
        probs = model.probabilities([span_features(text, c.start, c.end, context) for c in cands])
        decided = sorted(
            ((*model.decide(row), c) for c, row in zip(cands, probs, strict=True)),
            key=lambda item: -item[1],
        )
        kept: list[tuple[int, int]] = []
        for label, score, c in decided:
            if score >= MIN_THRESHOLD:
                if any(s < c.end and c.start < e for s, e in kept):
                    continue
                kept.append((c.start, c.end))
            hit = any(_iou((c.start, c.end), g) >= MIN_IOU for g in gold)
            scored.setdefault(label, []).append((score, hit))
    return scored


def _best_threshold(points: Sequence[tuple[float, bool]]) -> tuple[float, int, int]:
    """The threshold (>= MIN_THRESHOLD) maximising found - FP_COST × false, with what it finds
    and adds falsely; 1.0 (never) where no threshold gains."""
    best = (1.0, 0, 0)
    best_gain = 0.0
    for t in sorted({p for p, _ in points if p >= MIN_THRESHOLD}):
        tp = sum(hit for p, hit in points if p >= t)
        fp = sum(not hit for p, hit in points if p >= t)
        if tp - FP_COST * fp > best_gain:
            best, best_gain = (t, tp, fp), tp - FP_COST * fp
    # floored, so that the candidate the threshold was read from still passes it
    return math.floor(best[0] * 10_000) / 10_000, best[1], best[2]


def thresholds_from_points(
    scored: dict[str, list[tuple[float, bool]]], shared: float | None = None
) -> tuple[dict[str, float], dict[str, Any]]:
    """A threshold on P(PII) for every category: one shared by all (found - FP_COST × false
    spans over every category's candidates), and a category's own only where it has at least
    MIN_TUNING_POINTS candidates above MIN_THRESHOLD; a handful of documents is too few to fit
    one category's threshold (one table of age-group codes would switch ages off). Also
    returns what each threshold finds among the points. A given `shared` threshold is taken
    as it is (what it finds is still reported)."""
    every = [p for points in scored.values() for p in points]
    if shared is None:
        shared, tp, fp = _best_threshold(every)
    else:
        tp = sum(hit for p, hit in every if p >= shared)
        fp = sum(not hit for p, hit in every if p >= shared)
    thresholds: dict[str, float] = {}
    found: dict[str, Any] = {"shared": {"threshold": shared, "found": tp, "false": fp}}
    for label, points in sorted(scored.items()):
        enough = sum(p >= MIN_THRESHOLD for p, _ in points) >= MIN_TUNING_POINTS
        threshold = _best_threshold(points)[0] if enough else shared
        thresholds[label] = threshold
        found[label] = {
            "own": enough,
            "found": sum(hit for p, hit in points if p >= threshold),
            "false": sum(not hit for p, hit in points if p >= threshold),
        }
    return thresholds, found


def choose_thresholds(
    model: IdSpanModel, tuning_docs: Sequence[dict[str, Any]], shared: float | None = None
) -> tuple[dict[str, float], dict[str, Any]]:
    """The thresholds (`thresholds_from_points`) for the candidates that the rest of the
    default detector leaves uncovered in the tuning documents."""
    return thresholds_from_points(_tuning_points(model, tuning_docs), shared)


def tuning_documents() -> list[dict[str, Any]]:
    """The documents thresholds are chosen on: `dev-hand-hard` and `dev-hand-wild`."""
    from bench.dev_sets import HANDWRITTEN_HARD, HANDWRITTEN_WILD, handwritten_dev

    return handwritten_dev(HANDWRITTEN_HARD) + handwritten_dev(HANDWRITTEN_WILD)


def retune(directory: Path, shared: float | None = None) -> int:
    """Choose the thresholds of the weights in `directory` again (meta.json rewritten)."""
    meta_path = directory / "meta.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["thresholds"], meta["tuning"] = choose_thresholds(
        IdSpanModel(directory), tuning_documents(), shared
    )
    meta["shared_threshold_given"] = shared
    meta_path.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print(f"thresholds {meta['thresholds']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    run_with_fixed_hash_seed("anonymizer.detection.training.idspans_train", argv)
    parser = argparse.ArgumentParser(prog="python -m anonymizer.detection.training.idspans_train")
    parser.add_argument("--n-corpus", type=int, default=5000)
    parser.add_argument("--n-synth", type=int, default=500)
    parser.add_argument("--n-distractor", type=int, default=1500)
    parser.add_argument("--n-tables", type=int, default=800)
    parser.add_argument("--n-structured", type=int, default=600)
    parser.add_argument("--hand-weight", type=float, default=HAND_WEIGHT)
    parser.add_argument("--c", type=float, default=0.1, help="inverse L2 strength")
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    parser.add_argument(
        "--retune", action="store_true", help="only choose the thresholds of the weights in --out"
    )
    parser.add_argument(
        "--shared-threshold",
        type=float,
        default=None,
        help="take this shared threshold instead of the best of found - FP_COST x false",
    )
    args = parser.parse_args(argv)
    if args.retune:
        return retune(args.out, args.shared_threshold)
    began = time.time()
    generated, hand = training_documents(
        args.n_corpus, args.n_synth, args.n_distractor, args.n_tables, args.n_structured
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
            "structured": args.n_structured,
            "hand": len(hand),
        },
        "examples": len(feats),
        "c": args.c,
        "hand_weight": args.hand_weight,
        "shared_threshold_given": args.shared_threshold,
    }
    save(args.out, classes, columns, coef, intercept, {}, info)
    thresholds, info["tuning"] = choose_thresholds(
        IdSpanModel(args.out), tuning_documents(), args.shared_threshold
    )
    info["train_seconds"] = round(time.time() - began)
    save(args.out, classes, columns, coef, intercept, thresholds, info)
    size = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"thresholds {thresholds}")
    kept = len(IdSpanModel(args.out).columns)
    print(f"saved {args.out} ({size} bytes, {kept} columns) in {info['train_seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
