"""Spec §1–3 vectors (rtol 1e-6) and the honesty rules of the accounting."""

import math

import pytest
from dp_accounting import dp_event, pld

from anonymizer.accounting import (
    analytic_gaussian_sigma,
    composed_epsilon,
    gaussian_epsilon,
    gdp_mu,
    plan_gaussian_noise,
    zcdp_rho,
)
from anonymizer.errors import InvalidSettings

AGM_VECTORS = [
    (4, 2.5e-4, 3, 2.7196395855),
    (8, 5e-4, 3, 1.4992252488),
    (16, 1e-3, 3, 0.865817),
    (1, 1e-5, 1, 3.7306316348),
    (0.5, 1e-5, 1, 7.0318266756),
    (0.1, 1e-6, 1, 36.3046904262),
    (0.01, 1e-5, 1, 243.7854376757),
    (2, 1e-5, 1, 1.9938124456),
    (10, 1e-5, 1, 0.4998886197),
    (1, 1e-3, 1, 2.5746570186),
    (5, 1e-6, 2, 1.9600980006),
    (1, 1e-10, 1, 5.8677777496),
    (50, 1e-5, 1, 0.1497606076),
    (1, 0.5, 1, 0.5070650315),
]


@pytest.mark.parametrize(("eps", "delta", "sens", "expected"), AGM_VECTORS)
def test_analytic_gaussian_sigma_matches_the_spec_table(eps, delta, sens, expected):
    assert analytic_gaussian_sigma(eps, delta, sens) == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize(("eps", "delta", "sens", "expected"), AGM_VECTORS)
def test_sigma_is_rounded_up_so_the_stated_delta_holds(eps, delta, sens, expected):
    sigma = analytic_gaussian_sigma(eps, delta, sens)
    assert gaussian_epsilon(sigma, delta, sens) <= eps


def test_it_never_uses_the_classical_bound_when_it_is_not_private():
    classical = 3 * math.sqrt(2 * math.log(1.25 / 5e-4)) / 8
    assert analytic_gaussian_sigma(8, 5e-4, 3) > classical


@pytest.mark.parametrize(
    ("k", "basic", "zcdp", "gdp"),
    [
        (1, 0.865817, 0.983029, 0.865817),
        (2, 1.499225, 1.390212, 1.224451),
        (4, 2.719640, 1.966057, 1.731635),
        (8, 5.123291, 2.780425, 2.448902),
    ],
)
def test_per_chunk_sigma_matches_the_composition_table(k, basic, zcdp, gdp):
    for mode, expected in (("basic", basic), ("zcdp", zcdp), ("gdp", gdp)):
        plan = plan_gaussian_noise(16, 1e-3, k, clip_radius=1.5, composition=mode)
        assert plan.sigma == pytest.approx(expected, rel=1e-6), mode
        assert plan.sensitivity == 3.0


@pytest.mark.parametrize(
    ("eps", "delta", "rho_bs"),
    [
        (1, 1e-5, 0.0208199383),
        (4, 2.5e-4, 0.3923117994),
        (16, 1e-3, 4.6567214410),
    ],
)
def test_zcdp_rho_matches_bun_steinke(eps, delta, rho_bs):
    assert zcdp_rho(eps, delta) == pytest.approx(rho_bs, rel=1e-6)


def test_gdp_budget_vectors():
    assert gdp_mu(16, 1e-3) == pytest.approx(3.4649336439, rel=1e-6)
    plan = plan_gaussian_noise(16, 1e-3, 4, clip_radius=1.5, composition="gdp")
    assert plan.sigma == pytest.approx(1.73163489, rel=1e-6)
    # two requests of K = 2, each using half of mu_B^2, compose to exactly eps = 16
    half = plan_gaussian_noise(16, 1e-3, 4, clip_radius=1.5, composition="gdp")
    mu_sq = 4 * (3 / half.sigma) ** 2
    assert composed_epsilon(mu_sq, 1e-3) == pytest.approx(16.0, rel=1e-6)


def test_exact_composition_agrees_with_the_pld_accountant():
    sigmas, sens = [2, 3, 5, 1.5], [1, 1, 2, 1]
    mu_sq = sum((d / s) ** 2 for s, d in zip(sigmas, sens, strict=True))
    assert mu_sq == pytest.approx(0.9655555556, rel=1e-9)
    exact = composed_epsilon(mu_sq, 1e-5)
    assert exact == pytest.approx(4.289309, rel=1e-6)
    accountant = pld.PLDAccountant(value_discretization_interval=1e-4)
    accountant.compose(
        dp_event.ComposedDpEvent(
            [dp_event.GaussianDpEvent(s / d) for s, d in zip(sigmas, sens, strict=True)]
        )
    )
    assert accountant.get_epsilon(1e-5) == pytest.approx(exact, abs=1e-3)


@pytest.mark.parametrize(
    ("t", "expected"), [(0.25, 0.220267), (0.5, 0.468710), (1, 1.0), (2, 2.154677), (4, 4.746080)]
)
def test_d_privacy_loss_at_multiples_of_the_unit_is_super_linear(t, expected):
    sigma = analytic_gaussian_sigma(1, 1e-5, 1)
    assert gaussian_epsilon(sigma, 1e-5, t * 1.0) == pytest.approx(expected, rel=1e-5)


def test_d_privacy_plan_states_the_guarantee_correctly():
    plan = plan_gaussian_noise(4, 1e-5, 1, clip_radius=1.5, metric_unit=0.5)
    assert plan.sigma == pytest.approx(0.540581, rel=1e-5)
    assert plan.notion == "(eps,delta)-d-privacy, unit=0.5"
    assert "GDP slope" in plan.statement
    assert "(c*eps, c*delta)" in plan.caveats[0]
    assert plan.details["worst_case_epsilon_at_2C"] > 4


def test_infinite_epsilon_adds_no_noise_and_claims_nothing():
    plan = plan_gaussian_noise(math.inf, 1e-3, 3, clip_radius=1.5)
    assert plan.sigma == 0 and plan.notion == "none" and not plan.adds_noise


@pytest.mark.parametrize(
    ("eps", "delta"),
    [(0, 1e-3), (-1, 1e-3), (math.nan, 1e-3), (1, 0), (1, 1), (1, -0.1), (1, math.nan)],
)
def test_it_rejects_bad_budgets(eps, delta):
    with pytest.raises(InvalidSettings):
        plan_gaussian_noise(eps, delta, 2, clip_radius=1.5)


def test_it_rejects_unknown_composition():
    with pytest.raises(InvalidSettings, match="composition"):
        plan_gaussian_noise(1, 1e-3, 2, clip_radius=1.5, composition="advanced")
