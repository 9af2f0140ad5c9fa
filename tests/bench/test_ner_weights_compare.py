"""The old-vs-new weights comparison: exact sign test, span-by-span pairing, several models in
one run, and the pooled figure the adoption rule reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonymizer.types import Detection
from bench.ner_weights_compare import (
    GATE_SETS,
    SETS,
    compare_set,
    named_dirs,
    paired,
    pooled,
    rotated,
    sign_test,
)


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


def test_models_are_named_on_the_command_line_or_numbered() -> None:
    assert named_dirs(["/m/a"]) == {"new": Path("/m/a")}
    assert named_dirs(["A=/m/a", "B=/m/b"]) == {"A": Path("/m/a"), "B": Path("/m/b")}
    assert named_dirs(["/m/a", "/m/b"]) == {"new": Path("/m/a"), "new2": Path("/m/b")}
    for taken in (["A=/m/a", "A=/m/b"], ["old=/m/a"], ["presidio=/m/a"]):
        with pytest.raises(ValueError):
            named_dirs(taken)


def test_pooled_sums_gained_and_lost_over_the_gate_sets_only() -> None:
    def entry(a: tuple[int, int], b: tuple[int, int]) -> dict:
        counts = {"A": a, "B": b}
        return {"vs_old": {k: {"gained": g, "lost": n} for k, (g, n) in counts.items()}}

    results = {
        "dev-hand-hard": entry((10, 2), (3, 9)),
        "dev-hand-blind": entry((4, 4), (1, 1)),
        "dev-long": entry((100, 0), (100, 0)),  # not a gate set: left out
    }
    totals = pooled(results, GATE_SETS)
    assert (totals["A"]["gained"], totals["A"]["lost"]) == (14, 6)
    assert (totals["B"]["gained"], totals["B"]["lost"]) == (4, 10)
    assert totals["A"]["sets"] == ["dev-hand-blind", "dev-hand-hard"]
    assert totals["A"]["sign_p"] == pytest.approx(sign_test(14, 6))


def test_lead_only_and_frozen_sets_are_never_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert "dev-hand-fresh" not in SETS and not any(s.startswith("frozen") for s in SETS)
    for name in ("dev-hand-fresh", "frozen-hand", "frozen-independent"):
        assert compare_set(name, detectors={}, analyzer=None, rounds=1, show=0) is None
    assert "skipped" in capsys.readouterr().out


def test_each_system_leads_one_round_in_turn() -> None:
    keys = ["old", "A", "B", "presidio"]
    orders = [rotated(keys, r) for r in range(4)]
    assert [order[0] for order in orders] == keys
    assert all(sorted(order) == sorted(keys) for order in orders)
    assert rotated(keys, 4) == keys
