"""Fixes from the session-7 review: precision traps of the new flat-number and listed
day/month rules, and two label-position patterns that backtracked on long runs of blanks.
The sentences were written for this test; none comes from an evaluation set."""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest

from anonymizer.detection.combined import _ends_after_form_gap
from anonymizer.detection.regex import RegexDetector

RULES = RegexDetector()
OLD_FORM_GAP = re.compile(r"(?:^|[ ]{2,}|\t|[|·•])[ \t]*$")


def found(text: str, category: str) -> set[str]:
    return {text[d.start : d.end] for d in RULES.detect(text) if d.category == category}


@pytest.mark.parametrize(
    "text",
    [
        "They charge a flat 50 for delivery",
        "sales stayed flat 2 quarters running",
        "The apartment 5 km from the beach",
        "the tyre went flat 3 miles outside town",
        "rent is a flat 900 a month",
        "Our apartment 2 doors down has the same problem",
    ],
)
def test_flat_as_an_ordinary_word_is_no_address(text):
    assert not found(text, "street address")


def test_a_lower_case_flat_number_counts_where_an_address_piece_ends():
    assert found("the tenant in flat 9, Mill Road", "street address") >= {"flat 9"}
    assert found("post it to apt 12 of the Linden block", "street address") >= {"apt 12"}
    assert found("Flat 4 above us is empty", "street address") == {"Flat 4"}


@pytest.mark.parametrize(
    "text",
    [
        "Add 1/2 and 1/4 cup of sugar",
        "ratings were 4/5, 3/5 and 5/5",
        "Split the bill 1/3 and 2/3",
        "she scored 7/10 and 8/10",
        "1/2 1/4 1/4 by weight",
    ],
)
def test_fractions_and_scores_in_a_list_are_no_dates(text):
    assert not found(text, "date")


def test_the_form_gap_check_matches_the_pattern_it_replaces():
    rng = random.Random(7)
    for _ in range(20_000):
        text = "".join(rng.choice(" \t|·•ab:\n") for _ in range(rng.randrange(0, 14)))
        end = rng.randrange(0, len(text) + 1)
        line_start = text.rfind("\n", 0, end) + 1
        expected = bool(OLD_FORM_GAP.search(text, line_start, end))
        assert _ends_after_form_gap(text, line_start, end) == expected, (text, end)


def test_label_position_checks_are_linear_on_long_runs_of_blanks():
    # in a child process, so a backtracking version fails instead of hanging the suite (the
    # old patterns took 15 s on 2,000 spaces and about 0.8 s per call on the 16 kB stamp)
    script = (
        "from anonymizer.detection.combined import _STAMP, at_label_position\n"
        "from anonymizer.types import Detection\n"
        "text = 'Shift log\\n' + ' ' * 200_000 + 'x Kevin Byrne: the pump is down\\n'\n"
        "start = text.index('Kevin')\n"
        "d = Detection(start, start + 11, 'full person name', '[PERSON]', 'test', 0.8)\n"
        "assert not at_label_position(text, d)\n"
        "assert _STAMP.fullmatch('1' + '- ' * 100_000 + 'x') is None\n"
        "assert _STAMP.fullmatch('[3/7/24 10:04 PM] ')\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
