"""The one-call Python entry points: rewrite, rewrite_many and plan.

`gold` / `golds` carry per-document spans (a person's review, or dataset annotations) for
`detector="gold"`; every registered mechanism honours them.
"""

from __future__ import annotations

from typing import Any

from anonymizer.mechanisms.base import Plan
from anonymizer.operators import apply_operator, config_from_settings
from anonymizer.registry import get_mechanism, mechanism_info
from anonymizer.settings import Settings
from anonymizer.types import Detection, ProgressCallback, RewriteResult


def _settings(settings: Settings | None, overrides: dict[str, Any]) -> Settings:
    base = settings or Settings()
    return Settings.from_mapping({**base.to_dict(), **overrides}) if overrides else base


def rewrite(
    text: str,
    settings: Settings | None = None,
    progress: ProgressCallback | None = None,
    *,
    gold: list[Detection] | None = None,
    **overrides: Any,
) -> RewriteResult:
    """Rewrite one text with the configured mechanism (seed keyword names accepted)."""
    resolved = _settings(settings, overrides)
    mechanism = get_mechanism(resolved.mechanism)
    if gold is None:
        result = mechanism.rewrite(text, resolved, progress)
    else:
        result = mechanism.rewrite(text, resolved, progress, gold=gold)  # type: ignore[call-arg]
    return with_operator(result, resolved)


def rewrite_many(
    texts: list[str],
    settings: Settings | None = None,
    progress: ProgressCallback | None = None,
    *,
    golds: list[list[Detection] | None] | None = None,
    **overrides: Any,
) -> list[RewriteResult]:
    """Rewrite several texts with one settings object, batching where the mechanism can."""
    resolved = _settings(settings, overrides)
    mechanism = get_mechanism(resolved.mechanism)
    if golds is None:
        results = mechanism.rewrite_many(texts, resolved, progress)
    else:
        results = mechanism.rewrite_many(texts, resolved, progress, golds=golds)  # type: ignore[call-arg]
    return [with_operator(result, resolved) for result in results]


def with_operator(result: RewriteResult, settings: Settings) -> RewriteResult:
    """The settings' replacement operator applied with a fresh memory and a random salt
    (the web app re-applies it with the user's salt and document set)."""
    if settings.operator == "placeholder":
        return result
    return apply_operator(result, config_from_settings(settings))[0]


def plan(
    text: str,
    settings: Settings | None = None,
    *,
    gold: list[Detection] | None = None,
    **overrides: Any,
) -> Plan:
    """Detection, segmentation and accounting only: the receipt a rewrite would carry."""
    resolved = _settings(settings, overrides)
    info = mechanism_info(resolved.mechanism)
    mechanism = info.factory() if info.unavailable_reason() else get_mechanism(resolved.mechanism)
    if gold is None:
        return mechanism.plan(text, resolved)
    return mechanism.plan(text, resolved, gold=gold)  # type: ignore[call-arg]
