"""Planning a submission in a web request with bounded work.

A text up to INLINE_PLAN_MAX_CHARS is planned exactly (detection, segmentation, accounting:
the receipt the rewrite will carry). A longer text is not detected in the request: its budget
reservation is the receipt of a one-chunk document with the same settings, which bounds the
cost of any K (exact and zCDP composition cost the same for every K; basic composition costs
most at K = 1), and the worker plans it exactly and charges that.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from django.conf import settings as django_settings

from anonymizer import AnonymizerError, Settings
from anonymizer.api import plan
from anonymizer.types import Receipt

log = logging.getLogger(__name__)
# Errors the settings maths can raise on extreme values (besides AnonymizerError).
PLANNING_ERRORS = (AnonymizerError, ValueError, ArithmeticError)
_ONE_CHUNK_TEXT = "word"


class PlanningError(ValueError):
    """The settings cannot be planned for this text; the message says why."""


@dataclass(frozen=True)
class Planned:
    receipt: Receipt
    exact: bool  # False: a bound over every K; the worker computes the exact receipt
    n_pii: int | None  # detected PII spans (None when nothing was detected in the request)
    n_chars: int


def plan_bounded(text: str, rewrite_settings: Settings) -> Planned:
    """The receipt to show and reserve for, with detection only on a text of bounded size."""
    try:
        if len(text) <= django_settings.INLINE_PLAN_MAX_CHARS:
            planned = plan(text, rewrite_settings)
            n_pii = sum(1 for span in planned.spans if span.is_pii)
            result = Planned(planned.receipt, True, n_pii, len(text))
        else:
            result = Planned(worst_case_receipt(rewrite_settings), False, None, len(text))
        check_representable(result.receipt)
    except PLANNING_ERRORS as exc:
        log.info("planning failed: %s: %s", type(exc).__name__, exc)
        raise PlanningError(planning_message(exc)) from exc
    return result


NOISE_FIELDS = (
    "sigma",
    "sensitivity",
    "rho",
    "delta_total",
    "epsilon_per_chunk",
    "delta_per_chunk",
)


def check_representable(receipt: Receipt) -> None:
    """Refuse settings whose noise figures overflow (σ = inf or NaN cannot be stored or used).

    ε = inf is a legitimate request (no noise, no guarantee); then ε per chunk is inf too.
    """
    no_noise = receipt.epsilon_total == math.inf
    for name in NOISE_FIELDS:
        if no_noise and name == "epsilon_per_chunk":
            continue
        value = getattr(receipt, name)
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{name} would be {value}, which cannot be used")
    if isinstance(receipt.epsilon_total, float) and math.isnan(receipt.epsilon_total):
        raise ValueError("the total ε would be NaN")


def worst_case_receipt(rewrite_settings: Settings) -> Receipt:
    """The receipt of a one-chunk, PII-free document with these settings (see the module)."""
    one_chunk = rewrite_settings.with_changes(detector="none", allow_list=(), deny_list=())
    return plan(_ONE_CHUNK_TEXT, one_chunk).receipt


def planning_message(exc: BaseException) -> str:
    """A sentence for the form: the library's own message, or what went wrong in the maths."""
    if isinstance(exc, AnonymizerError):
        return str(exc)
    return (
        f"These settings cannot be computed ({type(exc).__name__}: {exc}); "
        "try less extreme values of ε, δ, C or u."
    )
