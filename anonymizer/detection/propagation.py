"""Name propagation: once a word is known to be part of a person's name in a document, every
other whole-word occurrence of it in that document is a name too.

Detectors see names through context ("[10:42] aaron:", "Dr. Ana Müller"); the same name
written elsewhere without context ("it's aaron here", "ana said") would otherwise leak.
Only confident person detections seed it, and only words that are not on the non-name lists,
months, places or particles. A word that is also common in English ("Will", "Grace", "Big")
spreads only to mentions written exactly as the seed, capitalised; a word that is common in
English and nobody's name ("big", "three", "salesperson"; `names.py`) does not spread at all.
User names and ids found once are likewise found at their other exact, whole-token mentions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.names import is_common_non_name
from anonymizer.detection.regex import PARTICLES, word_alternation
from anonymizer.detection.wordlists import COMMON_WORD_NAMES, NON_NAME, NOT_A_NAME, PLACES
from anonymizer.types import Detection

PERSON = "full person name"
MIN_SEED_SCORE = 0.6
PROPAGATED_SCORE = 0.55
MIN_WORD_LENGTH = 3

_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*")
_NEVER = NON_NAME | NOT_A_NAME | PLACES | PARTICLES


def name_words(text: str, detections: Iterable[Detection]) -> tuple[set[str], set[str]]:
    """(rare words, to match in any case; common words, to match exactly as written)."""
    rare: set[str] = set()
    common: set[str] = set()
    for d in detections:
        if d.category != PERSON or d.score < MIN_SEED_SCORE:
            continue
        for word in _WORD.findall(text[d.start : d.end]):
            folded = word.casefold()
            if len(folded) < MIN_WORD_LENGTH or folded in _NEVER:
                continue
            if folded in COMMON_WORD_NAMES:
                if word[:1].isupper() and not word.isupper():
                    common.add(word)
            elif not is_common_non_name(folded):
                rare.add(folded)
    return rare, common


def _alternation(words: set[str]) -> str:
    """The words as a prefix tree, longest first (a flat alternation of hundreds of names
    costs one comparison per name at every offset of a long document)."""
    return word_alternation(frozenset(words))


_BEFORE = r"(?<![\w'’-])"
_AFTER = r"(?![\w-]|['’]\w\w)"


def propagate_names(text: str, detections: list[Detection]) -> list[Detection]:
    """Detections for other occurrences of known name words (the input is not repeated)."""
    rare, common = name_words(text, detections)
    patterns = []
    if rare:
        patterns.append(re.compile(f"{_BEFORE}(?:{_alternation(rare)}){_AFTER}", re.IGNORECASE))
    if common:
        patterns.append(re.compile(f"{_BEFORE}(?:{_alternation(common)}){_AFTER}"))
    matches = sorted((m.start(), m.end()) for pattern in patterns for m in pattern.finditer(text))
    return [
        Detection(
            start,
            end,
            PERSON,
            placeholder_for(PERSON),
            "propagation",
            PROPAGATED_SCORE,
            "name_propagation",
        )  # fmt: skip
        for start, end in matches
    ]


_REPEATED = frozenset({"handle", "internal id", "reference id", "secret", "national id"})
MIN_REPEATED_LENGTH = 5


def propagate_identifiers(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """Every other occurrence of a user name or id found once in the document ("mausi_87"
    in a post's header and again in a reply), as a whole token."""
    values = {
        text[d.start : d.end]: d
        for d in kept
        if d.category in _REPEATED and d.end - d.start >= MIN_REPEATED_LENGTH
    }
    if not values:
        return []
    spans = {(d.start, d.end) for d in kept}
    pattern = rf"(?<![\w@.-])(?:{_alternation(set(values))})(?![\w@-]|\.\w)"
    return [
        replace(values[m.group()], start=m.start(), end=m.end(), rule_id="id_propagation")
        for m in re.finditer(pattern, text)
        if (m.start(), m.end()) not in spans
    ]
