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
