"""The goodness-of-fit check used by the sampling tests: it keeps its level and still rejects."""

from __future__ import annotations

import numpy as np
from scipy.stats import chisquare

from tests.frequencies import frequency_pvalue

ALPHA = 1e-3
# CluSanT's row for "Margaret Thornton" (test_item10): four likely outputs, four ~1e-6 ones.
ROW = np.array([0.2397443, 0.2480498, 1.615e-6, 0.2575801, 0.2546194, 1.500e-6, 1.513e-6, 1.751e-6])
# What CI drew at 08a2155: one draw of an output expected 0.007 times (plain chi-square: 2e-28).
CI_COUNTS = np.array([973, 1005, 0, 966, 1055, 0, 0, 1])


def test_one_draw_of_a_rare_output_is_no_evidence_against_the_sampler() -> None:
    assert chisquare(CI_COUNTS, ROW / ROW.sum() * 4000).pvalue < 1e-20
    assert frequency_pvalue(CI_COUNTS, ROW) > 0.01


def test_a_correct_sampler_fails_at_most_alpha() -> None:
    """Level at α = 0.01 over 5,000 correct runs (0.5 %); plain chi-square fails 2.6 % at 0.001."""
    rng = np.random.default_rng(2026)
    runs = rng.multinomial(4000, ROW / ROW.sum(), size=5_000)
    ours = np.mean([frequency_pvalue(c, ROW) < 0.01 for c in runs])
    plain = np.mean([chisquare(c, ROW / ROW.sum() * 4000).pvalue < ALPHA for c in runs])
    assert ours <= 0.012
    assert plain > 0.015


def test_a_wrong_distribution_over_the_likely_outputs_is_rejected() -> None:
    rng = np.random.default_rng(1)
    skewed = ROW * np.array([1.25, 1, 1, 1, 0.8, 1, 1, 1])
    counts = rng.multinomial(4000, skewed / skewed.sum())
    assert frequency_pvalue(counts, ROW) < ALPHA


def test_rare_outputs_drawn_too_often_are_rejected() -> None:
    counts = CI_COUNTS.copy()
    counts[[2, 5, 7]] = [2, 1, 2]
    counts[0] -= 4
    assert frequency_pvalue(counts, ROW) < ALPHA


def test_a_distribution_without_rare_outputs_is_plain_chi_square() -> None:
    probs = np.array([0.5, 0.3, 0.2])
    counts = np.array([5100, 2950, 1950])
    assert np.isclose(frequency_pvalue(counts, probs), chisquare(counts, probs * 10_000).pvalue)
