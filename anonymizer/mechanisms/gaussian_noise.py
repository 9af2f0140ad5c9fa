"""Clip-and-noise for chunk embeddings: the one function every Gaussian release goes through.

Unseeded releases use OpenDP's Gaussian measurement (`make_gaussian` on an L2 vector domain),
which samples the noise exactly and rounds x + noise to the nearest float once, so it is not
open to the floating-point attacks of Mironov (2012) that a numpy draw added in floating
point is. Measured on the shared 2-core dev machine (bench/noise_sampler_bench.py): 45–150 ms
per 768-float chunk depending on load, ~2,700× numpy's 0.05 ms. That is about what one chunk
costs the *tiny* random-weight inverter here (140 ms at 5 steps, bench/results/
throughput_small.json) and, by FLOP count, a small fraction of the real T5-base inverter
(not measurable here: no weights); the FFI call releases the GIL, so a document's floats are
sampled on a thread pool (one piece per core).
Seeded runs (reproducible, and so not private anyway) keep numpy's PCG64, because OpenDP
draws only from OS entropy.
"""

from __future__ import annotations

import importlib.metadata
import os
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

OPENDP = "opendp"
NUMPY = "numpy"
FLOAT_CAVEAT = (
    "The Gaussian noise was sampled in floating point (numpy PCG64), not with OpenDP's "
    "hardened sampler; the guarantee assumes exact real-valued sampling, which floating-point "
    "samplers only approximate (Mironov 2012)."
)
# Operators whose GPU inverter outruns OpenDP's exact sampler may choose numpy knowingly;
# the receipt then carries FLOAT_CAVEAT.
SAMPLER_ENV = "ANONYMIZER_NOISE_SAMPLER"
SAMPLER_CHOICES = ("auto", NUMPY)
_MAX_THREADS = 16


def clip_to_radius(embeddings: np.ndarray, radius: float) -> np.ndarray:
    """Scale each row to L2 norm at most `radius` (rows inside the ball are unchanged).

    Rows are scaled to a hair under `radius` so that float64 rounding can never leave one
    outside the ball the sensitivity bound 2C assumes.
    """
    rows = np.asarray(embeddings, dtype=np.float64)
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    target = radius * (1 - 1e-12)
    scale = np.where(norms > target, target / np.maximum(norms, np.finfo(np.float64).tiny), 1.0)
    clipped = rows * scale
    assert np.all(np.linalg.norm(clipped, axis=-1) <= radius)
    return clipped


def noise_generator(seed: int | None) -> np.random.Generator:
    """numpy's noise source: OS entropy, or `seed` for a reproducible (and so not private) run."""
    return np.random.Generator(np.random.PCG64(secrets.randbits(128) if seed is None else seed))


@lru_cache(maxsize=1)
def opendp_version() -> str | None:
    """The installed OpenDP version, or None when it cannot be imported."""
    try:
        import opendp.prelude  # noqa: F401

        return importlib.metadata.version("opendp")
    except Exception:  # a broken native library must not break numpy releases
        return None


def configured_sampler() -> str:
    """The operator's ANONYMIZER_NOISE_SAMPLER: "auto" (OpenDP if installed) or "numpy"."""
    choice = os.environ.get(SAMPLER_ENV, "auto").strip().lower() or "auto"
    if choice not in SAMPLER_CHOICES:
        raise ValueError(
            f"{SAMPLER_ENV} must be one of {', '.join(SAMPLER_CHOICES)}, got {choice!r}"
        )
    return choice


def sampler_for(seed: int | None) -> str:
    """Which sampler a release with this seed uses: OpenDP when unseeded, installed and not
    switched off by the operator."""
    if seed is not None or configured_sampler() == NUMPY or opendp_version() is None:
        return NUMPY
    return OPENDP


def sampler_description(seed: int | None) -> str:
    """One line for the receipt: which sampler, and why."""
    if seed is not None:
        return "numpy PCG64 seeded with the run's seed (reproducible, so not private)"
    if sampler_for(seed) == OPENDP:
        return (
            f"OpenDP {opendp_version()} make_gaussian: exact sampling, output rounded once to "
            "the nearest float (hardened against floating-point attacks)"
        )
    reason = "chosen by the operator" if configured_sampler() == NUMPY else "OpenDP missing"
    return f"numpy PCG64 seeded from OS entropy (floating point, not hardened; {reason})"


@lru_cache(maxsize=256)
def _opendp_measurement(size: int, sigma: float) -> Any:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False), size=size), dp.l2_distance(T=float)
    measurement = dp.m.make_gaussian(*space, scale=sigma)
    return measurement


def opendp_rho(size: int, sigma: float, sensitivity: float) -> float:
    """ρ that OpenDP's own privacy map gives for one vector at L2 distance `sensitivity`."""
    return float(_opendp_measurement(size, float(sigma)).map(float(sensitivity)))


def _opendp_release(rows: np.ndarray, sigma: float) -> np.ndarray:
    """rows + N(0, σ²I), sampled by OpenDP: every coordinate gets independent noise, so the
    rows are flattened and cut into one piece per thread (fewer, larger FFI calls)."""
    flat = rows.ravel()
    workers = max(1, min(_MAX_THREADS, os.cpu_count() or 1, flat.size // 256 or 1))
    pieces = np.array_split(flat, workers)

    def release(piece: np.ndarray) -> list[float]:
        return _opendp_measurement(piece.size, float(sigma))(piece.tolist())

    with ThreadPoolExecutor(max_workers=workers) as pool:
        noisy = list(pool.map(release, pieces))
    return np.concatenate([np.asarray(p, dtype=np.float64) for p in noisy]).reshape(rows.shape)


@dataclass(frozen=True)
class NoisyRelease:
    """One document's chunk embeddings after clipping and noise, and how the noise was drawn."""

    clipped: np.ndarray
    noisy: np.ndarray
    noise: np.ndarray  # numpy: the draw itself; OpenDP: noisy − clipped (it returns the sum)
    sampler: str


def clip_and_noise(
    raw: np.ndarray,
    clip_radius: float,
    sigma: float,
    seed: int | None = None,
    *,
    sampler: str | None = None,
) -> NoisyRelease:
    """Clip each row to radius C and add N(0, σ²I); σ = 0 (ε = ∞) adds nothing.

    `sampler` overrides the choice (audits compare the two); it must not be OpenDP when seeded.
    """
    clipped = clip_to_radius(raw, clip_radius)
    chosen = sampler or sampler_for(seed)
    if sigma <= 0 or clipped.size == 0:
        return NoisyRelease(clipped, clipped.copy(), np.zeros_like(clipped), chosen)
    if chosen == OPENDP:
        if seed is not None:
            raise ValueError("OpenDP samples from OS entropy only; a seeded run needs numpy")
        noisy = _opendp_release(clipped, sigma)
        return NoisyRelease(clipped, noisy, noisy - clipped, OPENDP)
    noise = noise_generator(seed).normal(0.0, sigma, size=clipped.shape)
    return NoisyRelease(clipped, clipped + noise, noise, NUMPY)
