"""What a detector found, as the surfaces of one category: the rule-round tests' assertions."""

from __future__ import annotations

from collections.abc import Iterable

from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.types import Detection


def found_spans(detections: Iterable[Detection], text: str, category: str) -> list[str]:
    """The surfaces of `category` that survive overlap resolution, as the pipeline redacts."""
    return [
        text[d.start : d.end] for d in resolve_overlaps(list(detections)) if d.category == category
    ]


def raw_spans(detections: Iterable[Detection], text: str, category: str) -> list[str]:
    """Every detection's surface of `category`, overlaps included (a rule's own output)."""
    return [text[d.start : d.end] for d in detections if d.category == category]
