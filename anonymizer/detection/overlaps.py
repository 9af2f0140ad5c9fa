"""Overlap resolution shared by every detector: earliest, then longest, then most confident."""

from __future__ import annotations

from anonymizer.types import Detection


def resolve_overlaps(detections: list[Detection]) -> list[Detection]:
    """Keep a non-overlapping subset, preferring earliest start, then length, then score."""
    ordered = sorted(detections, key=lambda d: (d.start, -(d.end - d.start), -d.score))
    kept: list[Detection] = []
    for det in ordered:
        if det.end <= det.start:
            continue
        if kept and det.start < kept[-1].end:
            continue
        kept.append(det)
    return kept
