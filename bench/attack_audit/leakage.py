"""Seed 004's leakage measures: mPL, PBmPL violation rates and their confidence bounds.

mPL(x_i, x_j, y) = |ln(Pr[x_i|y]/Pr[x_j|y]) − ln(π_i/π_j)| / d(x_i, x_j) (Def. 2), which is
|λ_i − λ_j| / d_ij for the log-likelihood ratio λ = log posterior − log prior the observation
added. A pair where exactly one candidate is impossible has mPL = ∞; a pair where both are
impossible reveals nothing about their odds and counts as 0 (the convention of clipped
posteriors, seed 004 A1).

PBmPL (Def. 4): p = Pr[mPL > ε] over sampled (x_i, x_j, y). Confidence (appendix D.4,
Prop. 4): if p̂ = ξδ over S independent samples, Pr[p ≤ δ] ≥ 1 − 2·exp(−2S(1−ξ)²δ²); the
one-sided form used for an upper bound at level 1 − β is p ≤ p̂ + √(ln(1/β)/(2S)). Pairs of
one document share its observation, so they are not independent; the audit therefore treats
the *document* as the sample (documents are drawn independently), takes each document's
violation fraction (a bounded variable in [0, 1]) and applies the bound with S = number of
documents. The exact Clopper–Pearson bound over pairs (the spec's tighter option) is also
reported, labelled as assuming independent pairs.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import binomtest

TOLERANCE = 1e-9


def pair_indices(size: int) -> tuple[np.ndarray, np.ndarray]:
    """All pairs i < j of a candidate set of `size`."""
    return np.triu_indices(size, k=1)


def log_odds_shift(observation: np.ndarray, pairs: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """|λ_i − λ_j| for every record (rows) and pair (columns); ∞ / 0 as the module says."""
    first, second = observation[:, pairs[0]], observation[:, pairs[1]]
    finite_first, finite_second = np.isfinite(first), np.isfinite(second)
    with np.errstate(invalid="ignore"):
        shift = np.abs(first - second)
    shift = np.where(finite_first & finite_second, shift, np.inf)
    return np.where(~finite_first & ~finite_second, 0.0, shift)


def mpl(shift: np.ndarray, distances: np.ndarray) -> np.ndarray:
    """shift / d, with 0/0 = 0 (identical candidates) and x/0 = ∞."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = shift / distances
    return np.where(shift == 0, 0.0, value)


def violations(shift: np.ndarray, claim: np.ndarray) -> np.ndarray:
    """Whether |λ_i − λ_j| exceeds the claimed bound ε·d (+1e-9, float slack)."""
    return shift > claim + TOLERANCE


def sup_mpl_per_output(
    log_likelihood: np.ndarray, distances: np.ndarray, log_prior: np.ndarray | None = None
) -> np.ndarray:
    """sup over pairs of mPL for each output y of one release (spec §5). The prior cancels."""
    del log_prior  # mPL of one release does not depend on the prior (seed 004 Prop. 2)
    pairs = pair_indices(log_likelihood.shape[0])
    shift = log_odds_shift(log_likelihood.T, pairs)  # rows: outputs
    return mpl(shift, distances[pairs][None, :]).max(axis=1)


def release_violation_probability(
    log_likelihood: np.ndarray, distances: np.ndarray, prior: np.ndarray, target: float
) -> float:
    """p = Pr_{X~π, Y~M(X)}[sup-mPL(Y) > target] for one release (spec §5's vectors)."""
    prior = np.asarray(prior, dtype=np.float64)
    output_probability = prior @ np.exp(log_likelihood)
    sup = sup_mpl_per_output(log_likelihood, distances)
    return float(output_probability[sup > target].sum())


def hoeffding_upper(mean: float, samples: int, beta: float = 0.01) -> float:
    """One-sided Hoeffding bound (appendix D.4): p ≤ mean + √(ln(1/β)/(2S)) w.p. ≥ 1 − β."""
    if samples <= 0:
        return 1.0
    return min(1.0, mean + math.sqrt(math.log(1 / beta) / (2 * samples)))


def hoeffding_confidence(samples: int, delta: float, xi: float) -> float:
    """Prop. 4: Pr[p ≤ δ] ≥ 1 − 2·exp(−2S(1−ξ)²δ²) when p̂ = ξδ."""
    return 1 - 2 * math.exp(-2 * samples * (1 - xi) ** 2 * delta**2)


def samples_needed(delta: float, xi: float, beta: float) -> int:
    """The S for which Prop. 4 gives confidence 1 − β: S ≥ ln(2/β)/(2(1−ξ)²δ²)."""
    return math.ceil(math.log(2 / beta) / (2 * (1 - xi) ** 2 * delta**2))


def clopper_pearson_upper(successes: int, trials: int, confidence: float = 0.99) -> float:
    """Exact one-sided upper bound on a binomial proportion (scipy's binomtest)."""
    if trials <= 0:
        return 1.0
    test = binomtest(successes, trials, alternative="less")
    return float(test.proportion_ci(confidence_level=confidence, method="exact").high)
