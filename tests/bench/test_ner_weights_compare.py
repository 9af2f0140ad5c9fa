"""The old-vs-new weights comparison: exact sign test and span-by-span pairing."""

from __future__ import annotations

import pytest

from anonymizer.types import Detection
from bench.ner_weights_compare import paired, sign_test


def test_sign_test_matches_the_binomial_tails() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 5) == 1.0
    assert sign_test(6, 0) == pytest.approx(2 / 64)
    assert sign_test(1, 3) == pytest.approx(2 * 5 / 16)
    assert sign_test(70, 19) < 0.001
    assert sign_test(1, 3) == sign_test(3, 1)


def _det(start: int, end: int) -> Detection:
    return Detection(start, end, "full person name", "[PERSON]", "test", 0.9, "test")


def test_paired_counts_spans_covered_by_only_one_side() -> None:
    doc = {
        "text": "Ann met Bob in Rome.",
        "spans": [
            {"start": 0, "end": 3, "label": "full person name"},
            {"start": 8, "end": 11, "label": "full person name"},
            {"start": 15, "end": 19, "label": "location"},
        ],
    }
    old = [[_det(0, 3), _det(8, 9)]]  # Bob covered at IoU 1/3 only: not covered
    new = [[_det(8, 11), _det(15, 19)]]
    gained, lost = paired([doc], old, new)
    assert gained == ["full person name: Bob", "location: Rome"]
    assert lost == ["full person name: Ann"]
