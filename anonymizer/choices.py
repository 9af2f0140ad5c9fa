"""The receipt's record of every choice that released data on purpose or shaped the output:
kept categories, allow and deny lists, the detector, the operator and the review."""

from __future__ import annotations

from collections import Counter
from typing import Any

from anonymizer.settings import Settings
from anonymizer.types import Span


def choices_record(chosen: Settings, spans: list[Span], *, reviewed: bool) -> dict[str, Any]:
    """`chosen` are the user's settings (before a review turned them into gold spans).

    Allow-listed strings are quoted (they are in the output anyway); deny-listed and
    sensitive words are only counted, since the output hides them.
    """
    replaced = Counter(s.category or "custom" for s in spans if s.is_pii)
    return {
        "replaced_spans": sum(replaced.values()),
        "replaced_by_category": dict(replaced),
        "detector": chosen.detector if chosen.redact_pii else "off",
        "kept_categories": list(chosen.whitelist_categories),
        "allow_list": list(chosen.allow_list),
        "deny_list_entries": len(chosen.deny_list),
        "sensitive_words_entries": len(chosen.sensitive_words),
        "operator": chosen.operator,
        "reviewed": reviewed,
    }


DETECTOR_HELP = {
    "combined": "Regex rules + a NER model trained for this tool (names, places, "
    "organisations, nationalities), weighed together with context, + every other mention "
    "of a found name. The default: finds the most. Heuristic: it can still miss PII.",
    "regex": "Over 100 rules: emails, phones, IBANs, cards (checksummed), IDs, IPs, URLs, "
    "addresses, dates. Misses names without a title or role, and most places and "
    "organisations.",
    "presidio": "Presidio's recognizers with spaCy NER: names, places, organisations, emails, "
    "phones, cards. Misses IBANs without context, internal/reference IDs, secrets and many "
    "non-US formats.",
    "spacy": "spaCy NER only: names, places, organisations, dates. Misses emails, phone "
    "numbers, IBANs, cards and every other identifier.",
    "none": "Finds nothing. Only for rewriting everything with noise (DP embedding inversion), "
    "for token sanitizers given sensitive words, or to mark every span yourself in a review.",
}
DETECTOR_NONE_WARNING = (
    "No detector: nothing is replaced by a placeholder, so names and identifiers are protected "
    "only by the noise. At large ε the inversion can reproduce them verbatim."
)


def detector_none_problem(settings: Settings, *, reviewing: bool) -> str | None:
    """Why `detector="none"` makes no sense for these settings (None when it does)."""
    if settings.detector != "none" or not settings.redact_pii or reviewing:
        return None
    if settings.mechanism == "redact" and not settings.deny_list:
        return (
            "Placeholder redaction with no detector replaces nothing. Choose a detector, "
            "list strings under “always redact”, or review and mark the spans yourself."
        )
    token_mechanisms = ("santext", "custext", "clusant")
    if settings.mechanism in token_mechanisms and not (
        settings.sensitive_words or settings.deny_list or settings.sanitize_general_words
    ):
        return (
            "With no detector this sanitizer has nothing to replace. Choose a detector, give "
            "sensitive words, or review and mark the spans yourself."
        )
    return None
