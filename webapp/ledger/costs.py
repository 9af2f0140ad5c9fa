"""What one release costs against a user's cap, computed from its receipt (no database here).

Spec §2.4: a Gaussian release with noise σ at sensitivity Δ is (Δ/σ)-GDP, and a user's
releases compose exactly to μ² = Σ(Δᵢ/σᵢ)². Spec §3: a d-privacy release is charged at its
worst case Δ = 2C, so the cap stays an ordinary (ε, δ)-DP bound; its own ε (at unit u) is
reported separately. Token sanitizers (metric LDP) and releases without a guarantee cost
nothing against the Gaussian cap and are listed with their own notion. A seeded receipt is a
release without a guarantee whatever its settings (its noise is reproducible), including
receipts stored before seeded receipts said so themselves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from anonymizer.accounting import composed_epsilon, gdp_mu, plan_gaussian_noise
from anonymizer.errors import InvalidSettings
from anonymizer.types import Receipt

GAUSSIAN = "gaussian"
D_PRIVACY = "d-privacy"
OTHER = "other"
NONE = "none"
FIT_RELATIVE_PRECISION = 1e-4  # enough for the 3 significant digits shown
SMALLEST_EPSILON_TRIED = 1e-6
FLOAT_FIELDS = (
    "epsilon_total",
    "delta_total",
    "epsilon_per_chunk",
    "delta_per_chunk",
    "rho",
    "sigma",
    "sensitivity",
    "clip_radius",
    "metric_unit",
)


@dataclass(frozen=True)
class GaussianEvent:
    """One noised chunk: Gaussian noise σ at L2 sensitivity Δ, i.e. (Δ/σ)-GDP."""

    sigma: float
    sensitivity: float

    @property
    def mu_squared(self) -> float:
        return (self.sensitivity / self.sigma) ** 2

    def to_dict(self) -> dict[str, float]:
        return {"sigma": self.sigma, "sensitivity": self.sensitivity}


@dataclass(frozen=True)
class ReleaseCost:
    """A receipt as the ledger sees it."""

    kind: str
    mechanism: str
    notion: str
    events: tuple[GaussianEvent, ...]
    epsilon: float | None  # the receipt's own ε (d-privacy: at unit u), when finite
    delta: float | None
    basic_epsilon: float  # what it adds to the basic-composition sum (worst-case ε)
    basic_delta: float
    metric_unit: float | None
    n_chunks: int
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def mu_squared(self) -> float:
        return math.fsum(e.mu_squared for e in self.events)

    @property
    def chargeable(self) -> bool:
        return self.kind in (GAUSSIAN, D_PRIVACY)


def release_cost(receipt: Receipt) -> ReleaseCost:
    """Classify a receipt and list its Gaussian events (one per noised chunk)."""
    sigma = receipt.sigma or 0.0
    finite_eps = _finite(receipt.epsilon_total)
    details: dict[str, Any] = {"seeded": receipt.seeded}
    common = {
        "mechanism": receipt.mechanism,
        "notion": receipt.notion,
        "delta": receipt.delta_total,
        "n_chunks": receipt.n_chunks,
    }
    noised = sigma > 0 and receipt.n_chunks > 0
    if noised and not receipt.seeded and not receipt.notion.startswith("none"):
        is_d_privacy = receipt.metric_unit is not None or "d-privacy" in receipt.notion
        sensitivity = _worst_case_sensitivity(receipt, is_d_privacy)
        events = (GaussianEvent(sigma, sensitivity),) * receipt.n_chunks
        delta = float(receipt.delta_total or 0.0)
        if is_d_privacy:
            basic = composed_epsilon(receipt.n_chunks * (sensitivity / sigma) ** 2, delta)
        else:
            basic = float(receipt.epsilon_total or 0.0)
        return ReleaseCost(
            kind=D_PRIVACY if is_d_privacy else GAUSSIAN,
            events=events,
            epsilon=finite_eps,
            basic_epsilon=basic,
            basic_delta=delta,
            metric_unit=receipt.metric_unit,
            details=details,
            **common,
        )
    formal = not (receipt.seeded or receipt.notion.startswith("none") or finite_eps is None)
    if formal:  # another notion (token sanitizers): listed with its own figures
        for key in ("n_tokens", "epsilon_per_token", "per_token_notion"):
            if key in receipt.details:
                details[key] = receipt.details[key]
    else:
        details["statement"] = receipt.statement
    return ReleaseCost(
        kind=OTHER if formal else NONE,
        events=(),
        epsilon=finite_eps if formal else None,
        basic_epsilon=0.0,
        basic_delta=0.0,
        metric_unit=receipt.metric_unit,
        details=details,
        **common,
    )


@lru_cache(maxsize=4096)
def epsilon_at(mu_squared: float, delta: float) -> float:
    """composed_epsilon, remembered: a numerical solve (2–3 ms) that every page with a budget
    asks for with the same few (μ², δ)."""
    return composed_epsilon(mu_squared, delta)


@lru_cache(maxsize=1024)  # a numerical solve, asked for on every page with a budget
def cap_mu_squared(epsilon_cap: float | None, delta_cap: float) -> float:
    """μ_B² of a cap (ε_B, δ_B): 1/get_sigma_gaussian(ε_B, δ_B)²; no cap is ∞, δ_B = 0 is 0."""
    if epsilon_cap is None or math.isinf(epsilon_cap):
        return math.inf
    if delta_cap <= 0:
        return 0.0
    return gdp_mu(epsilon_cap, delta_cap) ** 2


def largest_fitting_epsilon(receipt: Receipt, available_mu_squared: float) -> float | None:
    """The largest document ε (same K, δ, composition, C, u) whose cost fits, rounded down.

    None when not even a tiny ε fits. Any (ε, δ)-DP plan costs at most μ(ε, δ)² (exact
    composition is the tightest), times (2C/u)² for d-privacy, which gives an ε that fits in
    closed form; bisection up from there finds the edge for basic and zCDP composition.
    """
    requested = _finite(receipt.epsilon_total)
    if available_mu_squared <= 0 or receipt.n_chunks == 0 or requested is None:
        return None
    delta = float(receipt.delta_total or 0.0)

    def cost(epsilon: float) -> float:
        try:
            plan = plan_gaussian_noise(
                epsilon,
                delta,
                receipt.n_chunks,
                clip_radius=float(receipt.clip_radius or 0.0),
                composition=receipt.composition or "basic",
                metric_unit=receipt.metric_unit,
            )
        except InvalidSettings:  # an ε the accounting cannot calibrate never fits
            return math.inf
        worst = 2 * plan.clip_radius if plan.metric_unit is not None else plan.sensitivity
        return plan.n_chunks * (worst / plan.sigma) ** 2

    if cost(requested) <= available_mu_squared:
        return requested
    ratio = 2 * float(receipt.clip_radius or 0) / receipt.metric_unit if receipt.metric_unit else 1
    lo = composed_epsilon(available_mu_squared / ratio**2, delta) * (1 - 1e-6)
    if not lo > 0 or cost(lo) > available_mu_squared:
        lo = SMALLEST_EPSILON_TRIED
        if cost(lo) > available_mu_squared:
            return None
    hi = requested
    while hi - lo > FIT_RELATIVE_PRECISION * lo:
        mid = math.sqrt(lo * hi)
        if cost(mid) <= available_mu_squared:
            lo = mid
        else:
            hi = mid
    rounded = _round_down(lo)
    return rounded if cost(rounded) <= available_mu_squared else lo


def _worst_case_sensitivity(receipt: Receipt, is_d_privacy: bool) -> float:
    if is_d_privacy:
        if not receipt.clip_radius:
            raise ValueError("a d-privacy receipt needs its clip radius C to bound its cost")
        return 2 * float(receipt.clip_radius)
    if not receipt.sensitivity:
        raise ValueError("a Gaussian receipt needs its sensitivity Δ")
    return float(receipt.sensitivity)


def _finite(x: float | str | None) -> float | None:
    if x is None or isinstance(x, str):
        return None
    return float(x) if math.isfinite(x) else None


def _round_down(x: float, digits: int = 3) -> float:
    """x rounded down to `digits` significant digits (so that it still fits)."""
    scale = 10 ** (digits - 1 - math.floor(math.log10(x)))
    return math.floor(x * scale) / scale


def fmt(x: float | None) -> str:
    """A figure for people: 4 significant digits, ∞ for no bound."""
    if x is None:
        return "—"
    if math.isinf(x):
        return "∞"
    return f"{x:.4g}"


def receipt_from_payload(payload: dict[str, Any]) -> Receipt:
    """A stored receipt payload (non-finite floats written as strings) back as a Receipt."""
    names = {f.name for f in fields(Receipt)}
    data = {k: v for k, v in payload.items() if k in names}
    for key in FLOAT_FIELDS:
        if isinstance(data.get(key), str):
            data[key] = float(data[key])
    return Receipt(**data)
