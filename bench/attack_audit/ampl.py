"""AmPL (seed 004 §3, perturb–audit–adapt) over the audited grid, and the strongest attacker.

The budget ε_B is what the receipt's per-token bound promises (mPL ≤ ε_B); the mechanism may
run at a smaller ε (stronger noise). For a tolerated violation rate δ, AmPL picks the largest
audited running ε whose 99 % upper bound on Pr[mPL > ε_B] is ≤ δ against the strongest
attacker: the one with the highest bound on any evaluation set. On the grid this is the
adapt step done exhaustively: every candidate ε was perturbed and audited, and the loop's
answer is read off instead of iterated.
"""

from __future__ import annotations

from typing import Any

EXACT = "exact-bayes"


def _key(epsilon: float) -> str:
    return f"{epsilon:g}"


def strongest(
    row: dict[str, Any], budget: float, category: str | None = None, learned_only: bool = False
) -> dict[str, Any] | None:
    """The attacker and set with the highest violation bound at this budget."""
    best: dict[str, Any] | None = None
    for attacker, result in row["attackers"].items():
        if learned_only and attacker == EXACT:
            continue
        for name, metrics in result["sets"].items():
            source = metrics if category is None else metrics["per_category"].get(category)
            if source is None:
                continue
            rates = source["violation"][_key(budget)]
            candidate = {"attacker": attacker, "set": name, **rates}
            if best is None or candidate["bound99"] > best["bound99"]:
                best = candidate
    return best


def strongest_recovery(row: dict[str, Any]) -> dict[str, Any]:
    """The learned attacker and set with the highest top-1 recovery."""
    best: dict[str, Any] | None = None
    for attacker, result in row["attackers"].items():
        if attacker == EXACT:
            continue
        for name, metrics in result["sets"].items():
            if best is None or metrics["top1"] > best["top1"]:
                best = {"attacker": attacker, "set": name, **_recovery(metrics)}
    if best is None:  # only the exact attacker ran
        name, metrics = max(
            row["attackers"][EXACT]["sets"].items(), key=lambda item: item[1]["top1"]
        )
        best = {"attacker": EXACT, "set": name, **_recovery(metrics)}
    return best


def _recovery(metrics: dict[str, Any]) -> dict[str, float]:
    return {
        "top1": metrics["top1"],
        "top5": metrics["top5"],
        "prior_top1": metrics["prior_top1"],
        "prior_top5": metrics["prior_top5"],
    }


def choose(
    rows: list[dict[str, Any]], budget: float, tolerance: float, category: str | None = None
) -> dict[str, Any]:
    """The largest running ε (≤ the budget) whose strongest bound at the budget is ≤ δ."""
    passing = []
    for row in sorted(rows, key=lambda r: r["epsilon"]):
        if row["epsilon"] > budget:
            continue
        worst = strongest(row, budget, category)
        if worst is not None and worst["bound99"] <= tolerance:
            passing.append((row["epsilon"], worst))
    if not passing:
        return {"budget": budget, "tolerance": tolerance, "epsilon": None}
    epsilon, worst = passing[-1]
    return {"budget": budget, "tolerance": tolerance, "epsilon": epsilon, "strongest": worst}
