"""One attacker on one evaluation set: recovery, calibration and the PBmPL violation rates.

Violation rates are measured against the per-token bound the receipt claims, ε·d with the
metric it names (SanText: Euclidean; CluSanT: the pushed d′ with its per-category ε′;
CusText: ε-LDP, i.e. d = 1 between any two strings, which its receipt claims only inside a
cluster), at the run's own ε (what the receipt says) and at every other audited ε as a
budget (AmPL). The rate is averaged per document (documents are the independent samples).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import log_softmax

from bench.attack_audit.attackers import Scores
from bench.attack_audit.leakage import (
    clopper_pearson_upper,
    hoeffding_upper,
    log_odds_shift,
    pair_indices,
    violations,
)

CONFIDENCE = 0.99
DEGENERATE = 1e-6


@dataclass
class Geometry:
    """Per record and pair: the distance the receipt's notion names, the per-token ε it
    claims per unit of the run's ε, and whether the receipt claims anything for the pair."""

    distances: np.ndarray  # [R, P]
    claim_per_epsilon: np.ndarray  # [R] (ε′/ε for CluSanT, 1 otherwise)
    claimed: np.ndarray  # [R, P] bool

    @property
    def separable(self) -> np.ndarray:
        """Pairs the embedding tells apart: two strings with the same embedding (MiniLM is
        uncased and strips accents) cannot be leaked apart, and a learned attacker's score
        gap between them is float noise, so such pairs are left out of every rate."""
        return self.distances > DEGENERATE


def evaluate(
    scores: Scores,
    truth: np.ndarray,
    documents: np.ndarray,
    categories: list[str],
    geometry: Geometry,
    run_epsilon: float,
    targets: tuple[float, ...],
) -> dict[str, Any]:
    """Recovery, NLL and violation rates of one attacker on one set."""
    size = scores.posterior.shape[1]
    pairs = pair_indices(size)
    shift = log_odds_shift(scores.observation, pairs)
    posterior = log_softmax(scores.posterior, axis=1)
    prior = log_softmax(scores.prior, axis=1)
    unit = geometry.distances * geometry.claim_per_epsilon[:, None]  # claim at ε = 1
    counted = geometry.separable
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(geometry.claimed & counted, shift / (unit * run_epsilon), 0.0)
    result: dict[str, Any] = {
        "records": int(len(truth)),
        "documents": int(len(np.unique(documents))),
        "pairs": int(counted.sum()),
        "inseparable_pairs": int((~counted).sum()),
        "top1": float(np.mean(top_k(scores.posterior, truth, 1))),
        "top5": float(np.mean(top_k(scores.posterior, truth, 5))),
        "prior_top1": float(np.mean(top_k(scores.prior, truth, 1))),
        "prior_top5": float(np.mean(top_k(scores.prior, truth, 5))),
        "nll": float(-np.mean(posterior[np.arange(len(truth)), truth])),
        "prior_nll": float(-np.mean(prior[np.arange(len(truth)), truth])),
        "max_claimed_ratio": float(np.nanmax(ratio)) if ratio.size else 0.0,
        "violation": {},
        "per_category": {},
    }
    for target in targets:
        broken = violations(shift, unit * target)
        result["violation"][_key(target)] = _rates(broken, counted, documents)
    by_category: dict[str, list[int]] = defaultdict(list)
    for i, category in enumerate(categories):
        by_category[category].append(i)
    for category, rows in sorted(by_category.items()):
        idx = np.array(rows)
        entry = {
            "records": len(rows),
            "top1": float(np.mean(top_k(scores.posterior[idx], truth[idx], 1))),
            "prior_top1": float(np.mean(top_k(scores.prior[idx], truth[idx], 1))),
            "violation": {
                _key(t): _rates(violations(shift[idx], unit[idx] * t), counted[idx], documents[idx])
                for t in targets
            },
        }
        result["per_category"][category] = entry
    return result


def _key(epsilon: float) -> str:
    return f"{epsilon:g}"


def top_k(logits: np.ndarray, truth: np.ndarray, k: int) -> np.ndarray:
    """Per record, the probability that the truth is among the k best candidates when ties
    are broken at random (a uniform prior scores k/K)."""
    own = logits[np.arange(len(truth)), truth][:, None]
    higher = np.sum(logits > own, axis=1)
    tied = np.sum(logits == own, axis=1)  # includes the truth itself
    return np.clip((k - higher) / tied, 0.0, 1.0)


def _rates(broken: np.ndarray, counted: np.ndarray, documents: np.ndarray) -> dict[str, Any]:
    """Document-averaged violation fraction with its Hoeffding bound, and the pair-level rate
    with its Clopper–Pearson bound (which assumes independent pairs)."""
    broken = broken & counted
    per_record = broken.sum(axis=1)
    per_record_pairs = counted.sum(axis=1)
    docs, inverse = np.unique(documents, return_inverse=True)
    counts = np.bincount(inverse, weights=per_record, minlength=len(docs))
    totals = np.bincount(inverse, weights=per_record_pairs, minlength=len(docs))
    present = totals > 0
    fractions = counts[present] / totals[present]
    rate = float(fractions.mean()) if len(fractions) else 0.0
    violated, pairs = int(per_record.sum()), int(per_record_pairs.sum())
    return {
        "rate": rate,
        "bound99": hoeffding_upper(rate, len(fractions), 1 - CONFIDENCE),
        "pair_rate": violated / max(1, pairs),
        "pair_cp99": clopper_pearson_upper(violated, pairs, CONFIDENCE),
        "release_rate": float(np.mean(per_record > 0)) if len(per_record) else 0.0,
        "documents": int(len(fractions)),
    }
