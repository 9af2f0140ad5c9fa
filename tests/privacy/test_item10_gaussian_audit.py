"""Item 10: a Monte Carlo distinguisher on the mechanism's own clip-and-noise function gives a
99 %-confidence lower bound on ε that must not exceed the receipt's claim; the same test on
the broken variant (σ halved) must exceed it.

Sizes (documented, the suite's largest runs, marked `montecarlo`): 10⁶ draws per side for one
chunk (dim 16, numpy sampler seeded from OS entropy; ~2 s each), 10⁶ per side for a 4-chunk
document (dim 8), and 5·10⁴ per side through the production OpenDP sampler (dim 1; ~15 s on
the shared 2-core machine, OpenDP's exact sampler costs ~0.1 ms a float there). Measured on
that machine: one chunk at ε = 2, δ = 1e-5 gives a lower bound ≈ 1.5 (claim 2); with σ halved
≈ 3.1.
"""

from __future__ import annotations

import pytest

from anonymizer.mechanisms.gaussian_noise import NUMPY, OPENDP
from tests.privacy.gaussian_setup import audit_gaussian, plan

EPSILON, DELTA = 2.0, 1e-5
MILLION = 1_000_000


@pytest.mark.montecarlo
def test_item10_one_chunk_empirical_epsilon_stays_below_the_claim() -> None:
    claim = plan(EPSILON, DELTA, 1)
    assert claim.notion == "(eps,delta)-DP" and claim.epsilon_total == EPSILON
    result = audit_gaussian(claim, draws=MILLION, dim=16, sampler=NUMPY)
    assert result.draws == MILLION
    assert 0.5 < result.epsilon_lower_bound <= claim.epsilon_total


@pytest.mark.montecarlo
def test_item10_one_chunk_with_sigma_halved_fails_the_audit() -> None:
    claim = plan(EPSILON, DELTA, 1)
    result = audit_gaussian(claim, draws=MILLION, dim=16, sampler=NUMPY, sigma_factor=0.5)
    assert result.epsilon_lower_bound > claim.epsilon_total


@pytest.mark.montecarlo
@pytest.mark.parametrize(("factor", "passes"), [(1.0, True), (0.5, False)])
def test_item10_a_four_chunk_document_with_exact_composition(factor, passes) -> None:  # type: ignore[no-untyped-def]
    claim = plan(EPSILON, DELTA, 4, composition="gdp")  # tight: the claim is the exact ε
    result = audit_gaussian(claim, draws=MILLION, dim=8, sampler=NUMPY, sigma_factor=factor)
    assert (result.epsilon_lower_bound <= claim.epsilon_total) is passes


@pytest.mark.montecarlo
def test_item10_the_production_sampler_passes_the_audit_too() -> None:
    claim = plan(EPSILON, DELTA, 1)
    result = audit_gaussian(claim, draws=50_000, dim=1, sampler=OPENDP)
    assert 0 < result.epsilon_lower_bound <= claim.epsilon_total
