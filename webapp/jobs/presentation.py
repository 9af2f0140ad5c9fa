"""Turning a job's span trace into side-by-side rows for the result page."""

from __future__ import annotations

import zlib
from dataclasses import dataclass

N_CATEGORY_COLOURS = 10


@dataclass(frozen=True)
class SpanRow:
    kind: str  # "pii" | "chunk" | "plain"
    original: str | None
    output: str
    category: str | None
    colour: int

    @property
    def changed(self) -> bool:
        return self.kind != "plain"


def category_colour(category: str | None) -> int:
    """A stable colour index per category, so [EMAIL] chips look alike on every page."""
    if not category:
        return 0
    return zlib.crc32(category.encode("utf-8")) % N_CATEGORY_COLOURS


def span_rows(spans: list[dict]) -> list[SpanRow]:
    rows = []
    for span in spans:
        original = span.get("text")
        if span.get("is_pii"):
            output = span.get("placeholder") or span.get("rewritten") or ""
            rows.append(
                SpanRow(
                    "pii",
                    original,
                    output,
                    span.get("category"),
                    category_colour(span.get("category")),
                )
            )
        elif span.get("rewritten") is not None:
            rows.append(SpanRow("chunk", original, span["rewritten"], None, 0))
        else:
            rows.append(SpanRow("plain", original, original or "", None, 0))
    return rows
