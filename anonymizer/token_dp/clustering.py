"""CusText's clustering and CluSanT's Theorem 5 check on a clustering.

Clustering (CusText, also used by CluSanT's paper): pick an unassigned token at random; its
cluster is it plus its h − 1 nearest unassigned tokens; repeat until none is left.

Theorem 5 (CluSanT) gives ε-metric LDP w.r.t. d_c on the pushed embeddings f′ when, for all
x ≠ x′: (1) d_c(f′x, f′x′) ≥ 1 or ≥ d(x, x′), and (2) C_x ≠ C_x′ ⇒ d_c(C_x, C_x′) + 1 ≤
2·d_c(f′x, f′x′), with d_c(C_x, C_x′) = k·‖C_x − C_x′‖. Besides the two conditions we report
the realised constant L: the exponential mechanism's own bounds give, for every pair,
    |ln Pr[y|x] − ln Pr[y|x′]| ≤ (ε/2)·(d_c(C_x, C_x′) + d(x, x′)/Δu),
so the mechanism is (L·ε)-metric LDP w.r.t. d_c on f′ with
    L = max_{x≠x′} (d_c(C_x, C_x′) + d(x, x′)/Δu) / (2·d_c(f′x, f′x′)),
a bound that holds for any clustering (L ≤ 1 whenever the conditions hold).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from anonymizer.token_dp.sampling import pairwise_distances, pushed_embeddings

TOLERANCE = 1e-9


def cluster_size_for(n_candidates: int, n_clusters: int, cluster_size: int | None) -> int:
    """h: the explicit cluster size, else ⌈n / n_clusters⌉ (at least 1)."""
    if cluster_size is not None:
        return max(1, cluster_size)
    return max(1, math.ceil(n_candidates / max(1, n_clusters)))


def greedy_clusters(embeddings: np.ndarray, h: int, rng: np.random.Generator) -> np.ndarray:
    """CusText clustering: labels 0..c−1, every cluster of exactly h tokens but the last."""
    n = len(embeddings)
    labels = np.full(n, -1, dtype=np.int64)
    unassigned = np.ones(n, dtype=bool)
    cluster = 0
    while unassigned.any():
        pool = np.flatnonzero(unassigned)
        pick = int(rng.choice(pool))
        distances = pairwise_distances(embeddings[pick], embeddings[pool])[0]
        distances[pool == pick] = -1.0  # the picked token always belongs to its own cluster
        members = pool[np.argsort(distances, kind="stable")[:h]]
        labels[members] = cluster
        unassigned[members] = False
        cluster += 1
    return labels


def cluster_centroids(embeddings: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """C = the mean embedding of each cluster, in label order."""
    n_clusters = int(labels.max()) + 1 if len(labels) else 0
    sums = np.zeros((n_clusters, embeddings.shape[1]))
    np.add.at(sums, labels, embeddings)
    counts = np.bincount(labels, minlength=n_clusters)[:, None]
    return sums / counts


def nearest_centroid(embeddings: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    return np.argmin(pairwise_distances(embeddings, centroids), axis=1)


@dataclass(frozen=True)
class Thm5Check:
    """The result of checking CluSanT's Theorem 5 on a clustering (see the module docstring)."""

    k: float
    n_points: int
    n_pairs: int
    condition1_violations: int
    condition2_violations: int
    condition1_min: float  # min over cross-cluster pairs of max(d_c(f′), d_c(f′)/d): ≥ 1
    condition2_max: float  # max over cross-cluster pairs of (d_c(C) + 1)/(2·d_c(f′)): ≤ 1
    realised_constant: float  # L: the mechanism is (L·ε)-metric LDP w.r.t. d_c on f′
    exact: bool = True  # False when L was bounded from a smaller Δu (see `extend_thm5_check`)

    @property
    def condition1_holds(self) -> bool:
        return self.condition1_violations == 0

    @property
    def condition2_holds(self) -> bool:
        return self.condition2_violations == 0

    @property
    def holds(self) -> bool:
        return self.condition1_holds and self.condition2_holds

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(
            condition1_holds=self.condition1_holds,
            condition2_holds=self.condition2_holds,
            theorem5_holds=self.holds,
        )
        return data


def check_thm5(
    embeddings: np.ndarray,
    labels: np.ndarray,
    centroids: np.ndarray,
    k: float,
    delta_u: float,
    *,
    start: int = 0,
    block: int = 512,
    pushed: np.ndarray | None = None,
) -> Thm5Check:
    """Check conditions (1), (2) and compute L over the pairs (i, j), j < i, start ≤ i < n.

    `pushed` may pass f′ of all the points when the caller already has it.
    """
    if math.isinf(k):
        raise ValueError("Theorem 5 needs a finite push factor k (k = inf gives no MLDP)")
    embeddings = np.asarray(embeddings, dtype=np.float64)
    labels = np.asarray(labels)
    if pushed is None:
        pushed = pushed_embeddings(embeddings, labels, centroids, k)
    centroid_distances = k * pairwise_distances(centroids, centroids)
    n = len(embeddings)
    n_pairs = violations1 = violations2 = 0
    min1, max2, constant = math.inf, 0.0, 0.0
    for lo in range(max(start, 1), n, block):
        hi = min(n, lo + block)
        rows = np.arange(lo, hi)
        d = pairwise_distances(embeddings[lo:hi], embeddings[:hi])
        dc = pairwise_distances(pushed[lo:hi], pushed[:hi])
        dcc = centroid_distances[labels[lo:hi][:, None], labels[None, :hi]]
        pair = np.arange(hi)[None, :] < rows[:, None]
        cross = pair & (labels[lo:hi][:, None] != labels[None, :hi])
        n_pairs += int(pair.sum())

        ok1 = (dc >= 1.0 - TOLERANCE) | (dc >= d * (1.0 - TOLERANCE))
        violations1 += int((pair & ~ok1).sum())
        with np.errstate(divide="ignore", invalid="ignore"):
            margin1 = np.maximum(dc, np.where(d > 0, dc / d, np.inf))
            ratio2 = (dcc + 1.0) / (2.0 * dc)
            bound = (dcc + d / delta_u) / (2.0 * dc)
        # Within a cluster d_c(f′) = d, so (1) holds there with equality: report cross pairs.
        min1 = min(min1, float(np.min(margin1, where=cross, initial=np.inf)))
        violations2 += int((cross & (dcc + 1.0 > 2.0 * dc * (1.0 + TOLERANCE))).sum())
        max2 = max(max2, float(np.max(ratio2, where=cross, initial=0.0)))
        # A pair at distance 0 in f′ with nothing to bound (0/0) costs nothing.
        bound = np.where((dc == 0) & (dcc + d == 0), 0.0, bound)
        constant = max(constant, float(np.max(bound, where=pair, initial=0.0)))
    return Thm5Check(k, n, n_pairs, violations1, violations2, min1, max2, constant)


def extend_thm5_check(
    base: Thm5Check,
    embeddings: np.ndarray,
    labels: np.ndarray,
    centroids: np.ndarray,
    delta_u: float,
    n_base: int,
    *,
    base_delta_u: float,
    pushed: np.ndarray | None = None,
) -> Thm5Check:
    """Add the pairs involving the points after `n_base` to a check of the first `n_base`.

    The base pairs' L was computed with `base_delta_u` ≤ `delta_u`; a smaller Δu only makes
    their bound larger, so the merged L is still a valid (possibly loose) upper bound.
    """
    new = check_thm5(embeddings, labels, centroids, base.k, delta_u, start=n_base, pushed=pushed)
    return Thm5Check(
        base.k,
        len(embeddings),
        base.n_pairs + new.n_pairs,
        base.condition1_violations + new.condition1_violations,
        base.condition2_violations + new.condition2_violations,
        min(base.condition1_min, new.condition1_min),
        max(base.condition2_max, new.condition2_max),
        max(base.realised_constant, new.realised_constant),
        exact=base.exact and (new.n_pairs == 0 or math.isclose(delta_u, base_delta_u)),
    )
