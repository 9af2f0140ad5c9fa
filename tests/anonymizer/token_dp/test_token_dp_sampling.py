"""Empirical replacement frequencies match the mechanisms' distributions (α = 0.001).

Expected probabilities are recomputed here from the spec's formulas, independently of the
package's code; a test fails with probability at most 0.001 when the sampler is right
(`tests.frequencies` pools outputs too rare for chi-square and tests them exactly).
"""

from __future__ import annotations

import numpy as np

from anonymizer.settings import Settings
from anonymizer.token_dp.candidates import generate_strings
from anonymizer.token_dp.sampling import (
    custext_log_probs,
    pairwise_distances,
    sample_rows,
    santext_log_probs,
)
from anonymizer.token_dp.sanitizer import TokenSanitizer
from anonymizer.types import Detection
from tests.frequencies import frequency_pvalue

ALPHA = 0.001


def assert_frequencies_match(draws: np.ndarray, probs: np.ndarray) -> None:
    counts = np.bincount(draws, minlength=len(probs))
    keep = probs > 0
    assert counts[~keep].sum() == 0, "drew an impossible candidate"
    assert frequency_pvalue(counts[keep], probs[keep]) > ALPHA


def santext_probs(x: np.ndarray, cands: np.ndarray, eps: float) -> np.ndarray:
    weights = np.exp(-eps * np.linalg.norm(cands - x, axis=1) / 2)
    return weights / weights.sum()


def custext_probs(x: np.ndarray, cands: np.ndarray, same: np.ndarray, eps: float) -> np.ndarray:
    d = np.linalg.norm(cands - x, axis=1)
    inside = d[same]
    u = -(d - inside.min()) / (inside.max() - inside.min())
    weights = np.where(same, np.exp(eps * u / 2), 0.0)
    return weights / weights.sum()


def clusant_probs(x, label, cands, labels, centroids, eps, k) -> np.ndarray:  # type: ignore[no-untyped-def]
    delta_u = max(1.0, max(np.linalg.norm(a - b) for a in cands for b in cands))
    cluster_w = np.exp(-eps * k * np.linalg.norm(centroids - centroids[label], axis=1) / 4)
    cluster_p = cluster_w / cluster_w.sum()
    token_w = np.exp(-eps * np.linalg.norm(cands - x, axis=1) / (4 * delta_u))
    probs = np.zeros(len(cands))
    for c in range(len(centroids)):
        members = labels == c
        probs[members] = cluster_p[c] * token_w[members] / token_w[members].sum()
    return probs


def test_sampler_matches_santext_spec_rows() -> None:
    f = np.array([[0.0], [1.0], [3.0]])
    rows = santext_log_probs(pairwise_distances(f, f), 2.0)
    rng = np.random.default_rng(12345)
    for i, expected in enumerate(
        [
            [0.705385, 0.259496, 0.035119],
            [0.244728, 0.665241, 0.090031],
            [0.042010, 0.114195, 0.843795],
        ]
    ):
        draws = sample_rows(np.repeat(rows[i : i + 1], 20_000, axis=0), rng)
        assert_frequencies_match(draws, np.array(expected))


def test_sampler_matches_custext_spec_row() -> None:
    f = np.array([[0.0], [1.0], [3.0]])
    row = custext_log_probs(pairwise_distances(f[:1], f), np.array([0]), np.zeros(3), 2.0)
    draws = sample_rows(np.repeat(row, 20_000, axis=0), np.random.default_rng(7))
    assert_frequencies_match(draws, np.array([0.479752, 0.343757, 0.176491]))


def test_sampler_would_notice_a_wrong_distribution() -> None:
    f = np.array([[0.0], [1.0], [3.0]])
    draws = sample_rows(
        np.repeat(santext_log_probs(pairwise_distances(f[:1], f), 2.0), 20_000, axis=0),
        np.random.default_rng(1),
    )
    counts = np.bincount(draws, minlength=3)
    wrong = np.array([0.479752, 0.343757, 0.176491])  # CusText's row instead
    assert frequency_pvalue(counts, wrong) < ALPHA


def _draw_through_mechanism(variant: str, embedder, n_docs: int, **settings):  # type: ignore[no-untyped-def]
    """Rewrite n_docs copies of one document; each copy makes one independent draw.

    The name is not among the 6 public candidates: it is an input only, never an output.
    """
    text = "Report filed by Zelda Quartermaine today."
    start = text.index("Zelda")
    gold = [Detection(start, start + 18, "full person name", "[PERSON]", "gold")]
    s = Settings(mechanism=variant, detector="gold", candidates_per_category=6, **settings)
    sanitizer = TokenSanitizer(variant, embedder)
    results = sanitizer.rewrite_many([text] * n_docs, s, golds=[gold] * n_docs)
    strings = generate_strings("full person name", 6)
    assert "Zelda Quartermaine" not in strings
    picks = np.array([strings.index(r.spans[1].rewritten) for r in results])
    cands = embedder.encode(strings)
    x = embedder.encode(["Zelda Quartermaine"])[0]
    return picks, cands, x, sanitizer.public_domain("full person name", s)


def test_santext_rewrites_follow_the_exponential_mechanism(embedder) -> None:  # type: ignore[no-untyped-def]
    picks, cands, x, _ = _draw_through_mechanism("santext", embedder, 3000, epsilon=3.0)
    assert_frequencies_match(picks, santext_probs(x, cands, 3.0))


def test_custext_rewrites_follow_the_within_cluster_mechanism(embedder) -> None:  # type: ignore[no-untyped-def]
    picks, cands, x, public = _draw_through_mechanism(
        "custext", embedder, 3000, epsilon=3.0, cluster_size=3
    )
    x_label = np.argmin(np.linalg.norm(public.centroids - x, axis=1))
    assert_frequencies_match(picks, custext_probs(x, cands, public.labels == x_label, 3.0))


def test_clusant_rewrites_follow_the_two_stage_mechanism(embedder) -> None:  # type: ignore[no-untyped-def]
    picks, cands, x, public = _draw_through_mechanism(
        "clusant", embedder, 3000, epsilon=3.0, cluster_size=3, cluster_push=2.0
    )
    x_label = int(np.argmin(np.linalg.norm(public.centroids - x, axis=1)))
    probs = clusant_probs(x, x_label, cands, public.labels, public.centroids, 3.0, 2.0)
    assert_frequencies_match(picks, probs)
