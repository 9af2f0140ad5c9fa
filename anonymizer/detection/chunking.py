"""Detection on documents of any size: overlapping chunks, spans mapped back, one owner each.

A chunk ends at a line break or a space near its nominal size, and the next one starts
`overlap` characters before that end. Each chunk owns the detections that start in its half
of the overlaps on either side, so a span shorter than `overlap / 2` is always seen whole by
the chunk that owns it, and is reported once. Memory then grows with the chunk size, not the
document (spaCy refuses texts over `nlp.max_length`: error E088).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from anonymizer.types import Detection

Chunk = tuple[int, int]


def chunk_bounds(text: str, size: int, overlap: int) -> list[Chunk]:
    """[start, end) character ranges covering `text`, consecutive ones overlapping."""
    if size <= 2 * overlap:
        raise ValueError("chunk size must exceed twice the overlap")
    n = len(text)
    if n <= size:
        return [(0, n)]
    bounds: list[Chunk] = []
    start = 0
    while True:
        end = min(n, start + size)
        if end < n:
            end = _soft_end(text, start + size - overlap // 2, end)
        bounds.append((start, end))
        if end >= n:
            return bounds
        start = end - overlap


def _soft_end(text: str, low: int, high: int) -> int:
    """The last line break (else space) in [low, high), or high when there is none."""
    for sep in ("\n", " "):
        cut = text.rfind(sep, low, high)
        if cut > low:
            return cut + 1
    return high


def owned_ranges(bounds: Sequence[Chunk]) -> list[Chunk]:
    """For each chunk, the start offsets it owns: from the middle of the overlap before it to
    the middle of the overlap after it."""
    owned = []
    for i, (start, end) in enumerate(bounds):
        low = start if i == 0 else (start + bounds[i - 1][1]) // 2
        high = end if i == len(bounds) - 1 else (bounds[i + 1][0] + end) // 2
        owned.append((low, high))
    return owned


def detect_in_chunks(
    text: str,
    detect_many: Callable[[list[str]], list[list[Detection]]],
    size: int,
    overlap: int,
) -> list[Detection]:
    """Run a batch detector over overlapping chunks; detections in document offsets, each once."""
    bounds = chunk_bounds(text, size, overlap)
    if len(bounds) == 1:
        return detect_many([text])[0]
    found: dict[tuple[int, int, str, str | None], Detection] = {}
    per_chunk = detect_many([text[s:e] for s, e in bounds])
    for (start, _), (low, high), detections in zip(
        bounds, owned_ranges(bounds), per_chunk, strict=True
    ):
        for d in detections:
            if low <= d.start + start < high:
                moved = replace(d, start=d.start + start, end=d.end + start)
                found.setdefault((moved.start, moved.end, moved.category, moved.rule_id), moved)
    return list(found.values())
