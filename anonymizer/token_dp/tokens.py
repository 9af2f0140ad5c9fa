"""Which pieces of a document the token sanitizers replace: detected PII spans, the user's
sensitive words and, optionally, every general (alphabetic) word outside them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from anonymizer.detection import detect
from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.settings import Settings
from anonymizer.token_dp.candidates import GENERAL_WORDS, has_candidates
from anonymizer.types import Detection

SENSITIVE_WORD_CATEGORY = "custom"
_GENERAL_WORD = re.compile(r"(?<!\w)[^\W\d_]+(?:['’][^\W\d_]+)*(?!\w)")


@dataclass(frozen=True)
class SensitiveToken:
    """One span to sanitize; `general` marks a plain word (SanText's general vocabulary)."""

    start: int
    end: int
    text: str
    category: str
    placeholder: str | None
    general: bool = False

    @property
    def draw_key(self) -> tuple[str, str]:
        """Occurrences with the same key share one draw (consistent surrogates)."""
        return (self.category, self.text.casefold())

    @property
    def has_candidates(self) -> bool:
        return has_candidates(self.category)


def sensitive_word_matches(text: str, settings: Settings) -> list[Detection]:
    """Whole-word, case-insensitive occurrences of `settings.sensitive_words`."""
    allowed = {a.casefold() for a in settings.allow_list}
    found = []
    for word in settings.sensitive_words:
        pattern = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE)
        for m in pattern.finditer(text):
            if m.group().casefold() not in allowed:
                found.append(
                    Detection(
                        m.start(),
                        m.end(),
                        SENSITIVE_WORD_CATEGORY,
                        placeholder_for(SENSITIVE_WORD_CATEGORY),
                        "sensitive-words",
                        1.0,
                        "sensitive_words",
                    )
                )
    return found


def find_tokens(
    text: str, settings: Settings, gold: list[Detection] | None = None
) -> list[SensitiveToken]:
    """The document's sensitive tokens in order, without overlaps."""
    spans = resolve_overlaps(
        detect(text, settings, gold=gold) + sensitive_word_matches(text, settings)
    )
    tokens = [
        SensitiveToken(d.start, d.end, text[d.start : d.end], d.category, d.placeholder)
        for d in spans
    ]
    if settings.sanitize_general_words:
        cursor = 0
        general = []
        for span in [*spans, None]:
            gap_end = span.start if span is not None else len(text)
            for m in _GENERAL_WORD.finditer(text, cursor, gap_end):
                general.append(
                    SensitiveToken(m.start(), m.end(), m.group(), GENERAL_WORDS, None, general=True)
                )
            if span is not None:
                cursor = span.end
        tokens = sorted(tokens + general, key=lambda t: t.start)
    return tokens


def match_case(original: str, surrogate: str) -> str:
    """Give a general-word surrogate the original's case pattern (UPPER, Title or lower)."""
    if len(original) > 1 and original.isupper():
        return surrogate.upper()
    if original[:1].isupper():
        return surrogate[:1].upper() + surrogate[1:]
    return surrogate
