"""Runs without white space are cut for spaCy's tokenizer: same offsets, bounded time."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from anonymizer.detection.long_pieces import MAX_PIECE, split_long_pieces


def longest_piece(text: str) -> int:
    return max((len(p) for p in re.findall(r"\S+", text)), default=0)


@pytest.mark.parametrize(
    "text",
    [
        "user" + "_" * 5000 + "x",
        "(" * 3000 + "a",
        "a" + "'s" * 2000,
        "x" * 1234,
        "https://example.org/" + "/".join(["segment"] * 80) + " and then prose",
        "start " + "é" * 450 + "\n" + "ä" * 101,
    ],
)
def test_every_piece_is_cut_to_the_limit_and_nothing_moves(text: str) -> None:
    cut = split_long_pieces(text)
    assert len(cut) == len(text)
    assert longest_piece(cut) <= MAX_PIECE
    changed = [i for i, (a, b) in enumerate(zip(text, cut, strict=True)) if a != b]
    assert changed and all(cut[i] == " " for i in changed)
    assert len(changed) <= len(text) // MAX_PIECE  # one blank per window, no more


def test_cuts_prefer_punctuation_to_letters() -> None:
    url = "https://example.org/" + "/".join(["segment"] * 80)
    cut = split_long_pieces(url)
    assert all(url[i] == "/" for i, c in enumerate(cut) if c == " ")
    parts = {part for piece in cut.split() for part in piece.split("/")}
    assert parts == {"https:", "", "example.org", "segment"}  # no word was cut


def test_ordinary_text_is_returned_unchanged() -> None:
    text = "Dear Anna Kowalski,\nyour parcel (ref. GB-2231-7781) left Łódź on 3 May. " * 300
    assert split_long_pieces(text) is text
    exactly = "y" * MAX_PIECE
    assert split_long_pieces(exactly) is exactly


def test_a_limit_below_two_is_refused() -> None:
    with pytest.raises(ValueError):
        split_long_pieces("abc", max_piece=1)


HOSTILE_PIECES = (
    "user" + "_" * 20_000,  # ends in affix characters: the first NER chunk is all of them
    "note: " + "(" * 30_000 + "a",
    "Anna said " + "a's" * 10_000 + " to Bob",
)


@pytest.mark.parametrize("detector_name", ["combined", "spacy"])
def test_affix_runs_do_not_stall_the_detectors(detector_name: str) -> None:
    # in a child process, so the quadratic tokenizer fails the test by its timeout instead of
    # hanging the suite (before the cut, the first text alone took minutes in `combined`)
    script = (
        "import sys; from anonymizer.detection import get_detector\n"
        f"detector = get_detector({detector_name!r})\n"
        "detector.detect('warm up, Anna')\n"
        "for text in sys.argv[1:]:\n"
        "    found = detector.detect(text)\n"
        "    assert all(0 <= d.start < d.end <= len(text) for d in found)\n"
    )
    subprocess.run([sys.executable, "-c", script, *HOSTILE_PIECES], check=True, timeout=90)
