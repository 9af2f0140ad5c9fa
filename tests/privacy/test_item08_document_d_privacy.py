"""Item 8: the d-privacy receipt states the document-level guarantee.

ε(d) = get_epsilon_gaussian(σ/(d·√K), δ) for documents whose K chunks each lie within d (the
K chunks compose to (d·√K/σ)-GDP). At ε = 4, δ = 1e-5, u = 0.5, K = 4, gdp the old per-chunk
formula gave 1.83 at d = u where the document-level ε is 4.00; a Monte Carlo distinguisher on
two such documents beats 1.83 and stays below 4.
"""

from __future__ import annotations

import pytest
from dp_accounting import get_epsilon_gaussian

from anonymizer.accounting import document_d_privacy_epsilon
from tests.privacy.gaussian_setup import audit_gaussian, plan


def test_item8_the_reviewed_numbers() -> None:
    noise = plan(4.0, 1e-5, 4, composition="gdp", metric_unit=0.5)
    per_chunk = get_epsilon_gaussian(noise.sigma / 0.5, 1e-5)
    assert per_chunk == pytest.approx(1.83, abs=0.005)  # what the receipt used to state
    at_u = noise.details["document_epsilon_at_distance"]["u"]
    assert at_u == pytest.approx(4.00, abs=1e-6)
    assert at_u == pytest.approx(document_d_privacy_epsilon(noise.sigma, 4, 0.5, 1e-5))
    assert "ε = 4 at d = u = 0.5" in noise.statement
    assert "σ/(d·√K)" in noise.statement and "√K/σ" in noise.statement
    assert "sigma/(d*sqrt(K))" in noise.caveats[0]
    assert noise.details["worst_case_epsilon_at_2C"] == pytest.approx(
        document_d_privacy_epsilon(noise.sigma, 4, 3.0, 1e-5)
    )


@pytest.mark.parametrize("composition", ["basic", "zcdp", "gdp"])
def test_item8_every_composition_keeps_eps_at_the_unit(composition) -> None:  # type: ignore[no-untyped-def]
    noise = plan(4.0, 1e-5, 6, composition=composition, metric_unit=0.5)
    assert noise.details["document_epsilon_at_distance"]["u"] <= 4.0 + 2e-12


@pytest.mark.montecarlo
def test_item8_documents_within_distance_u_beat_the_old_per_chunk_claim_but_not_the_new() -> None:
    noise = plan(4.0, 1e-5, 4, composition="gdp", metric_unit=0.5)
    result = audit_gaussian(noise, draws=500_000, dim=8, distance=0.5)
    old_claim = get_epsilon_gaussian(noise.sigma / 0.5, 1e-5)
    assert (
        old_claim < result.epsilon_lower_bound <= noise.details["document_epsilon_at_distance"]["u"]
    )
