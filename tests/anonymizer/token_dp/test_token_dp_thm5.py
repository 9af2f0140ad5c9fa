"""CluSanT's Theorem 5 check: it flags violating clusterings and its constant L is a valid bound."""

from __future__ import annotations

import numpy as np
import pytest

from anonymizer.token_dp.clustering import (
    check_thm5,
    cluster_centroids,
    extend_thm5_check,
    greedy_clusters,
)
from anonymizer.token_dp.sampling import clusant_log_probs, pairwise_distances, pushed_embeddings


def exact_constant(emb: np.ndarray, labels: np.ndarray, k: float, eps: float) -> float:
    """max |ln Pr[y|x] − ln Pr[y|x′]| / (ε·d_c(f′x, f′x′)) by brute force."""
    centroids = cluster_centroids(emb, labels)
    delta_u = max(1.0, pairwise_distances(emb, emb).max())
    log_probs = clusant_log_probs(
        pairwise_distances(emb, emb), labels, labels, centroids, eps, k, delta_u
    )
    pushed = pushed_embeddings(emb, labels, centroids, k)
    dc = pairwise_distances(pushed, pushed)
    worst = 0.0
    for i in range(len(emb)):
        for j in range(len(emb)):
            if i != j:
                worst = max(worst, np.abs(log_probs[i] - log_probs[j]).max() / (eps * dc[i, j]))
    return worst


def test_it_flags_a_clustering_that_violates_condition_2() -> None:
    # k = 1: 1.0 and 1.2 are 0.2 apart but sit in clusters whose centres are 2.6 apart.
    emb = np.array([[0.0], [1.0], [1.2], [5.0]])
    labels = np.array([0, 0, 1, 1])
    check = check_thm5(emb, labels, cluster_centroids(emb, labels), 1.0, 5.0)
    assert not check.condition2_holds
    assert not check.holds
    assert check.condition2_violations >= 1
    assert check.condition2_max > 1.0
    assert check.realised_constant > 1.0


def test_it_accepts_well_separated_clusters_pushed_apart() -> None:
    emb = np.array([[0.0], [1.0], [10.0], [11.0]])
    labels = np.array([0, 0, 1, 1])
    check = check_thm5(emb, labels, cluster_centroids(emb, labels), 2.0, 11.0)
    assert check.holds
    assert check.n_pairs == 6
    assert check.condition2_max == pytest.approx(21 / 38)
    assert check.realised_constant == pytest.approx((20 + 9 / 11) / 38)


def test_condition_1_violation_is_counted() -> None:
    # Cross-cluster pair at f′-distance 0.5 < 1 while d = 0.9 > 0.5.
    emb = np.array([[0.0], [0.9]])
    labels = np.array([0, 1])
    centroids = np.array([[0.3], [0.2]])  # centres chosen by hand (not means) to force it
    check = check_thm5(emb, labels, centroids, 5.0, 1.0)
    pushed = pushed_embeddings(emb, labels, centroids, 5.0)
    assert abs(pushed[0, 0] - pushed[1, 0]) == pytest.approx(0.5)
    assert not check.condition1_holds


@pytest.mark.parametrize("k", [1.0, 2.0, 8.0])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_realised_constant_bounds_the_true_privacy_loss(k: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    emb = rng.normal(size=(9, 2))
    labels = greedy_clusters(emb, 3, rng)
    check = check_thm5(
        emb, labels, cluster_centroids(emb, labels), k, max(1.0, pairwise_distances(emb, emb).max())
    )
    true_constant = exact_constant(emb, labels, k, eps=1.5)
    assert true_constant <= check.realised_constant + 1e-9
    if check.holds:
        assert check.realised_constant <= 1.0 + 1e-9


def test_extending_a_check_equals_checking_everything_at_once() -> None:
    rng = np.random.default_rng(3)
    emb = rng.normal(size=(12, 3))
    labels = greedy_clusters(emb[:10], 4, rng)
    centroids = cluster_centroids(emb[:10], labels)
    all_labels = np.concatenate([labels, [0, 1]])
    delta_u = max(1.0, pairwise_distances(emb, emb).max())
    base = check_thm5(emb[:10], labels, centroids, 4.0, delta_u)
    extended = extend_thm5_check(
        base, emb, all_labels, centroids, delta_u, 10, base_delta_u=delta_u
    )
    whole = check_thm5(emb, all_labels, centroids, 4.0, delta_u)
    assert extended == whole


def test_greedy_clusters_have_exactly_h_members_but_the_last() -> None:
    emb = np.random.default_rng(0).normal(size=(23, 4))
    labels = greedy_clusters(emb, 5, np.random.default_rng(0))
    sizes = np.bincount(labels)
    assert list(sizes) == [5, 5, 5, 5, 3]


def test_infinite_push_has_no_theorem() -> None:
    emb = np.array([[0.0], [1.0]])
    with pytest.raises(ValueError, match="finite"):
        check_thm5(emb, np.array([0, 1]), emb, np.inf, 1.0)
