"""Noise calibration and composition for Gaussian releases, wrapping dp-accounting.

Spec: shared/specs/privacy-mechanisms.md §1–3. σ is always the analytic Gaussian value
(never the classical bound), rounded up so that the stated (ε, δ) holds, and every σ is
verified before it is used (`verify_gaussian_plan`): finite, > 0, and the exact δ(ε; μ)
condition plus dp-accounting's inverse must confirm the promised (ε, δ). Settings where the
library cannot calibrate (ε ≈ 1e300, δ/K underflowing to 0, ...) are `InvalidSettings`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
from dp_accounting import get_epsilon_gaussian, get_sigma_gaussian

from anonymizer.errors import InvalidSettings

SIGMA_ROUND_UP = 1e-9
_TOL = 1e-12
# dp-accounting's root finders stop within an absolute 1e-12 of the root; an inverse ε may
# sit that far above the true one, so the inverse check allows exactly that much.
INVERSE_TOLERANCE = 2e-12
_LIBRARY_ERRORS = (ValueError, ArithmeticError, RuntimeError)
_NUDGES = (0.0, 1e-12, 1e-11, 1e-10, 1e-9, 1e-7, 1e-5, 1e-3)
_DIGITS = 50


def unit_sigma(epsilon: float, delta: float) -> float:
    """σ of the analytic Gaussian mechanism at sensitivity 1, verified against the exact condition.

    dp-accounting stops its search at an absolute 1e-12 (coarse for the small σ of a large ε)
    and evaluates δ(ε; μ) in double precision (off by up to ~1e-6 for tiny μ), so a small σ is
    searched again with a relative tolerance, and σ is nudged up until the 50-digit condition
    δ(ε; 1/σ) ≤ δ holds.
    """
    try:
        with np.errstate(all="ignore"):
            sigma = float(get_sigma_gaussian(epsilon, delta, tol=_TOL))
            if 0 < sigma < 1:
                sigma = float(get_sigma_gaussian(epsilon, delta, tol=sigma * _TOL))
    except _LIBRARY_ERRORS:
        raise InvalidSettings(
            "epsilon",
            f"cannot calibrate Gaussian noise for ε = {epsilon:g}, δ = {delta:g} (the "
            "calibration fails in floating point); choose a smaller ε or a larger δ",
        ) from None
    for nudge in _NUDGES:
        if math.isfinite(sigma) and sigma > 0 and gaussian_delta_holds(1 / sigma, epsilon, delta):
            return sigma
        sigma *= 1 + nudge
    raise InvalidSettings(
        "epsilon",
        f"ε = {epsilon:g}, δ = {delta:g} cannot be calibrated reliably (σ = {sigma!r}); "
        "choose a smaller ε or a larger δ",
    )


def exact_log_delta(mu: float, epsilon: float) -> float:
    """ln δ(ε; μ) = ln[Φ(μ/2 − ε/μ) − e^ε·Φ(−μ/2 − ε/μ)] (spec §1), to 50 digits.

    The exact condition every σ is checked against; mpmath, because in double precision the
    difference cancels catastrophically for small μ (dp-accounting's own helper loses ~1e-6).
    """
    if mu <= 0:
        return -math.inf
    if math.isinf(mu):
        return 0.0
    with mpmath.workdps(_DIGITS):
        m, e = mpmath.mpf(mu), mpmath.mpf(epsilon)
        first = mpmath.ncdf(m / 2 - e / m)
        second = mpmath.exp(e + mpmath.log(mpmath.ncdf(-m / 2 - e / m)))
        difference = first - second
        return -math.inf if difference <= 0 else float(mpmath.log(difference))


def gaussian_delta_holds(mu: float, epsilon: float, delta: float) -> bool:
    """Whether a μ-GDP mechanism is (ε, δ)-DP, by the exact condition (False for δ = 0)."""
    return delta > 0 and exact_log_delta(mu, epsilon) <= math.log(delta)


def analytic_gaussian_sigma(epsilon: float, delta: float, sensitivity: float) -> float:
    """Smallest σ giving (ε, δ)-DP at L2 sensitivity Δ (Balle & Wang 2018), rounded up."""
    _check_budget(epsilon, delta)
    if sensitivity < 0 or math.isnan(sensitivity):
        raise InvalidSettings("sensitivity", f"must be >= 0, got {sensitivity!r}")
    if sensitivity == 0 or math.isinf(epsilon):
        return 0.0
    return unit_sigma(epsilon, delta) * sensitivity * (1 + SIGMA_ROUND_UP)


def gaussian_epsilon(sigma: float, delta: float, sensitivity: float = 1.0) -> float:
    """Exact ε(δ) of one Gaussian release with noise σ at sensitivity Δ (∞ where undefined)."""
    if sigma <= 0 or delta <= 0:
        return math.inf
    if sensitivity == 0:
        return 0.0
    try:
        with np.errstate(all="ignore"):
            return float(get_epsilon_gaussian(sigma / sensitivity, delta))
    except _LIBRARY_ERRORS:
        return math.inf


def gdp_mu(epsilon: float, delta: float) -> float:
    """The μ of μ-GDP whose exact (ε, δ) profile passes through the given point."""
    _check_budget(epsilon, delta)
    if math.isinf(epsilon):
        return math.inf
    return 1.0 / unit_sigma(epsilon, delta)


def composed_epsilon(mu_squared: float, delta: float) -> float:
    """Exact ε(δ) of composed Gaussian releases with Σ(Δᵢ/σᵢ)² = μ² (Dong–Roth–Su)."""
    if mu_squared <= 0:
        return 0.0
    if math.isinf(mu_squared) or math.isnan(mu_squared):
        return math.inf
    return gaussian_epsilon(1.0 / math.sqrt(mu_squared), delta)


def zcdp_rho(epsilon: float, delta: float) -> float:
    """Largest ρ such that ρ-zCDP implies (ε, δ)-DP by Bun–Steinke Prop. 1.3."""
    _check_budget(epsilon, delta)
    log_inv_delta = -math.log(delta)  # not log(1/δ): 1/δ overflows for subnormal δ
    # (√(ε+L) − √L)² written without the cancellation of the difference
    return (epsilon / (math.sqrt(epsilon + log_inv_delta) + math.sqrt(log_inv_delta))) ** 2


def verify_gaussian_plan(
    epsilon: float, delta: float, n_chunks: int, sigma: float, sensitivity: float, composition: str
) -> None:
    """Refuse any σ that does not deliver the promised document (ε, δ): InvalidSettings.

    σ must be finite and > 0, and K chunks noised with it at sensitivity Δ (μ² = K·(Δ/σ)²,
    exact composition, the tightest) must satisfy the exact condition δ(ε; μ) ≤ δ and give
    dp-accounting's inverse ε ≤ the promised ε; basic composition is also checked per chunk.
    """
    if not (math.isfinite(sigma) and sigma > 0):
        raise InvalidSettings(
            "epsilon",
            f"ε = {epsilon:g}, δ = {delta:g} over K = {n_chunks} chunk(s) gives an "
            f"unusable noise scale σ = {sigma!r}; choose a smaller ε or a larger δ",
        )
    mu = math.sqrt(n_chunks) * sensitivity / sigma
    checks = [(mu, epsilon, delta)]
    if composition == "basic":
        checks.append((sensitivity / sigma, epsilon / n_chunks, delta / n_chunks))
    for mu_i, eps_i, delta_i in checks:
        holds = gaussian_delta_holds(mu_i, eps_i, delta_i)
        inverse = gaussian_epsilon(1.0 / mu_i, delta_i)
        if not holds or not inverse <= eps_i + INVERSE_TOLERANCE:
            raise InvalidSettings(
                "delta" if delta_i <= 0 else "epsilon",
                f"ε = {epsilon:g}, δ = {delta:g} over K = {n_chunks} chunk(s) ({composition} "
                f"composition) cannot be calibrated reliably in floating point (σ = {sigma:.6g} "
                f"gives ε = {inverse:.6g} at δ = {delta_i:g}); choose a smaller ε or a larger δ",
            )


@dataclass(frozen=True)
class NoisePlan:
    """How one document's K chunk embeddings are noised, and what that guarantees."""

    notion: str
    composition: str | None
    n_chunks: int
    sigma: float
    sensitivity: float
    clip_radius: float
    metric_unit: float | None
    epsilon_total: float
    delta_total: float
    epsilon_per_chunk: float | None
    delta_per_chunk: float | None
    rho: float | None
    statement: str
    caveats: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def adds_noise(self) -> bool:
        return self.sigma > 0


def plan_gaussian_noise(
    epsilon: float,
    delta: float,
    n_chunks: int,
    *,
    clip_radius: float,
    composition: str = "basic",
    metric_unit: float | None = None,
) -> NoisePlan:
    """Per-chunk σ for a document budget (ε, δ) over K chunks, with its honest statement."""
    _check_budget(epsilon, delta)
    if composition not in ("basic", "zcdp", "gdp"):
        raise InvalidSettings("composition", f"unknown composition {composition!r}")
    worst_case = 2 * clip_radius
    sensitivity = worst_case if metric_unit is None else metric_unit
    if math.isinf(epsilon):
        return _no_noise_plan(n_chunks, clip_radius, sensitivity, metric_unit, composition)
    if n_chunks == 0:
        return NoisePlan(
            notion="none",
            composition=composition,
            n_chunks=0,
            sigma=0.0,
            sensitivity=sensitivity,
            clip_radius=clip_radius,
            metric_unit=metric_unit,
            epsilon_total=0.0,
            delta_total=0.0,
            epsilon_per_chunk=None,
            delta_per_chunk=None,
            rho=None,
            statement="No plain-text chunk was released, so nothing was noised.",
        )
    k = n_chunks
    rho = None
    if composition == "basic" and not delta / k > 0:
        raise InvalidSettings(
            "delta",
            f"δ = {delta:g} split over K = {k} chunks (basic composition) underflows to 0; "
            "choose a larger δ or gdp composition",
        )
    try:
        if composition == "basic":
            sigma = analytic_gaussian_sigma(epsilon / k, delta / k, sensitivity)
        elif composition == "zcdp":
            rho = zcdp_rho(epsilon, delta)
            sigma = sensitivity * math.sqrt(k / (2 * rho)) * (1 + SIGMA_ROUND_UP)
        else:
            sigma = sensitivity * math.sqrt(k) / gdp_mu(epsilon, delta) * (1 + SIGMA_ROUND_UP)
    except ArithmeticError:  # ρ or μ underflowing to 0, σ overflowing
        sigma = math.nan
    verify_gaussian_plan(epsilon, delta, k, sigma, sensitivity, composition)
    delta_chunk: float | None = delta / k
    eps_chunk: float | None = epsilon / k
    if composition != "basic":
        # informative only (the guarantee is the document's): ε of one chunk at δ/K
        eps_chunk = gaussian_epsilon(sigma, delta / k, sensitivity) if delta / k > 0 else None
        delta_chunk = delta / k if eps_chunk is not None else None
    mu_total_sq = k * (sensitivity / sigma) ** 2
    exact_epsilon = composed_epsilon(mu_total_sq, delta)
    details: dict[str, Any] = {
        "gdp_mu_document": math.sqrt(mu_total_sq),
        "epsilon_exact_at_delta": exact_epsilon,
    }
    caveats: list[str] = []
    if metric_unit is None:
        notion = "(eps,delta)-DP"
        statement = (
            f"({_fmt(epsilon)}, {_fmt(delta)})-DP for the rewriting of the {k} plain-text "
            f"chunk(s): replacing any one document's chunks by any others (L2 sensitivity "
            f"2C = {_fmt(sensitivity)}) changes the output distribution by at most this; "
            f"{composition} composition over K = {k} chunks, each noised with "
            f"σ = {sigma:.6g}. Exact Gaussian accounting gives ε = {exact_epsilon:.6g} at "
            f"δ = {_fmt(delta)}."
        )
    else:
        notion = f"(eps,delta)-d-privacy, unit={_fmt(metric_unit)}"
        slope = math.sqrt(k) / sigma
        at = {
            label: document_d_privacy_epsilon(sigma, k, distance, delta)
            for label, distance in (
                ("u/2", metric_unit / 2),
                ("u", metric_unit),
                ("2u", 2 * metric_unit),
                ("2C", worst_case),
            )
        }
        details["document_gdp_mu_per_unit_distance"] = slope
        details["document_epsilon_at_distance"] = {
            "u/2": at["u/2"],
            "u": at["u"],
            "2u": at["2u"],
            "2C": at["2C"],
        }
        details["worst_case_epsilon_at_2C"] = at["2C"]
        statement = (
            f"Document-level d-privacy ({composition} composition over K = {k} chunks, "
            f"σ = {sigma:.6g} per chunk): two documents whose K chunk embeddings each lie "
            f"within L2 distance d of their counterparts give output distributions that are "
            f"(ε(d), δ)-indistinguishable with ε(d) = get_epsilon_gaussian(σ/(d·√K), δ) at "
            f"δ = {_fmt(delta)} (the rewrite is μ-GDP with μ = √(Σ d_k²)/σ for chunk distances "
            f"d_k, i.e. a GDP slope of √K/σ = {slope:.6g} per unit distance): ε = {at['u']:.4g} at "
            f"d = u = {_fmt(metric_unit)} (at most the requested {_fmt(epsilon)}), "
            f"{at['u/2']:.4g} at u/2, {at['2u']:.4g} at 2u (super-linear beyond u), and "
            f"{at['2C']:.4g} against arbitrary documents (d up to 2C = {_fmt(worst_case)})."
        )
        caveats.append(
            "d-privacy is a weaker notion than (eps,delta)-DP: its epsilon is not comparable "
            "with worst-case DP epsilon, and it does not scale as (c*eps, c*delta) at distance "
            "c*u; for documents whose K chunks each lie within distance d the guarantee is "
            "eps(d) = get_epsilon_gaussian(sigma/(d*sqrt(K)), delta)."
        )
    return NoisePlan(
        notion=notion,
        composition=composition,
        n_chunks=k,
        sigma=sigma,
        sensitivity=sensitivity,
        clip_radius=clip_radius,
        metric_unit=metric_unit,
        epsilon_total=epsilon,
        delta_total=delta,
        epsilon_per_chunk=eps_chunk,
        delta_per_chunk=delta_chunk,
        rho=rho,
        statement=statement,
        caveats=caveats,
        details=details,
    )


def document_d_privacy_epsilon(sigma: float, n_chunks: int, distance: float, delta: float) -> float:
    """ε at δ between documents whose K chunk embeddings each lie within `distance`.

    Each chunk is (d/σ)-GDP, so K of them compose to (d·√K/σ)-GDP (spec §2.3, §3).
    """
    if distance <= 0:
        return 0.0
    return gaussian_epsilon(sigma / (distance * math.sqrt(n_chunks)), delta)


def _no_noise_plan(
    n_chunks: int, clip_radius: float, sensitivity: float, unit: float | None, composition: str
) -> NoisePlan:
    return NoisePlan(
        notion="none",
        composition=composition,
        n_chunks=n_chunks,
        sigma=0.0,
        sensitivity=sensitivity,
        clip_radius=clip_radius,
        metric_unit=unit,
        epsilon_total=math.inf,
        delta_total=0.0,
        epsilon_per_chunk=math.inf,
        delta_per_chunk=0.0,
        rho=None,
        statement="epsilon = inf: no noise was added, so the rewrite carries no privacy "
        "guarantee; the inverter can reproduce the input text, PII included.",
        caveats=["No noise was added (epsilon = inf): this output is not private."],
    )


def _check_budget(epsilon: float, delta: float) -> None:
    if not isinstance(epsilon, (int, float)) or math.isnan(epsilon) or epsilon <= 0:
        raise InvalidSettings("epsilon", f"must be a number > 0 (or inf), got {epsilon!r}")
    if not isinstance(delta, (int, float)) or math.isnan(delta) or not 0 < delta < 1:
        raise InvalidSettings("delta", f"must lie strictly between 0 and 1, got {delta!r}")


def _fmt(x: float) -> str:
    return f"{x:g}"
