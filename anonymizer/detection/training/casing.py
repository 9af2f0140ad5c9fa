"""Casing augmentation of hand-written training documents: extra copies in which the lines
that hold a person, organisation or place are written in capitals (registers, forms, shouted
headers: "VICENT PERIS ALANDETE", "DIGI SPAIN TELECOM") or the names are lower-cased (chat:
"will", "paddy", "kev").

The hand-written text is where the model learns what it still misses, but its annotators wrote
names in title case almost everywhere; these copies teach the same contexts without the
capital letter cue. Case changes are made character by character and only where the changed
character is one character long ("ß" stays "ß"), so every gold offset stays exact.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from anonymizer.detection.training.synth import NER_LABELS

CASING_MODES = ("upper-lines", "lower-names")
# The categories whose casing the copies change: the NER's own (people, organisations, places,
# street lines, postcodes, nationalities)
RECASED_LABELS = frozenset(NER_LABELS)
LOWERED_LABELS = frozenset({"full person name", "organization"})


def same_length_case(text: str, change: Callable[[str], str]) -> str:
    """`text` with `change` (str.upper / str.lower) applied to each character whose changed
    form is a single character; others are left as they are, so offsets never move."""
    return "".join(c2 if len(c2 := change(c)) == 1 else c for c in text)


def recased(doc: dict[str, Any], mode: str) -> dict[str, Any]:
    """A copy of `doc` ({id, text, spans}) in casing `mode` (`CASING_MODES`), spans unchanged:
    "upper-lines" capitalises every line that holds a span of `RECASED_LABELS`;
    "lower-names" lower-cases the spans of `LOWERED_LABELS`."""
    text = doc["text"]
    chars = list(text)
    if mode == "upper-lines":
        for s in doc["spans"]:
            if s["label"] not in RECASED_LABELS:
                continue
            lo = text.rfind("\n", 0, s["start"]) + 1
            hi = text.find("\n", s["end"])
            hi = len(text) if hi < 0 else hi
            chars[lo:hi] = same_length_case(text[lo:hi], str.upper)
    elif mode == "lower-names":
        for s in doc["spans"]:
            if s["label"] in LOWERED_LABELS:
                chars[s["start"] : s["end"]] = same_length_case(
                    text[s["start"] : s["end"]], str.lower
                )
    else:
        raise ValueError(f"casing mode must be one of {CASING_MODES}, not {mode!r}")
    return {**doc, "id": f"{doc['id']}~{mode}", "text": "".join(chars)}


def casing_copies(docs: Sequence[dict[str, Any]], share: float, seed: int) -> list[dict[str, Any]]:
    """Recased copies of a seeded `share` of the documents that hold a span the copies would
    change, modes alternating in a seeded order; copies equal to their original are dropped."""
    if not 0 <= share <= 1:
        raise ValueError(f"share must lie in [0, 1], not {share}")
    rng = random.Random(seed)
    eligible = [d for d in docs if any(s["label"] in RECASED_LABELS for s in d["spans"])]
    chosen = rng.sample(eligible, round(share * len(eligible)))
    copies = []
    for n, doc in enumerate(chosen):
        copy = recased(doc, CASING_MODES[n % len(CASING_MODES)])
        if copy["text"] != doc["text"]:
            copies.append(copy)
    return copies
