"""`word_alternation` builds a working pattern for any strings, however long (propagation
searches for every detected value, and a detected secret or name can be thousands of chars)."""

from __future__ import annotations

import re

import pytest

from anonymizer.detection.regex import ALTERNATION_TREE_MAX_CHARS, word_alternation


def _longest_at(pattern: str, text: str, at: int) -> str | None:
    found = re.compile(pattern).match(text, at)
    return found.group() if found else None


@pytest.mark.parametrize("length", [ALTERNATION_TREE_MAX_CHARS, 1_000, 20_000])
def test_long_strings_compile_and_match(length):
    long_word = "k" + "x" * (length - 1)
    words = frozenset({long_word, long_word[:-1], "kx", "other"})
    pattern = word_alternation(words)
    text = f"a {long_word} b"
    assert _longest_at(pattern, text, 2) == long_word
    assert _longest_at(pattern, "kxy", 0) == "kx"
    assert _longest_at(pattern, "another", 2) == "other"


def test_short_strings_prefer_the_longest_match_at_a_position():
    pattern = word_alternation(frozenset({"Ann", "Anna", "Annabel", "Bo"}))
    assert _longest_at(pattern, "Annabelle", 0) == "Annabel"
    assert _longest_at(pattern, "Annab", 0) == "Anna"
    assert re.fullmatch(rf"(?:{pattern})(?!\w)", "Ann")
