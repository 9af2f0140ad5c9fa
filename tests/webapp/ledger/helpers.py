"""Receipts of each kind (built by the real accounting code) and jobs run through the services."""

from __future__ import annotations

from dataclasses import replace

from anonymizer import RewriteResult, Settings
from anonymizer import plan as plan_rewrite
from anonymizer.accounting import gaussian_epsilon, plan_gaussian_noise
from anonymizer.receipts import build_receipt
from anonymizer.types import Receipt
from tests.factories import DocumentFactory
from webapp.jobs import services
from webapp.jobs.models import RewriteJob

GAUSSIAN_SETTINGS = Settings(mechanism="dp-embed-invert", detector="regex")
REDACT_SETTINGS = Settings(mechanism="redact", detector="regex")
TEXT = "Write to jane@example.com about the meeting; the budget is fine."
# the submit form for a dp-embed-invert job at ε = 4, δ = 1e-3 with exact (gdp) composition
GAUSSIAN_FORM = {
    "mechanism": "dp-embed-invert",
    "name": "memo",
    "text": TEXT,
    "epsilon": "4",
    "delta": "0.001",
    "composition": "gdp",
    "clip_radius": "1.5",
    "num_steps": "5",
    "max_len": "32",
    "detector": "regex",
}


def gaussian_receipt(
    epsilon: float = 4.0,
    delta: float = 1e-3,
    k: int = 2,
    *,
    composition: str = "gdp",
    clip_radius: float = 1.5,
    metric_unit: float | None = None,
) -> Receipt:
    """The receipt dp-embed-invert would carry for K chunks at this document budget."""
    noise = plan_gaussian_noise(
        epsilon,
        delta,
        k,
        clip_radius=clip_radius,
        composition=composition,
        metric_unit=metric_unit,
    )
    return build_receipt(
        mechanism="dp-embed-invert",
        settings=GAUSSIAN_SETTINGS,
        text=TEXT,
        notion=noise.notion,
        statement=noise.statement,
        noise=noise,
    )


def event_receipt(sigma: float, sensitivity: float, delta: float) -> Receipt:
    """A one-chunk Gaussian release with exactly this σ and Δ (and its own exact ε)."""
    base = gaussian_receipt(1.0, delta, 1, clip_radius=sensitivity / 2)
    return replace(
        base,
        sigma=sigma,
        sensitivity=sensitivity,
        epsilon_total=gaussian_epsilon(sigma, delta, sensitivity),
        epsilon_per_chunk=None,
    )


def token_receipt(n_tokens: int = 3, epsilon_per_token: float = 2.0) -> Receipt:
    """A SanText-shaped receipt: per-token metric LDP, no Gaussian noise."""
    base = plan_rewrite(TEXT, REDACT_SETTINGS).receipt
    return replace(
        base,
        mechanism="santext",
        notion="eps-metric-LDP per token (Euclidean)",
        composition="basic",
        epsilon_total=n_tokens * epsilon_per_token,
        delta_total=0.0,
        n_chunks=n_tokens,
        epsilon_per_chunk=epsilon_per_token,
        delta_per_chunk=0.0,
        details={"n_tokens": n_tokens, "epsilon_per_token": epsilon_per_token},
    )


def redact_receipt() -> Receipt:
    return plan_rewrite(TEXT, REDACT_SETTINGS).receipt


def no_noise_receipt() -> Receipt:
    """dp-embed-invert at ε = inf: no noise, no guarantee."""
    return gaussian_receipt(float("inf"), 1e-3, 2)


def submit(user, receipt: Receipt) -> RewriteJob:  # type: ignore[no-untyped-def]
    """Submit a job whose plan is this receipt (reserving its cost)."""
    document = DocumentFactory(owner=user, text=TEXT)
    return services.submit_job(user, document, GAUSSIAN_SETTINGS, planned=receipt)


def complete(job: RewriteJob, receipt: Receipt) -> RewriteJob:
    """Claim and complete a job with this receipt, as the worker would."""
    services.claim_job(job.pk)
    services.complete_job(job.pk, RewriteResult(TEXT, "rewritten", [], receipt))
    job.refresh_from_db()
    return job


def run_job(user, receipt: Receipt) -> RewriteJob:  # type: ignore[no-untyped-def]
    """Submit, claim and complete a job: a receipt stored and charged."""
    return complete(submit(user, receipt), receipt)
