"""Shared steps of every mechanism: detect, segment, stitch the output back together."""

from __future__ import annotations

from dataclasses import dataclass

from anonymizer.detection import detect
from anonymizer.segmentation import Piece, TokenCounter, heuristic_token_count, segment
from anonymizer.settings import Settings
from anonymizer.types import Detection, ProgressCallback, Receipt, RewriteResult, Span


@dataclass(frozen=True)
class Plan:
    """What a rewrite would do and carry, computed without loading any model."""

    original: str
    spans: list[Span]
    receipt: Receipt


def detect_and_segment(
    text: str,
    settings: Settings,
    *,
    count_tokens: TokenCounter = heuristic_token_count,
    gold: list[Detection] | None = None,
) -> list[Piece]:
    detections = detect(text, settings, gold=gold)
    return segment(
        text,
        detections,
        redact_pii=settings.redact_pii,
        max_len=settings.max_len,
        count_tokens=count_tokens,
    )


def spans_from_pieces(
    pieces: list[Piece], rewritten: dict[int, str] | None = None, *, numbered: bool = True
) -> list[Span]:
    """Output spans; `numbered=False` for mechanisms that rewrite no chunk (K = 0)."""
    rewritten = rewritten or {}
    return [
        Span(
            text=p.text,
            is_pii=p.is_pii,
            category=p.category,
            placeholder=p.placeholder,
            rewritten=rewritten.get(p.chunk_idx) if p.chunk_idx is not None else None,
            chunk_idx=p.chunk_idx if numbered else None,
            source=p.source,
        )
        for p in pieces
    ]


def stitch(spans: list[Span]) -> str:
    return "".join(s.output_text for s in spans)


def report(progress: ProgressCallback | None, fraction: float, stage: str) -> None:
    if progress is not None:
        progress(min(max(fraction, 0.0), 1.0), stage)


class SequentialBatchMixin:
    """`rewrite_many` for mechanisms without a cross-document batched path; `golds` are the
    per-document reviewed spans for `detector="gold"`."""

    def rewrite_many(
        self,
        texts: list[str],
        settings: Settings,
        progress: ProgressCallback | None = None,
        *,
        golds: list[list[Detection] | None] | None = None,
    ) -> list[RewriteResult]:
        golds = golds or [None] * len(texts)
        results = []
        for i, (text, gold) in enumerate(zip(texts, golds, strict=True)):

            def scaled(frac: float, stage: str, i: int = i) -> None:
                report(progress, (i + frac) / len(texts), f"document {i + 1}/{len(texts)}: {stage}")

            extra = {"gold": gold} if gold is not None else {}  # subclasses may not take it
            results.append(self.rewrite(text, settings, scaled, **extra))  # type: ignore[attr-defined]
        return results
