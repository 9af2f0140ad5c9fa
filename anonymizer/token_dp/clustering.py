"""Public clusters for CusText and CluSanT, and the input → cluster map for every input point.

Clustering (CusText, also used by CluSanT's paper): pick an unassigned candidate at random; its
cluster is it plus its h − 1 nearest unassigned candidates; repeat until none is left. The
greedy clusters' means become fixed public *reference points* C_1..C_c, and every point x of
the embedding space, public candidate or document string, belongs to the cluster of its
nearest reference point (its Voronoi cell). Output clusters are the public candidates of each
cell, so input and output assignment agree and the map is a public deterministic function of
x, defined everywhere: what CluSanT's whole-space bound (`clusant_epsilon`) and CusText's
within-cluster LDP need. Cells without a public candidate are dropped.
"""

from __future__ import annotations

import math

import numpy as np

from anonymizer.token_dp.sampling import pairwise_distances, pushed_embeddings


def cluster_size_for(n_candidates: int, n_clusters: int, cluster_size: int | None) -> int:
    """h: the explicit cluster size, else ⌈n / n_clusters⌉ (at least 1)."""
    if cluster_size is not None:
        return max(1, cluster_size)
    return max(1, math.ceil(n_candidates / max(1, n_clusters)))


def planned_cluster_count(n_candidates: int, n_clusters: int, cluster_size: int | None) -> int:
    """How many greedy clusters n candidates give (Voronoi cells can only be fewer)."""
    return math.ceil(n_candidates / cluster_size_for(n_candidates, n_clusters, cluster_size))


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
    """The input → cluster map: index of the nearest reference point (first one on ties)."""
    return np.argmin(pairwise_distances(embeddings, centroids), axis=1)


def voronoi_clusters(
    embeddings: np.ndarray, centroids: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Labels of the public candidates by nearest reference point, and the reference points
    whose cells hold at least one candidate (dropping one only enlarges the other cells)."""
    labels = nearest_centroid(embeddings, centroids)
    used = np.unique(labels)
    if len(used) < len(centroids):
        centroids = centroids[used]
        labels = nearest_centroid(embeddings, centroids)
    return labels, centroids


def public_clusters(
    embeddings: np.ndarray, h: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """(labels, reference points) of a public candidate set: greedy means, then Voronoi cells."""
    greedy = greedy_clusters(embeddings, h, rng)
    return voronoi_clusters(embeddings, cluster_centroids(embeddings, greedy))


def clusant_epsilon(epsilon: float, k: float, delta_u: float, n_clusters: int) -> float:
    """CluSanT's per-token ε′ w.r.t. d′ over the whole embedding space (∞ where none holds).

    For x in cell i, x′ in cell j, w = C_i − C_j: stage 1 costs ≤ (εk/2)·‖w‖, stage 2
    ≤ ε·d(x, x′)/(2Δu). Nearest-centroid assignment gives (x − x′)·w ≥ 0, so with
    f′(x) = x + (k − 1)·C_x, d′(x, x′)² ≥ d(x, x′)² + ((k − 1)‖w‖)², and Cauchy–Schwarz gives
    ε′ = (ε/2)·√((k/(k − 1))² + 1/Δu²). One cluster: no stage-1 cost, ε′ = ε/(2Δu) (d′ = d).
    k = 1 with two or more clusters: no finite bound (points straddling a cell boundary).
    """
    if n_clusters <= 1:
        return epsilon / (2 * delta_u)
    if math.isinf(k) or k <= 1:
        return math.inf
    return epsilon / 2 * math.hypot(k / (k - 1), 1 / delta_u)


def pushed_distance(a: np.ndarray, b: np.ndarray, centroids: np.ndarray, k: float) -> np.ndarray:
    """d′ between the rows of a and b: ‖f′(a) − f′(b)‖ with f′(x) = x + (k − 1)·C(x)."""
    pushed_a = pushed_embeddings(a, nearest_centroid(a, centroids), centroids, k)
    pushed_b = pushed_embeddings(b, nearest_centroid(b, centroids), centroids, k)
    return np.linalg.norm(pushed_a - pushed_b, axis=-1)
