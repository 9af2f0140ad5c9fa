"""Item 4: no release unless σ is finite, > 0 and at least the exact value; anything else is a
clear InvalidSettings, in the Python API, the CLI and the web form (no HTTP 500).

Before the fix ε = 1000, δ = 5e-324 with zcdp gave σ = NaN and a receipt claiming
(1000, 4.9e-324)-DP "each noised with σ = nan"; ε ≈ 1e300 raised a raw ValueError.
"""

from __future__ import annotations

import math

import mpmath
import pytest
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import anonymizer
from anonymizer.accounting import composed_epsilon, plan_gaussian_noise
from anonymizer.cli import EXIT_BAD_INPUT, main
from anonymizer.errors import InvalidSettings
from anonymizer.settings import COMPOSITIONS
from tests.webapp.ledger.helpers import GAUSSIAN_FORM, GAUSSIAN_SETTINGS, TEXT
from webapp.jobs.models import RewriteJob

EPSILONS = st.one_of(
    st.floats(1e-6, 1e6),
    st.sampled_from([1e-300, 1000.0, 1e9, 1e300, 1.7e308, math.inf]),
)
DELTAS = st.one_of(
    st.floats(1e-300, 0.999),
    st.sampled_from([5e-324, 1e-320, 1e-100, 0.5, 0.999999]),
)


def exact_delta(mu: float, epsilon: float) -> mpmath.mpf:
    """δ(ε; μ) = Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ) (Balle & Wang), to 60 digits, here."""
    with mpmath.workdps(60):
        m, e = mpmath.mpf(mu), mpmath.mpf(epsilon)
        return mpmath.ncdf(m / 2 - e / m) - mpmath.exp(e) * mpmath.ncdf(-m / 2 - e / m)


def assert_release_is_honest(epsilon, delta, k, clip, composition, unit) -> None:  # type: ignore[no-untyped-def]
    try:
        plan = plan_gaussian_noise(
            epsilon, delta, k, clip_radius=clip, composition=composition, metric_unit=unit
        )
    except InvalidSettings as exc:
        assert exc.field in ("epsilon", "delta") and ("choose" in exc.message)
        return
    if math.isinf(epsilon):
        assert plan.sigma == 0 and plan.notion == "none"
        return
    sigma, sensitivity = plan.sigma, plan.sensitivity
    assert math.isfinite(sigma) and sigma > 0
    assert plan.epsilon_total == epsilon and plan.delta_total == delta
    mu = math.sqrt(k) * sensitivity / sigma  # the document, composed exactly
    assert exact_delta(mu, epsilon) <= delta
    assert composed_epsilon(mu**2, delta) <= epsilon + 2e-12
    if composition == "basic":
        assert exact_delta(sensitivity / sigma, epsilon / k) <= delta / k
    assert f"σ = {sigma:.6g}" in plan.statement and "nan" not in plan.statement.lower()


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    epsilon=EPSILONS,
    delta=DELTAS,
    k=st.integers(1, 5000),
    clip=st.floats(0.01, 100.0),
    composition=st.sampled_from(COMPOSITIONS),
    unit=st.one_of(st.none(), st.floats(1e-3, 1e3)),
)
@example(1000.0, 5e-324, 1, 1.5, "zcdp", None)
@example(1000.0, 5e-324, 3, 1.5, "zcdp", None)
@example(1000.0, 5e-324, 2, 1.5, "basic", None)
@example(1e300, 1e-3, 1, 1.5, "basic", None)
@example(1e300, 1e-3, 4, 1.5, "gdp", 0.5)
@example(1e-8, 1e-10, 3, 1.5, "basic", None)
def test_item4_every_sigma_is_finite_positive_and_enough(  # type: ignore[no-untyped-def]
    epsilon, delta, k, clip, composition, unit
) -> None:
    assert_release_is_honest(epsilon, delta, k, clip, composition, unit)


def test_item4_the_reviewed_cases() -> None:
    plan = plan_gaussian_noise(1000, 5e-324, 1, clip_radius=1.5, composition="zcdp")
    assert math.isfinite(plan.sigma) and plan.sigma > 0
    assert exact_delta(3 / plan.sigma, 1000) <= 5e-324
    with pytest.raises(InvalidSettings, match="epsilon: cannot calibrate"):
        plan_gaussian_noise(1e300, 1e-3, 1, clip_radius=1.5)
    with pytest.raises(InvalidSettings, match="underflows to 0"):
        plan_gaussian_noise(1000, 5e-324, 2, clip_radius=1.5, composition="basic")


def test_item4_the_api_raises_invalid_settings() -> None:
    with pytest.raises(InvalidSettings, match="epsilon"):
        anonymizer.plan(TEXT, GAUSSIAN_SETTINGS.with_changes(epsilon=1e300))
    receipt = anonymizer.plan(
        TEXT, GAUSSIAN_SETTINGS.with_changes(epsilon=1000, delta=5e-324, composition="zcdp")
    ).receipt
    assert math.isfinite(receipt.sigma) and receipt.sigma > 0


def test_item4_the_cli_exits_2_with_a_clear_message(capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["--plan", "--mechanism", "dp-embed-invert", "--detector", "regex", "--text", TEXT]
    assert main([*argv, "--epsilon", "1e300"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("error: epsilon: cannot calibrate") and "Traceback" not in err
    assert main([*argv, "--epsilon", "1000", "--delta", "5e-324", "--composition", "zcdp"]) == 0
    assert "sigma=nan" not in capsys.readouterr().out


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["submit", "submit_preview"])
def test_item4_the_web_form_shows_the_error_instead_of_a_500(  # type: ignore[no-untyped-def]
    url, client, alice, gaussian_mechanism_available
) -> None:
    client.force_login(alice)
    response = client.post(reverse(url), {**GAUSSIAN_FORM, "epsilon": "1e300"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "cannot calibrate Gaussian noise" in page
    assert not RewriteJob.objects.exists()
