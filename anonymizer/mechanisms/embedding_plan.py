"""The shared plan of every chunk-embedding Gaussian mechanism: pieces, K, σ and receipt.

`plan()` and the real rewrite both call this, so the receipt a preview shows is the one
the rewrite carries (same detector, same token counter, same accounting).
"""

from __future__ import annotations

from dataclasses import dataclass

from anonymizer.accounting import NoisePlan, plan_gaussian_noise
from anonymizer.mechanisms.base import detect_and_segment
from anonymizer.receipts import K_PUBLIC_CAVEAT, build_receipt
from anonymizer.segmentation import Piece, TokenCounter, count_chunks, heuristic_token_count
from anonymizer.settings import Settings
from anonymizer.types import Detection, Receipt


@dataclass(frozen=True)
class EmbeddingPlan:
    pieces: list[Piece]
    noise: NoisePlan
    receipt: Receipt

    @property
    def chunks(self) -> list[Piece]:
        return [p for p in self.pieces if p.chunk_idx is not None]


def plan_embedding_rewrite(
    text: str,
    settings: Settings,
    *,
    mechanism: str,
    models: dict[str, str],
    count_tokens: TokenCounter | None = None,
    extra_caveats: list[str] | None = None,
    gold: list[Detection] | None = None,
) -> EmbeddingPlan:
    """Detect, segment (at the encoder's token limit) and calibrate noise for one document."""
    caveats = list(extra_caveats or [])
    if count_tokens is None:
        count_tokens = heuristic_token_count
        caveats.append(
            "Chunk lengths were counted with a heuristic tokenizer because the encoder's "
            "tokenizer is not installed; the rewrite itself uses the real tokenizer and may "
            "split differently."
        )
    pieces = detect_and_segment(text, settings, count_tokens=count_tokens, gold=gold)
    noise = plan_gaussian_noise(
        settings.epsilon,
        settings.delta,
        count_chunks(pieces),
        clip_radius=settings.clip_radius,
        composition=settings.composition,
        metric_unit=settings.metric_unit,
    )
    if noise.n_chunks:
        caveats.append(K_PUBLIC_CAVEAT)
    receipt = build_receipt(
        mechanism=mechanism,
        settings=settings,
        text=text,
        notion=noise.notion,
        statement=noise.statement,
        noise=noise,
        models=models,
        caveats=caveats,
        details={"max_len": settings.max_len, "num_steps": settings.num_steps},
    )
    return EmbeddingPlan(pieces, noise, receipt)
