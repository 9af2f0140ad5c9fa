"""The privacy audit's two instruments, checked against the implementation's own sampling code.

1. Exact: for a token mechanism, the whole output distribution of an input is known (the
   sanitizer's `log_probs`, which its rewrite samples from), so the privacy loss between two
   inputs is max_y |log p(y|x) − log p(y|x′)|, computed exactly over the union of their output
   domains (an output only one of them can produce is an infinite loss).
2. Monte Carlo (DP-Sniper / DP-Auditorium style): for a Gaussian release, draw outputs of the
   mechanism's own clip-and-noise function on two neighbouring inputs, pick the likelihood-ratio
   threshold test on a pilot sample, count its rejections on fresh samples and turn the counts
   into a lower bound on ε at δ with Clopper–Pearson intervals (99 % overall, Bonferroni).
   For Gaussians the likelihood ratio is monotone in the projection onto the difference of the
   two means, so thresholding that projection is the optimal test (Neyman–Pearson).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import beta

TOLERANCE = 1e-9
CONFIDENCE = 0.99
MIN_PILOT_COUNT = 25  # a threshold needs this many pilot rejections under the null side


@dataclass(frozen=True)
class Distribution:
    """log Pr[y | x] over labelled outputs (labels align outputs across inputs)."""

    labels: tuple[Hashable, ...]
    log_probs: np.ndarray

    def as_dict(self) -> dict[Hashable, float]:
        return dict(zip(self.labels, self.log_probs.tolist(), strict=True))


def privacy_loss(p: Distribution, q: Distribution) -> float:
    """max over outputs of |log p(y) − log q(y)|; ∞ where only one of them can produce y."""
    a, b = p.as_dict(), q.as_dict()
    worst = 0.0
    for label in a.keys() | b.keys():
        x, y = a.get(label, -math.inf), b.get(label, -math.inf)
        if math.isinf(x) and math.isinf(y):
            continue
        worst = max(worst, abs(x - y))
    return worst


@dataclass(frozen=True)
class Violation:
    index: int
    loss: float
    bound: float

    @property
    def excess(self) -> float:
        return self.loss - self.bound


def audit_pairs(
    distribution: Callable[[np.ndarray], Distribution],
    pairs: Sequence[tuple[np.ndarray, np.ndarray]],
    bound: Callable[[np.ndarray, np.ndarray], float | None],
) -> list[Violation]:
    """Every pair whose exact loss exceeds its claimed bound (+1e-9); `bound` None = no claim."""
    found = []
    for i, (x, x2) in enumerate(pairs):
        claim = bound(x, x2)
        if claim is None:
            continue
        loss = privacy_loss(distribution(x), distribution(x2))
        if not loss <= claim + TOLERANCE:
            found.append(Violation(i, loss, claim))
    return found


# --- Monte Carlo --------------------------------------------------------------------------


def clopper_pearson(k: int, n: int, alpha: float) -> tuple[float, float]:
    """Two one-sided (1 − alpha) bounds on a binomial proportion from k successes in n."""
    low = 0.0 if k == 0 else float(beta.ppf(alpha, k, n - k + 1))
    high = 1.0 if k == n else float(beta.ppf(1 - alpha, k + 1, n - k))
    return low, high


@dataclass(frozen=True)
class MonteCarloResult:
    epsilon_lower_bound: float
    threshold: float
    draws: int
    rejections_null: int  # statistic > threshold on the first input
    rejections_alt: int  # ... on the second input


def best_threshold(null: np.ndarray, alt: np.ndarray, delta: float) -> float:
    """The threshold τ maximising the empirical ln((P̂_alt[T>τ] − δ)/P̂_null[T>τ]) on a pilot."""
    null, alt = np.sort(null), np.sort(alt)
    n = len(null)
    candidates = null[: n - MIN_PILOT_COUNT][::-1][:: max(1, n // 4000)]
    best, best_tau = -math.inf, float(candidates[0])
    for tau in candidates:
        p0 = (n - np.searchsorted(null, tau, side="right")) / n
        p1 = (len(alt) - np.searchsorted(alt, tau, side="right")) / len(alt)
        if p0 > 0 and p1 - delta > 0:
            value = math.log((p1 - delta) / p0)
            if value > best:
                best, best_tau = value, float(tau)
    return best_tau


def epsilon_lower_bound(
    statistic: Callable[[int], tuple[np.ndarray, np.ndarray]],
    draws: int,
    delta: float,
    *,
    pilot: int | None = None,
    confidence: float = CONFIDENCE,
) -> MonteCarloResult:
    """A (confidence)-level lower bound on the ε at δ of the mechanism behind `statistic`.

    `statistic(n)` returns n test statistics from each of the two neighbouring inputs (fresh
    mechanism draws each call); large values point to the second input.
    """
    null, alt = statistic(pilot or max(20_000, draws // 10))
    tau = best_threshold(null, alt, delta)
    null, alt = statistic(draws)
    k0, k1 = int(np.sum(null > tau)), int(np.sum(alt > tau))
    alpha = (1 - confidence) / 2  # Bonferroni over the two proportions
    p0_high = clopper_pearson(k0, draws, alpha)[1]
    p1_low = clopper_pearson(k1, draws, alpha)[0]
    bound = math.log((p1_low - delta) / p0_high) if p1_low > delta else 0.0
    return MonteCarloResult(max(0.0, bound), tau, draws, k0, k1)


def projection_statistic(
    release: Callable[[np.ndarray], np.ndarray],
    inputs: tuple[np.ndarray, np.ndarray],
    centres: tuple[np.ndarray, np.ndarray],
    *,
    batch: int = 50_000,
) -> Callable[[int], tuple[np.ndarray, np.ndarray]]:
    """T = Σ_k ⟨M(x)_k, v_k⟩ over a document's K chunks, v_k = (c2_k − c1_k)/‖c2_k − c1_k‖.

    `release(documents)` is the mechanism on a (n, K, dim) batch of copies of one document;
    `inputs` are the two (K, dim) documents as given to it, `centres` what they become
    before the noise (after clipping).
    """
    first, second = centres
    direction = second - first
    direction = direction / np.linalg.norm(direction, axis=-1, keepdims=True)

    def draw(n: int) -> tuple[np.ndarray, np.ndarray]:
        out = []
        for document in inputs:
            values = []
            for start in range(0, n, batch):
                size = min(batch, n - start)
                noisy = release(np.broadcast_to(document, (size, *document.shape)).copy())
                values.append(np.einsum("nkd,kd->n", noisy, direction))
            out.append(np.concatenate(values))
        return out[0], out[1]

    return draw
