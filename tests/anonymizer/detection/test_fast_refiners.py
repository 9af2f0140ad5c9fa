"""The refiners and the secret check rewritten for speed give exactly what their plain
versions (kept here as the reference) give: on every span the rules hand them in the
development documents, on random spans of those documents, and on text full of unusual
whitespace and non-ASCII letters and digits."""

from __future__ import annotations

import math
import random
import re

import pytest

from anonymizer.detection import checksums
from anonymizer.detection.regex import (
    _ENDS_CONTEXT_NAME,
    _NOT_NAME_ANYWHERE,
    _NOT_NAME_START,
    _SPEECH_OPENERS,
    NOT_A_NAME,
    PARTICLES,
    RULES,
    Rule,
    _bare,
    _is_name_token,
    refine_context_name,
    refine_name_run,
)
from bench import dev_sets

_TOKEN = re.compile(r"\S+")


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text, start, end)]


def reference_name_run(text: str, start: int, end: int) -> tuple[int, int] | None:
    tokens = _tokens(text, start, end)
    bares = [_bare(token[2]) for token in tokens]
    first, last = 0, len(tokens)
    while first < last and bares[first] in _NOT_NAME_START:
        first += 1
    while first < last and (
        bares[last - 1] in _NOT_NAME_START or not _is_name_token(tokens[last - 1][2])
    ):
        last -= 1
    names = [_is_name_token(token[2]) for token in tokens[first:last]]
    if sum(names) < 2 or not names[0]:
        return None
    if any(bare in _NOT_NAME_ANYWHERE for bare in bares[first:last]):
        return None
    return tokens[first][0], tokens[last - 1][1]


def reference_context_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    tokens = _tokens(text, start, end)
    if not tokens or _bare(tokens[0][2]) in NOT_A_NAME | _SPEECH_OPENERS:
        return None
    kept = [tokens[0]]
    for token in tokens[1:]:
        if _bare(token[2]) in _ENDS_CONTEXT_NAME:
            break
        kept.append(token)
    while len(kept) > 1 and _bare(kept[-1][2]) in PARTICLES:
        kept.pop()
    if any(_bare(t[2]) in _NOT_NAME_ANYWHERE for t in kept):
        return None
    last_end = kept[-1][1]
    while last_end > kept[0][0] and text[last_end - 1] in ".,;:!?":
        last_end -= 1
    return kept[0][0], last_end


def reference_entropy(value: str) -> float:
    n = len(value)
    counts = [value.count(char) for char in dict.fromkeys(value)]
    return -sum(c / n * math.log2(c / n) for c in counts)


def reference_looks_like_secret(token: str) -> bool:
    if len(token) < checksums.SECRET_MIN_LENGTH or not any(map(str.isdigit, token)):
        return False
    has_lower = any(map(str.islower, token))
    has_upper = any(map(str.isupper, token))
    if not (has_lower or has_upper) or checksums._WORDLIKE_RUN.search(token):
        return False
    parts = [p for p in checksums._SEPARATORS.split(token) if p]
    if len(parts) >= 3 and sum(p.isalpha() and p.islower() for p in parts) * 2 >= len(parts):
        return False
    hex_only = checksums._HEX.fullmatch(token)
    threshold = checksums.SECRET_MIN_ENTROPY_HEX if hex_only else checksums.SECRET_MIN_ENTROPY
    return reference_entropy(token) >= threshold


REFINERS = [
    (refine_name_run, reference_name_run),
    (refine_context_name, reference_context_name),
]
# every whitespace character `str.split` and `\s` know, and letters, marks and digits that
# change case or count as digits in unusual ways
ODD = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f\u3000"
ODD_WORD_CHARS = "ÉéßİıǅΣσς٣²½Ⅻﬁ'’.,;:!?-"


def dev_text() -> str:
    docs = dev_sets.handwritten_dev() + dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD)
    return "\n\n".join(d["text"] for d in docs + dev_sets.corpus_dev(60))


def rule_spans(text: str, refine: object) -> list[tuple[int, int]]:
    """The spans that the rules refined by `refine` hand it in `text`."""
    rules: list[Rule] = [rule for rule in RULES if rule.refine is refine]
    spans = []
    for rule in rules:
        for match in rule.pattern.finditer(text):
            start, end = match.span(rule.group)
            if 0 <= start < end and (rule.validate is None or rule.validate(text[start:end])):
                spans.append((start, end))
    return spans


@pytest.mark.parametrize(("fast", "reference"), REFINERS)
def test_a_refiner_gives_what_its_plain_version_gives_on_every_rule_match(
    fast: object, reference: object
) -> None:
    text = dev_text()
    spans = rule_spans(text, fast)
    assert len(spans) > 200
    assert [fast(text, s, e) for s, e in spans] == [reference(text, s, e) for s, e in spans]


@pytest.mark.parametrize(("fast", "reference"), REFINERS)
def test_a_refiner_gives_what_its_plain_version_gives_on_random_spans(
    fast: object, reference: object
) -> None:
    text = dev_text()
    rng = random.Random(14)
    for _ in range(30_000):
        start = rng.randrange(len(text) - 80)
        end = start + rng.randrange(80)
        assert fast(text, start, end) == reference(text, start, end), repr(text[start:end])


@pytest.mark.parametrize(("fast", "reference"), REFINERS)
def test_a_refiner_splits_words_on_every_whitespace_character_as_re_does(
    fast: object, reference: object
) -> None:
    rng = random.Random(7)
    words = ["Ana", "Maria", "de", "la", "Cruz", "the", "Mr.", "O'Neil's", "x", "Zoë", "Dr"]
    for _ in range(20_000):
        parts = [
            rng.choice(words + list(ODD_WORD_CHARS)) + rng.choice(ODD) * rng.randrange(3)
            for _ in range(rng.randrange(1, 7))
        ]
        text = rng.choice(ODD) + "".join(parts)
        start, end = rng.randrange(3), len(text) - rng.randrange(3)
        assert fast(text, start, end) == reference(text, start, end), repr(text[start:end])


def secret_like_strings(count: int) -> list[str]:
    rng = random.Random(3)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+=" + "é²٣İıß"
    return [
        "".join(rng.choice(alphabet[: rng.randrange(4, len(alphabet))]) for _ in range(length))
        for length in (rng.randrange(15, 90) for _ in range(count))
    ]


def test_the_entropy_is_the_same_float_as_summing_fresh_terms() -> None:
    for value in secret_like_strings(20_000) + ["a", "abab", "é" * 30]:
        assert checksums.shannon_entropy(value) == reference_entropy(value)


def test_the_secret_check_gives_what_its_plain_version_gives() -> None:
    values = secret_like_strings(40_000)
    text = dev_text()
    values += [m.group() for m in re.finditer(r"[\w/+=.-]{20,}", text)]
    outcomes = [checksums.looks_like_secret(v) for v in values]
    assert outcomes == [reference_looks_like_secret(v) for v in values]
    assert any(outcomes) and not all(outcomes)
