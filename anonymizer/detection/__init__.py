"""PII detection: pick a detector, apply allow/deny lists and the whitelist, resolve overlaps."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.errors import InvalidSettings
from anonymizer.settings import Settings
from anonymizer.types import Detection, Detector

_FACTORIES: dict[str, Callable[[], Detector]] = {}


def register_detector(name: str, factory: Callable[[], Detector]) -> None:
    _FACTORIES[name] = factory


@cache
def get_detector(name: str) -> Detector:
    """The detector instance for a name, built once per process (models load lazily)."""
    _ensure_builtin()
    if name not in _FACTORIES:
        raise InvalidSettings("detector", f"unknown detector {name!r}; use {', '.join(_FACTORIES)}")
    return _FACTORIES[name]()


def detector_names() -> list[str]:
    _ensure_builtin()
    return list(_FACTORIES)


def detect(text: str, settings: Settings, gold: list[Detection] | None = None) -> list[Detection]:
    """The placeholders a rewrite will use: detector output, deny list, minus allow list."""
    if not settings.redact_pii:
        return []
    if settings.detector == "gold":
        found = list(gold or [])
    elif settings.detector == "none":
        found = []
    else:
        found = get_detector(settings.detector).detect(text)
    found.extend(deny_list_matches(text, settings.deny_list))
    allowed = {a.casefold() for a in settings.allow_list}
    whitelisted = {c.lower() for c in settings.whitelist_categories}
    kept = [
        d for d in found
        if text[d.start : d.end].casefold() not in allowed and d.category not in whitelisted
    ]
    return resolve_overlaps(kept)


def deny_list_matches(text: str, deny_list: tuple[str, ...]) -> list[Detection]:
    """Every whole-word, case-insensitive occurrence of a deny-listed string."""
    found = []
    for term in deny_list:
        pattern = re.compile(rf"(?<!\w){re.escape(term)}(?!\w)", re.IGNORECASE)
        for m in pattern.finditer(text):
            found.append(
                Detection(m.start(), m.end(), "custom", placeholder_for("custom"), "deny-list",
                          1.0, "deny_list")
            )
    return found


def _ensure_builtin() -> None:
    if "regex" not in _FACTORIES:
        from anonymizer.detection.regex import RegexDetector

        register_detector("regex", RegexDetector)
