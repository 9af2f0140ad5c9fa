"""Gaussian releases under audit: the mechanism's own clip-and-noise on two neighbouring documents.

The two documents' chunk embeddings are antipodal points of norm 2C, so after clipping each
chunk pair is 2C apart (the worst case the sensitivity assumes); the noise comes from
`anonymizer.mechanisms.gaussian_noise.clip_and_noise`, as in every real release. The
Gaussian's privacy loss depends only on ‖c₁ − c₂‖/σ, so a small embedding dimension audits the
same claim as 768 at a fraction of the cost; the direction is spread over every coordinate.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from anonymizer.accounting import NoisePlan, plan_gaussian_noise
from anonymizer.mechanisms.gaussian_noise import clip_and_noise, clip_to_radius
from tests.privacy.audit import MonteCarloResult, epsilon_lower_bound, projection_statistic

CLIP = 1.5


def neighbours(n_chunks: int, dim: int, distance: float | None = None) -> tuple[np.ndarray, ...]:
    """Raw embeddings of two documents, and their clipped centres.

    `distance` None: antipodal at norm 2C (clipped 2C apart); else the clipped chunks lie
    exactly `distance` apart (d-privacy audits).
    """
    direction = np.ones(dim) / np.sqrt(dim)
    if distance is None:
        first = np.tile(2 * CLIP * direction, (n_chunks, 1))
        second = -first
    else:
        first = np.tile(0.5 * distance * direction, (n_chunks, 1))
        second = -first
    return first, second, clip_to_radius(first, CLIP), clip_to_radius(second, CLIP)


def release_function(sigma: float, *, sampler: str, dim: int) -> Callable[[np.ndarray], np.ndarray]:
    """The mechanism's clip-and-noise on a (n, K, dim) batch (OS entropy, never a seed)."""

    def release(batch: np.ndarray) -> np.ndarray:
        n, k, _ = batch.shape
        noisy = clip_and_noise(batch.reshape(n * k, dim), CLIP, sigma, sampler=sampler).noisy
        return noisy.reshape(n, k, dim)

    return release


def audit_gaussian(
    plan: NoisePlan,
    *,
    draws: int,
    dim: int = 16,
    sampler: str = "numpy",
    sigma_factor: float = 1.0,
    distance: float | None = None,
) -> MonteCarloResult:
    """Empirical ε lower bound (at the plan's δ) of a document release with the plan's σ
    (times `sigma_factor`: 0.5 is the broken variant)."""
    raw_first, raw_second, first, second = neighbours(plan.n_chunks, dim, distance)
    release = release_function(plan.sigma * sigma_factor, sampler=sampler, dim=dim)
    statistic = projection_statistic(release, (raw_first, raw_second), (first, second))
    return epsilon_lower_bound(statistic, draws, plan.delta_total)


def plan(epsilon: float, delta: float, n_chunks: int, **kwargs) -> NoisePlan:  # type: ignore[no-untyped-def]
    return plan_gaussian_noise(epsilon, delta, n_chunks, clip_radius=CLIP, **kwargs)
