"""The spec's test vectors (privacy-mechanisms.md §4) for SanText, CusText and CluSanT."""

from __future__ import annotations

import numpy as np
import pytest

from anonymizer.token_dp.clustering import clusant_epsilon
from anonymizer.token_dp.sampling import (
    clusant_cluster_log_probs,
    clusant_log_probs,
    clusant_token_log_probs,
    custext_log_probs,
    pushed_embeddings,
    santext_log_probs,
)

ATOL = 1e-6


def distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Euclidean distances computed directly (not with the package's helper)."""
    return np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)


SANTEXT_F = np.array([[0.0], [1.0], [3.0]])
CLUSANT_F = np.array([[0.0], [1.0], [10.0], [11.0]])
CLUSANT_LABELS = np.array([0, 0, 1, 1])
CLUSANT_CENTROIDS = np.array([[0.5], [10.5]])


def max_log_ratio_per_distance(log_probs: np.ndarray, distances: np.ndarray) -> float:
    """sup over x ≠ x′ and y of |ln Pr[y|x] − ln Pr[y|x′]| / dist(x, x′)."""
    worst = 0.0
    n = len(log_probs)
    for i in range(n):
        for j in range(n):
            if i != j:
                worst = max(worst, np.abs(log_probs[i] - log_probs[j]).max() / distances[i, j])
    return worst


def test_santext_rows_match_the_spec() -> None:
    probs = np.exp(santext_log_probs(distances(SANTEXT_F, SANTEXT_F), 2.0))
    expected = [
        [0.705385, 0.259496, 0.035119],
        [0.244728, 0.665241, 0.090031],
        [0.042010, 0.114195, 0.843795],
    ]
    np.testing.assert_allclose(probs, expected, atol=ATOL)


def test_santext_is_eps_d_private_on_the_spec_example() -> None:
    log_probs = santext_log_probs(distances(SANTEXT_F, SANTEXT_F), 2.0)
    ratio = max_log_ratio_per_distance(log_probs, distances(SANTEXT_F, SANTEXT_F))
    assert ratio == pytest.approx(1.1189, abs=1e-4)
    assert ratio <= 2.0


def test_custext_row_matches_the_spec() -> None:
    probs = np.exp(
        custext_log_probs(distances(SANTEXT_F[:1], SANTEXT_F), np.array([0]), np.zeros(3), 2.0)
    )
    np.testing.assert_allclose(probs, [[0.479752, 0.343757, 0.176491]], atol=ATOL)


def test_custext_never_leaves_the_cluster_and_a_singleton_keeps_its_token() -> None:
    labels = np.array([0, 0, 1])
    probs = np.exp(custext_log_probs(distances(SANTEXT_F, SANTEXT_F), labels, labels, 2.0))
    assert probs[0, 2] == 0.0 and probs[1, 2] == 0.0
    np.testing.assert_allclose(probs[2], [0.0, 0.0, 1.0])
    np.testing.assert_allclose(probs.sum(axis=1), 1.0)


def test_clusant_pushed_embeddings_and_cluster_distance_match_the_spec() -> None:
    pushed = pushed_embeddings(CLUSANT_F, CLUSANT_LABELS, CLUSANT_CENTROIDS, 2.0)
    np.testing.assert_allclose(pushed.ravel(), [0.5, 1.5, 20.5, 21.5], atol=ATOL)
    d_c = 2.0 * distances(CLUSANT_CENTROIDS, CLUSANT_CENTROIDS)[0, 1]
    assert d_c == pytest.approx(20.0, abs=ATOL)


def test_clusant_stages_and_full_row_match_the_spec() -> None:
    delta_u = max(1.0, distances(CLUSANT_F, CLUSANT_F).max())
    assert delta_u == 11.0
    clusters = np.exp(clusant_cluster_log_probs(np.array([0]), CLUSANT_CENTROIDS, 2.0, 2.0))
    np.testing.assert_allclose(clusters, [[0.999955, 0.000045]], atol=ATOL)
    stage2 = np.exp(
        clusant_token_log_probs(distances(CLUSANT_F[:1], CLUSANT_F), CLUSANT_LABELS, 2.0, delta_u)
    )
    np.testing.assert_allclose(stage2[0, :2], [0.511362, 0.488638], atol=ATOL)
    full = np.exp(
        clusant_log_probs(
            distances(CLUSANT_F[:1], CLUSANT_F),
            np.array([0]),
            CLUSANT_LABELS,
            CLUSANT_CENTROIDS,
            2.0,
            2.0,
            delta_u,
        )
    )
    np.testing.assert_allclose(full, [[0.511338, 0.488616, 0.000023, 0.000022]], atol=ATOL)


def test_clusant_is_eps_metric_private_wrt_pushed_distance_on_the_spec_example() -> None:
    log_probs = clusant_log_probs(
        distances(CLUSANT_F, CLUSANT_F),
        CLUSANT_LABELS,
        CLUSANT_LABELS,
        CLUSANT_CENTROIDS,
        2.0,
        2.0,
        11.0,
    )
    pushed = pushed_embeddings(CLUSANT_F, CLUSANT_LABELS, CLUSANT_CENTROIDS, 2.0)
    ratio = max_log_ratio_per_distance(log_probs, distances(pushed, pushed))
    assert ratio == pytest.approx(0.5263, abs=1e-4)
    # The whole-space bound for k = 2, Δu = 11: (ε/2)·√((k/(k−1))² + 1/Δu²) ≈ 2.0041.
    assert ratio <= clusant_epsilon(2.0, 2.0, 11.0, 2)


def test_clusant_with_infinite_push_keeps_the_cluster() -> None:
    full = np.exp(
        clusant_log_probs(
            distances(CLUSANT_F[:1], CLUSANT_F),
            np.array([0]),
            CLUSANT_LABELS,
            CLUSANT_CENTROIDS,
            2.0,
            np.inf,
            11.0,
        )
    )
    np.testing.assert_allclose(full, [[0.511362, 0.488638, 0.0, 0.0]], atol=ATOL)


def test_infinite_epsilon_keeps_every_token() -> None:
    probs = np.exp(santext_log_probs(distances(SANTEXT_F, SANTEXT_F), np.inf))
    np.testing.assert_allclose(probs, np.eye(3))


def test_clusant_stage_two_normalises_each_cluster_separately() -> None:
    rng = np.random.default_rng(0)
    emb = rng.normal(size=(11, 3))
    labels = np.array([2, 0, 1, 2, 2, 0, 1, 1, 0, 2, 1])  # unsorted on purpose
    d = distances(emb[:4], emb)
    rows = clusant_token_log_probs(d, labels, 3.0, 2.5)
    for cluster in range(3):
        members = labels == cluster
        weights = np.exp(-3.0 * d[:, members] / (4 * 2.5))
        expected = np.log(weights / weights.sum(axis=1, keepdims=True))
        np.testing.assert_allclose(rows[:, members], expected, atol=1e-12)
