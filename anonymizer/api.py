"""The one-call Python entry points: rewrite, rewrite_many and plan."""

from __future__ import annotations

from typing import Any

from anonymizer.mechanisms.base import Plan
from anonymizer.registry import get_mechanism, mechanism_info
from anonymizer.settings import Settings
from anonymizer.types import ProgressCallback, RewriteResult


def _settings(settings: Settings | None, overrides: dict[str, Any]) -> Settings:
    base = settings or Settings()
    return Settings.from_mapping({**base.to_dict(), **overrides}) if overrides else base


def rewrite(
    text: str,
    settings: Settings | None = None,
    progress: ProgressCallback | None = None,
    **overrides: Any,
) -> RewriteResult:
    """Rewrite one text with the configured mechanism (seed keyword names accepted)."""
    resolved = _settings(settings, overrides)
    return get_mechanism(resolved.mechanism).rewrite(text, resolved, progress)


def rewrite_many(
    texts: list[str],
    settings: Settings | None = None,
    progress: ProgressCallback | None = None,
    **overrides: Any,
) -> list[RewriteResult]:
    """Rewrite several texts with one settings object, batching where the mechanism can."""
    resolved = _settings(settings, overrides)
    return get_mechanism(resolved.mechanism).rewrite_many(texts, resolved, progress)


def plan(text: str, settings: Settings | None = None, **overrides: Any) -> Plan:
    """Detection, segmentation and accounting only: the receipt a rewrite would carry."""
    resolved = _settings(settings, overrides)
    info = mechanism_info(resolved.mechanism)
    mechanism = info.factory() if info.unavailable_reason() else get_mechanism(resolved.mechanism)
    return mechanism.plan(text, resolved)
