"""Noise calibration and composition for Gaussian releases, wrapping dp-accounting.

Spec: shared/specs/privacy-mechanisms.md §1–3. σ is always the analytic Gaussian value
(never the classical bound), rounded up so that the stated (ε, δ) holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from dp_accounting import get_epsilon_gaussian, get_sigma_gaussian

from anonymizer.errors import InvalidSettings

SIGMA_ROUND_UP = 1e-9
_TOL = 1e-12


def analytic_gaussian_sigma(epsilon: float, delta: float, sensitivity: float) -> float:
    """Smallest σ giving (ε, δ)-DP at L2 sensitivity Δ (Balle & Wang 2018), rounded up."""
    _check_budget(epsilon, delta)
    if sensitivity < 0 or math.isnan(sensitivity):
        raise InvalidSettings("sensitivity", f"must be >= 0, got {sensitivity!r}")
    if sensitivity == 0 or math.isinf(epsilon):
        return 0.0
    return get_sigma_gaussian(epsilon, delta, tol=_TOL) * sensitivity * (1 + SIGMA_ROUND_UP)


def gaussian_epsilon(sigma: float, delta: float, sensitivity: float = 1.0) -> float:
    """Exact ε(δ) of one Gaussian release with noise σ at sensitivity Δ."""
    if sigma <= 0:
        return math.inf
    if sensitivity == 0:
        return 0.0
    return float(get_epsilon_gaussian(sigma / sensitivity, delta))


def gdp_mu(epsilon: float, delta: float) -> float:
    """The μ of μ-GDP whose exact (ε, δ) profile passes through the given point."""
    _check_budget(epsilon, delta)
    if math.isinf(epsilon):
        return math.inf
    return 1.0 / get_sigma_gaussian(epsilon, delta, tol=_TOL)


def composed_epsilon(mu_squared: float, delta: float) -> float:
    """Exact ε(δ) of composed Gaussian releases with Σ(Δᵢ/σᵢ)² = μ² (Dong–Roth–Su)."""
    if mu_squared <= 0:
        return 0.0
    if math.isinf(mu_squared):
        return math.inf
    return float(get_epsilon_gaussian(1.0 / math.sqrt(mu_squared), delta))


def zcdp_rho(epsilon: float, delta: float) -> float:
    """Largest ρ such that ρ-zCDP implies (ε, δ)-DP by Bun–Steinke Prop. 1.3."""
    _check_budget(epsilon, delta)
    log_inv_delta = math.log(1 / delta)
    return (math.sqrt(epsilon + log_inv_delta) - math.sqrt(log_inv_delta)) ** 2


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
    details: dict[str, float | str | None] = field(default_factory=dict)

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
    if composition == "basic":
        sigma = analytic_gaussian_sigma(epsilon / k, delta / k, sensitivity)
        eps_chunk, delta_chunk = epsilon / k, delta / k
    elif composition == "zcdp":
        rho = zcdp_rho(epsilon, delta)
        sigma = sensitivity * math.sqrt(k / (2 * rho)) * (1 + SIGMA_ROUND_UP)
        delta_chunk = delta / k
        eps_chunk = gaussian_epsilon(sigma, delta_chunk, sensitivity)
    else:
        sigma = sensitivity * math.sqrt(k) / gdp_mu(epsilon, delta) * (1 + SIGMA_ROUND_UP)
        delta_chunk = delta / k
        eps_chunk = gaussian_epsilon(sigma, delta_chunk, sensitivity)
    mu_total_sq = k * (sensitivity / sigma) ** 2
    exact_epsilon = composed_epsilon(mu_total_sq, delta)
    details: dict[str, float | str | None] = {
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
        worst_eps = composed_epsilon(k * (worst_case / sigma) ** 2, delta)
        details["worst_case_epsilon_at_2C"] = worst_eps
        details["gdp_slope_per_unit_distance"] = 1.0 / sigma
        statement = (
            f"({_fmt(epsilon)}, {_fmt(delta)}) indistinguishability only between documents "
            f"whose chunk embeddings lie within L2 distance u = {_fmt(metric_unit)} of each "
            f"other (d-privacy; {composition} composition over K = {k} chunks, "
            f"σ = {sigma:.6g}). For larger distances the loss grows faster than linearly: "
            f"each chunk is (d/σ)-GDP, i.e. GDP slope 1/σ = {1 / sigma:.6g} per unit distance. "
            f"Against arbitrary documents (distance up to 2C = {_fmt(worst_case)}) this run "
            f"gives only ε = {worst_eps:.6g} at δ = {_fmt(delta)}."
        )
        caveats.append(
            "d-privacy is a weaker notion than (eps,delta)-DP: its epsilon is not comparable "
            "with worst-case DP epsilon, and it does not scale as (c*eps, c*delta) at distance "
            "c*u; the guarantee at distance d is eps(d) = get_epsilon_gaussian(sigma/d, delta)."
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
