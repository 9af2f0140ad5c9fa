"""The three token mechanisms as log-probability rows, and one vectorised sampler.

Each function takes the distances d(x, y) from every input row x to every candidate y and
returns log Pr[y | x] (−inf where y is unreachable), computed in log space (log-softmax), so a
whole document's tokens are handled in one array operation. Formulas follow the spec (§4):
SanText (Yue et al. 2021), CusText (Chen et al. 2023), CluSanT (Awon et al. 2025, Fig. 2).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import log_softmax


def pairwise_distances(
    a: np.ndarray, b: np.ndarray, b_squared_norms: np.ndarray | None = None
) -> np.ndarray:
    """Euclidean distances between the rows of `a` and of `b` (float64, never negative)."""
    a = np.atleast_2d(np.asarray(a, dtype=np.float64))
    b = np.atleast_2d(np.asarray(b, dtype=np.float64))
    if b_squared_norms is None:
        b_squared_norms = np.einsum("ij,ij->i", b, b)
    squared = np.einsum("ij,ij->i", a, a)[:, None] + b_squared_norms[None, :] - 2.0 * (a @ b.T)
    return np.sqrt(np.maximum(squared, 0.0))


def santext_log_probs(distances: np.ndarray, epsilon: float) -> np.ndarray:
    """SanText: Pr[y | x] ∝ exp(−ε·d(x, y)/2) over all candidates (ε·d metric LDP).

    `distances[i, j]` is d(x_i, y_j); the result has the same shape.
    """
    if math.isinf(epsilon):
        return _argmin_rows(distances)
    return log_softmax(-epsilon * distances / 2.0, axis=1)


def custext_log_probs(
    distances: np.ndarray, x_labels: np.ndarray, labels: np.ndarray, epsilon: float
) -> np.ndarray:
    """CusText: within x's cluster, u = −(d − d_min)/(d_max − d_min), Pr[y | x] ∝ exp(ε·u/2)."""
    same = np.asarray(x_labels)[:, None] == np.asarray(labels)[None, :]
    inside = np.where(same, distances, np.nan)
    d_min = np.nanmin(inside, axis=1, keepdims=True)
    d_max = np.nanmax(inside, axis=1, keepdims=True)
    span = d_max - d_min
    # A cluster whose members are all equally far from x (e.g. a cluster of one) gives u = 0.
    utility = np.where(span > 0, -(distances - d_min) / np.where(span > 0, span, 1.0), 0.0)
    if math.isinf(epsilon):
        return _argmin_rows(np.where(same, -utility, np.inf))
    return log_softmax(np.where(same, epsilon * utility / 2.0, -np.inf), axis=1)


def pushed_embeddings(
    embeddings: np.ndarray, labels: np.ndarray, centroids: np.ndarray, k: float
) -> np.ndarray:
    """CluSanT's f′(x) = k·C_x + (f(x) − C_x): clusters pushed apart by the factor k."""
    own = centroids[np.asarray(labels)]
    return np.asarray(embeddings, dtype=np.float64) + (k - 1.0) * own


def clusant_cluster_log_probs(
    x_labels: np.ndarray, centroids: np.ndarray, k: float, epsilon: float
) -> np.ndarray:
    """Stage 1 (ε/2): Pr[C | x] ∝ exp(−ε·d_c(f′(C_x), f′(C))/4), with f′(C) = k·C."""
    x_labels = np.asarray(x_labels)
    if math.isinf(k) or math.isinf(epsilon):
        rows = np.full((len(x_labels), len(centroids)), -np.inf)
        rows[np.arange(len(x_labels)), x_labels] = 0.0
        return rows
    centroid_distances = k * pairwise_distances(centroids, centroids)
    return log_softmax(-epsilon * centroid_distances[x_labels] / 4.0, axis=1)


def clusant_token_log_probs(
    distances: np.ndarray, labels: np.ndarray, epsilon: float, delta_u: float
) -> np.ndarray:
    """Stage 2 (ε/2): within each cluster C, Pr[y | x, C] ∝ exp(−ε·d(x, y)/(4·Δu))."""
    if math.isinf(epsilon):
        nearest = np.full(distances.shape, -np.inf)
        for cluster in np.unique(labels):
            members = labels == cluster
            nearest[:, members] = _argmin_rows(distances[:, members])
        return nearest
    return _log_softmax_by_group(-epsilon * distances / (4.0 * delta_u), np.asarray(labels))


def clusant_log_probs(
    distances: np.ndarray,
    x_labels: np.ndarray,
    labels: np.ndarray,
    centroids: np.ndarray,
    epsilon: float,
    k: float,
    delta_u: float,
) -> np.ndarray:
    """CluSanT (Fig. 2): log Pr[y | x] = log Pr[C_y | x] + log Pr[y | x, C_y]."""
    cluster_rows = clusant_cluster_log_probs(x_labels, centroids, k, epsilon)
    token_rows = clusant_token_log_probs(distances, labels, epsilon, delta_u)
    return cluster_rows[:, np.asarray(labels)] + token_rows


def _log_softmax_by_group(scores: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """log_softmax of each row within each group of columns, all groups at once."""
    order = np.argsort(groups, kind="stable")
    ordered = scores[:, order]
    _, starts, group_of = np.unique(groups[order], return_index=True, return_inverse=True)
    peaks = np.maximum.reduceat(ordered, starts, axis=1)
    shifted = ordered - peaks[:, group_of]
    totals = np.log(np.add.reduceat(np.exp(shifted), starts, axis=1))
    result = np.empty_like(scores)
    result[:, order] = shifted - totals[:, group_of]
    return result


def diameter(embeddings: np.ndarray, block: int = 1024) -> float:
    """Largest Euclidean distance between two rows (0 for fewer than two rows)."""
    n = len(embeddings)
    best = 0.0
    for start in range(0, n, block):
        best = max(
            best,
            float(
                pairwise_distances(embeddings[start : start + block], embeddings).max(initial=0.0)
            ),
        )
    return best


def sample_rows(log_probs: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One draw per row from its categorical distribution (Gumbel-max trick, exact)."""
    if log_probs.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    noisy = log_probs + rng.gumbel(size=log_probs.shape)
    return np.argmax(noisy, axis=1)


def _argmin_rows(distances: np.ndarray) -> np.ndarray:
    """The ε = ∞ limit: uniform over each row's nearest candidates."""
    nearest = distances <= distances.min(axis=1, keepdims=True)
    share = -np.log(nearest.sum(axis=1, keepdims=True))
    return np.where(nearest, share, -np.inf)
