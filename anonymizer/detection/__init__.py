"""PII detection: pick a detector, apply allow/deny lists and the whitelist, resolve overlaps.

Order matters and is the same for every detector: the detector's raw (possibly overlapping)
detections lose whitelisted categories and spans inside allow-listed strings first, then
deny-list matches are added (an explicit "always redact" outranks both), and only then are
overlaps resolved, so that a dropped span never hides a different, overlapping one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.errors import InvalidSettings
from anonymizer.settings import Settings
from anonymizer.types import Detection, Detector

_FACTORIES: dict[str, Callable[[], Detector]] = {}
_INSTANCES: dict[str, Detector] = {}


def register_detector(name: str, factory: Callable[[], Detector]) -> None:
    _FACTORIES[name] = factory
    _INSTANCES.pop(name, None)


def get_detector(name: str) -> Detector:
    """The detector instance for a name, built once per process (models load lazily)."""
    _ensure_builtin()
    if name == "gold":
        raise InvalidSettings(
            "detector", "gold spans are per document: pass them as detect(text, settings, gold=...)"
        )
    if name not in _FACTORIES:
        raise InvalidSettings("detector", f"unknown detector {name!r}; use {', '.join(_FACTORIES)}")
    if name not in _INSTANCES:
        _INSTANCES[name] = _FACTORIES[name]()
    return _INSTANCES[name]


def warm_up(detector: Detector) -> None:
    """Load a detector's models, word lists and pattern databases before its first job, with
    its own `warm_up` where it has one."""
    prepare = getattr(detector, "warm_up", None)
    if prepare is not None:
        prepare()
    else:
        detector.detect("warm up")


def detector_names() -> list[str]:
    _ensure_builtin()
    return list(_FACTORIES)


def detect(text: str, settings: Settings, gold: list[Detection] | None = None) -> list[Detection]:
    """The placeholders a rewrite will use: detector output minus whitelist and allow list,
    plus deny list, without overlaps."""
    if not settings.redact_pii:
        return []
    if settings.detector == "gold":
        found = list(gold or [])
    elif settings.detector == "none":
        found = []
    else:
        found = get_detector(settings.detector).detect(text)
    return resolve_overlaps(
        apply_lists(
            text, found, settings.allow_list, settings.deny_list, settings.whitelist_categories
        )
    )


def apply_lists(
    text: str,
    detections: Iterable[Detection],
    allow_list: Iterable[str] = (),
    deny_list: Iterable[str] = (),
    whitelist_categories: Iterable[str] = (),
) -> list[Detection]:
    """Drop whitelisted categories and spans inside allow-listed strings; add deny matches."""
    whitelisted = {c.strip().lower() for c in whitelist_categories}
    allowed = [(m.start(), m.end()) for m in _whole_word_matches(text, allow_list)]
    kept = [
        d
        for d in detections
        if d.category not in whitelisted
        and not any(start <= d.start and d.end <= end for start, end in allowed)
    ]
    return kept + deny_list_matches(text, tuple(deny_list))


def deny_list_matches(text: str, deny_list: tuple[str, ...]) -> list[Detection]:
    """Every whole-word, case-insensitive occurrence of a deny-listed string."""
    return [
        Detection(
            m.start(), m.end(), "custom", placeholder_for("custom"), "deny-list", 1.0, "deny_list"
        )
        for m in _whole_word_matches(text, deny_list)
    ]


def _whole_word_matches(text: str, terms: Iterable[str]) -> list[re.Match[str]]:
    found = []
    for term in terms:
        if term.strip():
            pattern = re.compile(rf"(?<!\w){re.escape(term.strip())}(?!\w)", re.IGNORECASE)
            found.extend(pattern.finditer(text))
    return found


def _ensure_builtin() -> None:
    if "regex" in _FACTORIES:
        return
    from anonymizer.detection.combined import CombinedDetector
    from anonymizer.detection.learned import LearnedNerDetector
    from anonymizer.detection.presidio import PresidioDetector
    from anonymizer.detection.regex import RegexDetector
    from anonymizer.detection.spacy_ner import SpacyNerDetector
    from anonymizer.detection.transformer import GlinerDetector, TokenClassificationDetector

    register_detector("regex", RegexDetector)
    register_detector("presidio", PresidioDetector)
    register_detector("spacy", SpacyNerDetector)
    register_detector("ner", LearnedNerDetector)
    register_detector("combined", CombinedDetector)
    register_detector("transformers", TokenClassificationDetector.from_environment)
    register_detector("gliner", GlinerDetector.from_environment)
