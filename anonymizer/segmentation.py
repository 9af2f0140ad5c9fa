"""Split a text into PII pieces, pass-through pieces and the K plain chunks that get rewritten.

No text is ever dropped: the pieces concatenate back to the input exactly. A plain piece
longer than `max_len` encoder tokens is split at sentence, then clause, then word
boundaries (and only as a last resort inside a word), each part counted in K.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from anonymizer.types import Detection

TokenCounter = Callable[[str], int]

_HAS_WORD = re.compile(r"[^\W_]", re.UNICODE)
_CLAUSE_END = re.compile(r"(?<=[,;:\u2014\u2013)])\s+|\s+(?=[(\u2014\u2013])")
_WORD_GAP = re.compile(r"(?<=\S)(?=\s)")
_SENTENCE_FALLBACK = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=\S)")


@dataclass(frozen=True)
class Piece:
    """A contiguous piece of the input; `chunk_idx` is set for the K chunks to rewrite."""

    text: str
    is_pii: bool
    category: str | None = None
    placeholder: str | None = None
    chunk_idx: int | None = None
    source: str | None = None


def heuristic_token_count(text: str) -> int:
    """Conservative token estimate for when no encoder tokenizer is installed.

    SentencePiece-style tokenizers use about one token per word plus one per punctuation
    mark and extra pieces for long or rare words; counting ceil(len/4) per word errs high.
    """
    total = 0
    for match in re.finditer(r"\w+|[^\w\s]", text):
        word = match.group()
        total += max(1, -(-len(word) // 4)) if word[0].isalnum() else 1
    return total + 1  # end-of-sequence token


def segment(
    text: str,
    detections: list[Detection],
    *,
    redact_pii: bool,
    max_len: int,
    count_tokens: TokenCounter = heuristic_token_count,
) -> list[Piece]:
    """Pieces in order; plain pieces with a letter or digit become numbered chunks."""
    raw: list[Piece] = []
    cursor = 0
    for det in sorted(detections, key=lambda d: d.start) if redact_pii else []:
        if det.start > cursor:
            raw.append(Piece(text[cursor : det.start], False))
        raw.append(
            Piece(text[det.start : det.end], True, det.category, det.placeholder, source=det.source)
        )
        cursor = det.end
    if cursor < len(text):
        raw.append(Piece(text[cursor:], False))

    pieces: list[Piece] = []
    k = 0
    for piece in raw:
        if piece.is_pii:
            pieces.append(piece)
            continue
        units = split_sentences(piece.text) if not redact_pii else [piece.text]
        for unit in units:
            for part in split_to_token_limit(unit, max_len, count_tokens):
                if _HAS_WORD.search(part):
                    pieces.append(Piece(part, False, chunk_idx=k))
                    k += 1
                else:
                    pieces.append(Piece(part, False))
    assert "".join(p.text for p in pieces) == text
    return pieces


def count_chunks(pieces: list[Piece]) -> int:
    return sum(1 for p in pieces if p.chunk_idx is not None)


def split_to_token_limit(text: str, max_len: int, count_tokens: TokenCounter) -> list[str]:
    """Split text into consecutive parts of at most max_len tokens, at the coarsest boundary."""
    if not _HAS_WORD.search(text) or count_tokens(text) <= max_len:
        return [text]
    for splitter in (split_sentences, _split_clauses, _split_words):
        parts = splitter(text)
        if len(parts) > 1:
            return _pack(parts, max_len, count_tokens)
    return _split_characters(text, max_len, count_tokens)


def _pack(parts: list[str], max_len: int, count_tokens: TokenCounter) -> list[str]:
    """Greedily join consecutive parts while they fit; recurse into parts that never fit."""
    out: list[str] = []
    current = ""
    for part in parts:
        candidate = current + part
        if current and count_tokens(candidate) > max_len:
            out.extend(split_to_token_limit(current, max_len, count_tokens))
            current = part
        else:
            current = candidate
    if current:
        out.extend(split_to_token_limit(current, max_len, count_tokens))
    return out


def _split_at(text: str, pattern: re.Pattern[str]) -> list[str]:
    cuts = [m.end() for m in pattern.finditer(text) if 0 < m.end() < len(text)]
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


def _split_clauses(text: str) -> list[str]:
    return _split_at(text, _CLAUSE_END)


def _split_words(text: str) -> list[str]:
    return _split_at(text, _WORD_GAP)


def _split_characters(text: str, max_len: int, count_tokens: TokenCounter) -> list[str]:
    out, start = [], 0
    while start < len(text):
        end = start + 1
        while end < len(text) and count_tokens(text[start : end + 1]) <= max_len:
            end += 1
        out.append(text[start:end])
        start = end
    return out


def split_sentences(text: str) -> list[str]:
    """Sentences with their trailing whitespace kept, via NLTK Punkt (regex fallback)."""
    tokenizer = _punkt()
    if tokenizer is not None:
        spans = list(tokenizer.span_tokenize(text))
        if spans:
            bounds = [0] + [s for s, _ in spans[1:]] + [len(text)]
            return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]
    return _split_at(text, _SENTENCE_FALLBACK) or [text]


# Punkt without trained data does not know abbreviations; these are the common English ones.
_ABBREVIATIONS = {
    "dr",
    "mr",
    "mrs",
    "ms",
    "prof",
    "sr",
    "jr",
    "st",
    "mt",
    "a.m",
    "p.m",
    "e.g",
    "i.e",
    "etc",
    "vs",
    "inc",
    "ltd",
    "co",
    "corp",
    "no",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "approx",
    "dept",
    "fig",
    "u.s",
    "u.k",
    "ph.d",
}


@cache
def _punkt():  # type: ignore[no-untyped-def]
    try:
        from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
    except ImportError:
        return None
    params = PunktParameters()
    params.abbrev_types = set(_ABBREVIATIONS)
    return PunktSentenceTokenizer(params)
