"""A person's review of the detections before a rewrite: accept or reject each detected span,
add missed ones, set a confidence threshold; the rewrite then uses exactly those spans.

The reviewed spans go to the mechanism as gold spans (`detector="gold"`) with the lists
emptied (they were applied when the candidates were found), and the receipt says who
reviewed, what was kept on purpose and how many spans were added.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace

from anonymizer.detection import detect
from anonymizer.detection.categories import normalise_category, placeholder_for
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.operators import normalised
from anonymizer.receipts import DETECTOR_CAVEAT
from anonymizer.settings import Settings
from anonymizer.types import Detection, Receipt

ACCEPT, REJECT = "accept", "reject"
REVIEW_SOURCE = "review"
REVIEWED_CAVEAT = (
    "PII spans were proposed by a heuristic detector ({detector}) and then reviewed by a "
    "person ({reviewer}), who kept {kept} in the output on purpose and marked {added}; "
    "neither step is covered by any formal guarantee, and which spans were replaced is "
    "visible in the output."
)


def review_candidates(text: str, settings: Settings) -> list[Detection]:
    """What the rewrite would replace with these settings (lists and whitelist applied,
    overlaps resolved), plus the token mechanisms' sensitive words: the review's start."""
    from anonymizer.token_dp.tokens import sensitive_word_matches

    found = detect(text, settings)
    if settings.sensitive_words:
        found = resolve_overlaps(found + sensitive_word_matches(text, settings))
    return sorted(found, key=lambda d: (d.start, d.end))


def reviewed_settings(settings: Settings) -> Settings:
    """The settings the rewrite runs with: the reviewed spans are final."""
    return settings.with_changes(
        detector="gold",
        redact_pii=True,
        allow_list=(),
        deny_list=(),
        whitelist_categories=(),
        sensitive_words=(),
    )


def is_accepted(candidate: Detection, decision: str | None, threshold: float) -> bool:
    """A person's decision wins; otherwise the span stays when its score reaches the threshold."""
    if decision in (ACCEPT, REJECT):
        return decision == ACCEPT
    return candidate.score >= threshold


def added_span(start: int, end: int, category: str) -> Detection:
    category = normalise_category(category)
    return Detection(start, end, category, placeholder_for(category), REVIEW_SOURCE, 1.0, "review")


def occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    """Every whole-word occurrence of `needle` (exact text, any case, any inner spacing)."""
    words = needle.split()
    if not words:
        return []
    pattern = r"\s+".join(re.escape(w) for w in words)
    return [(m.start(), m.end()) for m in re.finditer(rf"(?<!\w){pattern}(?!\w)", text, re.I)]


def final_spans(
    candidates: list[Detection],
    decisions: dict[int, str],
    added: list[Detection],
    threshold: float,
) -> list[Detection]:
    """The spans the rewrite replaces: accepted candidates and added spans, overlapping ones
    merged into their union (so that adding or accepting a span never reveals text)."""
    chosen = [c for i, c in enumerate(candidates) if is_accepted(c, decisions.get(i), threshold)]
    spans = sorted([*added, *chosen], key=lambda d: (d.start, -d.end))
    merged: list[Detection] = []
    for span in spans:
        if merged and span.start < merged[-1].end:
            merged[-1] = _union(merged[-1], span)
        else:
            merged.append(span)
    return merged


def _union(a: Detection, b: Detection) -> Detection:
    """One span covering both; an added span's category wins, then the longer one's."""
    lead = a
    if (b.source == REVIEW_SOURCE) != (a.source == REVIEW_SOURCE):
        lead = b if b.source == REVIEW_SOURCE else a
    elif b.end - b.start > a.end - a.start:
        lead = b
    return replace(lead, start=min(a.start, b.start), end=max(a.end, b.end))


@dataclass(frozen=True)
class ReviewSummary:
    """What the review changed, for the receipt (kept strings are in the output anyway;
    added spans are counted, never quoted)."""

    reviewer: str
    detector: str
    threshold: float
    detected: int
    kept_strings: list[str]
    kept_by_category: dict[str, int]
    kept_below_threshold: int
    added: int
    added_by_category: dict[str, int]

    def to_dict(self) -> dict:
        return {
            "reviewer": self.reviewer,
            "detector": self.detector,
            "threshold": self.threshold,
            "detected_spans": self.detected,
            "kept_spans": sum(self.kept_by_category.values()),
            "kept_strings": self.kept_strings,
            "kept_by_category": self.kept_by_category,
            "kept_below_threshold": self.kept_below_threshold,
            "added_spans": self.added,
            "added_by_category": self.added_by_category,
        }


def summarise_review(
    text: str,
    candidates: list[Detection],
    decisions: dict[int, str],
    added: list[Detection],
    threshold: float,
    *,
    reviewer: str,
    detector: str,
) -> ReviewSummary:
    kept = [
        (i, c) for i, c in enumerate(candidates) if not is_accepted(c, decisions.get(i), threshold)
    ]
    kept_strings = list(dict.fromkeys(text[c.start : c.end] for _, c in kept))
    by_norm = {normalised(s): s for s in kept_strings}
    return ReviewSummary(
        reviewer=reviewer,
        detector=detector,
        threshold=threshold,
        detected=len(candidates),
        kept_strings=list(by_norm.values()),
        kept_by_category=dict(Counter(c.category for _, c in kept)),
        kept_below_threshold=sum(1 for i, c in kept if decisions.get(i) is None),
        added=len(added),
        added_by_category=dict(Counter(a.category for a in added)),
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def mark_reviewed(receipt: Receipt, summary: ReviewSummary) -> Receipt:
    """The receipt of a gold-span rewrite, saying the spans came from a reviewed detection."""
    gold_caveat = DETECTOR_CAVEAT.format(detector="gold")
    reviewed = REVIEWED_CAVEAT.format(
        detector=summary.detector,
        reviewer=summary.reviewer,
        kept=_count(sum(summary.kept_by_category.values()), "detected span"),
        added=_count(summary.added, "span") + (" more" if summary.added else ""),
    )
    caveats = [c for c in receipt.caveats if c != gold_caveat]
    return replace(
        receipt,
        detector=f"{summary.detector}, reviewed",
        caveats=[reviewed, *caveats],
        details={**receipt.details, "review": summary.to_dict()},
    )
