"""Item 9: unseeded Gaussian releases use OpenDP's exact sampler (hardened against
floating-point attacks) and say so; seeded runs keep numpy, reproducibly; without OpenDP the
receipt carries the one-line caveat. Cost: bench/noise_sampler_bench.py."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import kstest, norm

import anonymizer
from anonymizer.mechanisms import gaussian_noise
from anonymizer.mechanisms.gaussian_noise import (
    FLOAT_CAVEAT,
    NUMPY,
    OPENDP,
    clip_and_noise,
    opendp_rho,
)
from tests.webapp.ledger.helpers import GAUSSIAN_SETTINGS, TEXT


def test_item9_unseeded_releases_use_opendp_and_the_receipt_says_so() -> None:
    raw = np.random.default_rng(0).normal(size=(2, 768))
    release = clip_and_noise(raw, 1.5, 2.5)
    assert release.sampler == OPENDP
    noise = release.noise.ravel()
    assert kstest(noise, norm(scale=2.5).cdf).pvalue > 1e-4
    receipt = anonymizer.plan(TEXT, GAUSSIAN_SETTINGS).receipt
    assert receipt.details["noise_sampler"].startswith("OpenDP 0.16")
    assert FLOAT_CAVEAT not in receipt.caveats


def test_item9_opendp_accounts_the_release_as_we_do() -> None:
    """OpenDP's own privacy map gives ρ = Δ²/(2σ²), i.e. our μ = Δ/σ per chunk."""
    sigma, sensitivity = 2.7196395855, 3.0
    assert opendp_rho(768, sigma, sensitivity) == pytest.approx(
        sensitivity**2 / (2 * sigma**2), rel=1e-12
    )


def test_item9_seeded_runs_keep_numpy_and_repeat() -> None:
    raw = np.random.default_rng(0).normal(size=(2, 16))
    first, second = (clip_and_noise(raw, 1.5, 1.0, seed=9) for _ in range(2))
    assert first.sampler == NUMPY and np.array_equal(first.noisy, second.noisy)
    with pytest.raises(ValueError, match="OS entropy"):
        clip_and_noise(raw, 1.5, 1.0, seed=9, sampler=OPENDP)


def test_item9_without_opendp_the_receipt_keeps_the_caveat(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(gaussian_noise, "opendp_version", lambda: None)
    assert gaussian_noise.sampler_for(None) == NUMPY
    receipt = anonymizer.plan(TEXT, GAUSSIAN_SETTINGS).receipt
    assert FLOAT_CAVEAT in receipt.caveats
    assert "not hardened" in receipt.details["noise_sampler"]


def test_item9_an_operator_may_choose_numpy_and_the_receipt_says_so(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(gaussian_noise.SAMPLER_ENV, "numpy")
    assert gaussian_noise.sampler_for(None) == NUMPY
    release = clip_and_noise(np.random.default_rng(0).normal(size=(2, 16)), 1.5, 1.0)
    assert release.sampler == NUMPY
    receipt = anonymizer.plan(TEXT, GAUSSIAN_SETTINGS).receipt
    assert FLOAT_CAVEAT in receipt.caveats
    assert "chosen by the operator" in receipt.details["noise_sampler"]


def test_item9_an_unknown_sampler_choice_is_refused(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(gaussian_noise.SAMPLER_ENV, "fast")
    with pytest.raises(ValueError, match="ANONYMIZER_NOISE_SAMPLER"):
        gaussian_noise.sampler_for(None)
