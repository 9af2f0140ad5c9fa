"""Name propagation: once a word is known to be part of a person's name in a document, every
other whole-word occurrence of it in that document is a name too.

Detectors see names through context ("[10:42] aaron:", "Dr. Ana Müller"); the same name
written elsewhere without context ("it's aaron here", "ana said") would otherwise leak.
Only confident person detections seed it, and only words that are not common English words,
months, places or particles.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.regex import PARTICLES
from anonymizer.detection.wordlists import NON_NAME, NOT_A_NAME, PLACES
from anonymizer.types import Detection

PERSON = "full person name"
MIN_SEED_SCORE = 0.6
PROPAGATED_SCORE = 0.55
MIN_WORD_LENGTH = 3

_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*")
_NEVER = NON_NAME | NOT_A_NAME | PLACES | PARTICLES


def name_words(text: str, detections: Iterable[Detection]) -> set[str]:
    """Case-folded words of confident person detections that can stand for the person."""
    words = set()
    for d in detections:
        if d.category != PERSON or d.score < MIN_SEED_SCORE:
            continue
        for word in _WORD.findall(text[d.start : d.end]):
            folded = word.casefold()
            if len(folded) >= MIN_WORD_LENGTH and folded not in _NEVER:
                words.add(folded)
    return words


def propagate_names(text: str, detections: list[Detection]) -> list[Detection]:
    """Detections for other occurrences of known name words (the input is not repeated)."""
    words = name_words(text, detections)
    if not words:
        return []
    pattern = re.compile(
        r"(?<![\w'’-])(?:"
        + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        + r")(?![\w-]|['’]\w\w)",
        re.IGNORECASE,
    )
    return [
        Detection(
            m.start(),
            m.end(),
            PERSON,
            placeholder_for(PERSON),
            "propagation",
            PROPAGATED_SCORE,
            "name_propagation",
        )
        for m in pattern.finditer(text)
    ]
