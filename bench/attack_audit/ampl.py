"""AmPL (seed 004 §3, perturb–audit–adapt) over the audited grid, and the strongest attacker.

The budget ε_B is what the receipt's per-token bound promises (mPL ≤ ε_B); the mechanism may
run at a smaller ε (stronger noise). For a tolerated violation rate δ, AmPL picks the largest
audited running ε whose 99 % upper bound on Pr[mPL > ε_B] is ≤ δ against the strongest
attacker: the one with the highest bound over the evaluation sets pooled (`pooled`). On the
grid this is the adapt step done exhaustively: every candidate ε was perturbed and audited,
and the loop's answer is read off instead of iterated.
"""

from __future__ import annotations

from typing import Any

from bench.attack_audit.leakage import hoeffding_upper
from bench.attack_audit.metrics import CONFIDENCE

EXACT = "exact-bayes"


def _key(epsilon: float) -> str:
    return f"{epsilon:g}"


def pooled(
    result: dict[str, Any], budget: float, category: str | None = None
) -> dict[str, Any] | None:
    """One attacker's violation rate at this budget over every evaluation set together.

    Documents are the independent samples and each set's rate is its mean per-document
    violation fraction, so the pooled rate is the document-weighted mean of the sets' rates
    and the one-sided 99 % Hoeffding bound (appendix D.4) uses every evaluation document:
    the same figures one evaluation over all sets would give, with a bound that a 77-document
    set alone could never bring under a few percent.
    """
    rate = documents = 0.0
    worst_pairs = 0.0
    for metrics in result["sets"].values():
        source = metrics if category is None else metrics["per_category"].get(category)
        if source is None:
            continue
        rates = source["violation"][_key(budget)]
        rate += rates["rate"] * rates["documents"]
        documents += rates["documents"]
        worst_pairs = max(worst_pairs, rates["pair_rate"])
    if not documents:
        return None
    rate /= documents
    return {
        "set": "pooled",
        "rate": rate,
        "bound99": hoeffding_upper(rate, int(documents), 1 - CONFIDENCE),
        "documents": int(documents),
        "max_set_pair_rate": worst_pairs,
    }


def strongest(
    row: dict[str, Any], budget: float, category: str | None = None, learned_only: bool = False
) -> dict[str, Any] | None:
    """The attacker with the highest pooled violation bound at this budget."""
    best: dict[str, Any] | None = None
    for attacker, result in row["attackers"].items():
        if learned_only and attacker == EXACT:
            continue
        candidate = pooled(result, budget, category)
        if candidate is not None and (best is None or candidate["bound99"] > best["bound99"]):
            best = {"attacker": attacker, **candidate}
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


def largest_meeting(
    rows: list[dict[str, Any]], tolerance: float, category: str | None = None
) -> dict[str, Any]:
    """The largest audited ε that meets the target at its own budget (the receipt states
    what the mechanism runs at): AmPL's answer to "how large may ε be?"."""
    passing = [
        (row["epsilon"], worst)
        for row in sorted(rows, key=lambda r: r["epsilon"])
        if (worst := strongest(row, row["epsilon"], category)) is not None
        and worst["bound99"] <= tolerance
    ]
    if not passing:
        smallest = min(rows, key=lambda r: r["epsilon"])
        worst = strongest(smallest, smallest["epsilon"], category)
        return {"tolerance": tolerance, "epsilon": None, "strongest_at_smallest": worst}
    epsilon, worst = passing[-1]
    return {"tolerance": tolerance, "epsilon": epsilon, "strongest": worst}
