"""A second reading, by the NER model, of the text that is written in capitals.

The model learned names from their capitals: in a bank statement, a court list or a form
written in capitals ("RECIBO ALQUILER – VICENT PERIS ALANDETE", "DIGI SPAIN TELECOM") every
word looks the same to it, and it misses the names or reads a heading ("ITINERARY") as a
place. Each run of two or more words in capitals is copied with its words case-normalised
("Vicent Peris Alandete"), offset for offset, and the copies of a document are read in the
same `nlp.pipe` batch as the documents; the people, organisations and places it finds there
in capitals are mapped back to the document. Only the runs and a few words around them are
read again (4% more text on dev-long), so text without them costs nothing.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace

from anonymizer.detection.gazetteer import city_names
from anonymizer.detection.line_language import word_in_any_language
from anonymizer.detection.names import is_known_name
from anonymizer.types import Detection

_WORD = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*")
_LINE = re.compile(r"[^\n]+")
MIN_RUN_WORDS = 2
CASE_SOURCE_SUFFIX = "+cased"


def _capitals(word: str) -> bool:
    """A word written in capitals: two or more letters, none lower case ("PERIS", "O'NEILL")."""
    return word.isupper() and sum(c.isalpha() for c in word) >= 2


def _title_same_length(word: str) -> str:
    """The word with its first letter kept and the rest in lower case, as long as the word."""
    lowered = word[0] + word[1:].lower()
    return lowered if len(lowered) == len(word) else word


@dataclass(frozen=True)
class CasedCopy:
    """Pieces of a document's lines around runs of capitals, case-normalised and joined by
    newlines (`text`), and where each piece starts in the copy and in the document."""

    text: str
    pieces: tuple[tuple[int, int, int], ...]  # (start in copy, start in document, length)

    def to_document(self, d: Detection) -> Detection | None:
        """The detection moved to the document's offsets (None if it crosses two pieces)."""
        index = bisect_right(self.pieces, (d.start, _AFTER_ANY_OFFSET)) - 1
        if index < 0:
            return None
        copy_start, doc_start, length = self.pieces[index]
        if d.end > copy_start + length:
            return None
        shift = doc_start - copy_start
        rule_id = (d.rule_id or d.source) + CASE_SOURCE_SUFFIX
        return replace(d, start=d.start + shift, end=d.end + shift, rule_id=rule_id)


_AFTER_ANY_OFFSET = sys.maxsize  # sorts a (copy start, ...) key after every piece there
_TOKEN = re.compile(r"[^ \t]+")


def capitals_runs(line: str) -> list[tuple[int, int]]:
    """(start, end) of each run of `MIN_RUN_WORDS` or more consecutive words in capitals,
    leaving out words of a token with digits ("ATF-RUM-772"); one pass over the line."""
    runs: list[tuple[int, int]] = []
    current: list[tuple[int, int]] = []
    for token in _TOKEN.finditer(line):
        code = any(c.isdigit() for c in token.group())
        for m in _WORD.finditer(line, token.start(), token.end()):
            if not code and _capitals(m.group()):
                current.append(m.span())
                continue
            if len(current) >= MIN_RUN_WORDS:
                runs.append((current[0][0], current[-1][1]))
            current = []
    if len(current) >= MIN_RUN_WORDS:
        runs.append((current[0][0], current[-1][1]))
    return runs


CONTEXT_CHARS = 24
MAX_LINE_CHARS = 2_000  # a longer line is a data dump or a paragraph, not a form's field


def cased_copy(text: str) -> CasedCopy | None:
    """The case-normalised copy of the document's runs of capitals, each with up to
    `CONTEXT_CHARS` of whole words of its line on either side (None when it has none).
    Linear in the text's length."""
    parts: list[str] = []
    pieces: list[tuple[int, int, int]] = []
    position = 0
    for line in _LINE.finditer(text):
        body = line.group()
        if len(body) > MAX_LINE_CHARS:
            continue
        runs = capitals_runs(body)
        if not runs:
            continue
        chars = list(body)
        for start, end in runs:
            for m in _WORD.finditer(body, start, end):
                chars[m.start() : m.end()] = _title_same_length(m.group())
        for low, high in _windows(body, runs):
            parts.append("".join(chars[low:high]))
            pieces.append((position, line.start() + low, high - low))
            position += high - low + 1
    if not parts:
        return None
    return CasedCopy("\n".join(parts), tuple(pieces))


def _windows(line: str, runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The runs widened by up to `CONTEXT_CHARS` of whole words within the line, overlapping
    ones merged."""
    merged: list[tuple[int, int]] = []
    for start, end in runs:
        low = line.find(" ", max(0, start - CONTEXT_CHARS), start) + 1
        high = line.rfind(" ", end, end + CONTEXT_CHARS)
        if high < 0 or end + CONTEXT_CHARS >= len(line):
            high = len(line)
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(high, merged[-1][1]))
        else:
            merged.append((low, high))
    return merged


REREAD_CATEGORIES = frozenset({"full person name", "organization", "location"})


def mapped_back(text: str, copy: CasedCopy, found: Sequence[Detection]) -> list[Detection]:
    """The copy's people, organisations and places written in capitals in the document, at
    the document's offsets, unless every word in capitals is a common word (a heading); its
    postcodes and street numbers are no better read than before."""
    out = []
    for d in found:
        if d.category not in REREAD_CATEGORIES or d.source != "ner":
            continue
        moved = copy.to_document(d)
        if moved is None:
            continue
        capitals = [w for w in _WORD.findall(text[moved.start : moved.end]) if _capitals(w)]
        if capitals and not all(map(_heading_word, capitals)):
            out.append(moved)
    return out


def _heading_word(word: str) -> bool:
    """A word of a heading or a form's label ("VIAJEROS", "APPLICATION"): very common in some
    language, and neither a name nor a city."""
    return (
        word_in_any_language(word) and not is_known_name(word) and word.title() not in city_names()
    )
