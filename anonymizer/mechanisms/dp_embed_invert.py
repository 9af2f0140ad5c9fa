"""dp-embed-invert: the seed's mechanism. Each plain chunk's GTR embedding is clipped to radius
C, noised with the Gaussian σ of the plan, and decoded back to text by vec2text.

For each of the K chunks of `plan_embedding_rewrite` (which also does detection, segmentation at
`max_len` encoder tokens and the accounting, so `plan()` and the rewrite agree):
    e_k = mean-pool of the GTR-t5-base T5 encoder over the attention mask (no Dense, no norm)
    ē_k = e_k · min(1, C / ‖e_k‖₂)            (clip_to_radius)
    ẽ_k = ē_k + N(0, σ² I)                     (skipped when ε = ∞)
    c̃_k = vec2text hypothesiser + `num_steps` corrector steps on ẽ_k
Placeholders and pass-through pieces are stitched back in order around the c̃_k. All chunks of
all documents of a call go through the encoder and the corrector together, micro-batched by
`settings.batch_size`. Models are found by `anonymizer.models.resolver` and loaded once per
process; this module imports torch only when a rewrite runs.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from dataclasses import dataclass, replace

import numpy as np

from anonymizer.errors import InvalidSettings, MechanismUnavailable
from anonymizer.mechanisms.base import Plan, report, spans_from_pieces, stitch
from anonymizer.mechanisms.embedding_plan import EmbeddingPlan, plan_embedding_rewrite
from anonymizer.mechanisms.gaussian_noise import (
    FLOAT_CAVEAT,
    NUMPY,
    clip_and_noise,
    clip_to_radius,
    noise_generator,
    sampler_description,
    sampler_for,
)
from anonymizer.models.resolver import (
    ROLES,
    MissingModel,
    ResolvedModel,
    is_published,
    missing_reason,
    model_ref,
    model_source,
    resolve_all,
)
from anonymizer.models.tokens import encoder_token_counter
from anonymizer.registry import MechanismInfo, register
from anonymizer.settings import Settings
from anonymizer.types import Detection, ProgressCallback, RewriteResult

NAME = "dp-embed-invert"
INSTALL_PACKAGES = (
    "pip install -e '.[ml]' -c constraints.txt && pip install --no-deps vec2text==0.0.13"
)
NEWEST_TRANSFORMERS = (4, 49)  # vec2text 0.0.13 breaks from 4.50 on (vec2text issue #86)
CAVEATS = [
    "Pieces without letters or digits (whitespace, punctuation between placeholders) and the "
    "whitespace at the edges of each rewritten chunk are copied from the input; they are not "
    "covered by the guarantee.",
]
__all__ = ["DpEmbedInvertMechanism", "EmbeddingTrace", "clip_to_radius", "noise_generator"]
# Fractions of the progress bar: detection, loading and encoding come before inversion.
_ENCODING_START, _INVERSION_START = 0.05, 0.15


@dataclass(frozen=True)
class EmbeddingTrace:
    """One document's embeddings at each stage, for tests and audits (never in the output)."""

    raw: np.ndarray  # (K, 768) encoder embeddings
    clipped: np.ndarray  # after clip_to_radius
    noise: np.ndarray  # the N(0, σ²I) draw (zeros when ε = ∞)
    noisy: np.ndarray  # what the inverter was given: clipped + noise
    sigma: float
    sampler: str = NUMPY  # "opendp" (unseeded) or "numpy" (seeded, or OpenDP missing)


class DpEmbedInvertMechanism:
    """Cheap to build: models are found and loaded on the first rewrite, then kept."""

    name = NAME

    def plan(self, text: str, settings: Settings, *, gold: list[Detection] | None = None) -> Plan:
        """Detection, segmentation and accounting with the encoder's tokenizer; loads no model."""
        found, missing = resolve_all()
        plan = _plan_document(text, settings, found, missing, gold)
        return Plan(text, spans_from_pieces(plan.pieces), plan.receipt)

    def rewrite(
        self,
        text: str,
        settings: Settings,
        progress: ProgressCallback | None = None,
        *,
        gold: list[Detection] | None = None,
    ) -> RewriteResult:
        return self.rewrite_many([text], settings, progress, golds=[gold])[0]

    def rewrite_many(
        self,
        texts: list[str],
        settings: Settings,
        progress: ProgressCallback | None = None,
        *,
        golds: list[list[Detection] | None] | None = None,
    ) -> list[RewriteResult]:
        """All chunks of all texts through the models together (micro-batched)."""
        return self.rewrite_many_with_trace(texts, settings, progress, golds=golds)[0]

    def rewrite_many_with_trace(
        self,
        texts: list[str],
        settings: Settings,
        progress: ProgressCallback | None = None,
        *,
        golds: list[list[Detection] | None] | None = None,
    ) -> tuple[list[RewriteResult], list[EmbeddingTrace]]:
        """`rewrite_many` plus each document's embeddings before and after clipping and noise."""
        if settings.sequence_beam_width and not settings.num_steps:
            raise InvalidSettings("sequence_beam_width", "needs num_steps >= 1")
        report(progress, 0.0, "detecting")
        found, missing = resolve_all()
        if missing:
            raise MechanismUnavailable(f"{NAME} is unavailable: {missing_reason(missing)}")
        golds = golds or [None] * len(texts)
        plans = [
            _plan_document(text, settings, found, [], gold)
            for text, gold in zip(texts, golds, strict=True)
        ]
        chunks = [piece.text for plan in plans for piece in plan.chunks]
        details: dict[str, object] = {"sequence_beam_width": settings.sequence_beam_width}
        inverted: list[str] = []
        traces: list[EmbeddingTrace] = []
        if chunks:
            from anonymizer.models import gtr_vec2text

            device = gtr_vec2text.select_device(settings.device)
            details["device"] = str(device)
            report(progress, 0.02, "loading models")
            pipeline = gtr_vec2text.load_pipeline(found, device)
            raw = pipeline.embed(
                chunks,
                settings.batch_size,
                on_batch=lambda b, n: report(
                    progress,
                    _ENCODING_START + (_INVERSION_START - _ENCODING_START) * b / n,
                    "encoding",
                ),
            )
            noisy = []
            start = 0
            for plan in plans:
                k = len(plan.chunks)
                traces.append(_noise_document(raw[start : start + k], plan, settings))
                noisy.append(traces[-1].noisy)
                start += k
            inverted = pipeline.invert(
                np.concatenate(noisy).astype(np.float32),
                num_steps=settings.num_steps,
                batch_size=settings.batch_size,
                sequence_beam_width=settings.sequence_beam_width,
                progress=lambda done, total, stage: report(
                    progress, _INVERSION_START + (1 - _INVERSION_START) * done / total, stage
                ),
            )
        else:
            traces = [_empty_trace(plan) for plan in plans]
        results = []
        position = 0
        for text, plan in zip(texts, plans, strict=True):
            rewritten = {}
            for piece in plan.chunks:
                rewritten[piece.chunk_idx] = _keep_edge_whitespace(piece.text, inverted[position])
                position += 1
            spans = spans_from_pieces(plan.pieces, rewritten)
            receipt = replace(plan.receipt, details={**plan.receipt.details, **details})
            results.append(RewriteResult(text, stitch(spans), spans, receipt))
        report(progress, 1.0, "done")
        return results, traces


def _plan_document(
    text: str,
    settings: Settings,
    found: dict[str, ResolvedModel],
    missing: list[MissingModel],
    gold: list[Detection] | None = None,
) -> EmbeddingPlan:
    """The shared plan, with the encoder's tokenizer as the chunk counter and model facts."""
    models = {role: model_ref(m) for role, m in found.items()}
    models.update({m.role: f"{m.wanted} (not installed)" for m in missing})
    floating = settings.seed is None and sampler_for(None) == NUMPY
    plan = plan_embedding_rewrite(
        text,
        settings,
        mechanism=NAME,
        models=models,
        count_tokens=encoder_token_counter(found.get("encoder")),
        extra_caveats=[*CAVEATS, *([FLOAT_CAVEAT] if floating else [])],
        gold=gold,
    )
    details = {
        **plan.receipt.details,
        "noise_sampler": sampler_description(settings.seed),
        "model_sources": {role: model_source(m) for role, m in found.items()},
        "published_weights": len(found) == len(ROLES) and all(map(is_published, found.values())),
    }
    return replace(plan, receipt=replace(plan.receipt, details=details))


def _noise_document(raw: np.ndarray, plan: EmbeddingPlan, settings: Settings) -> EmbeddingTrace:
    """Clip and noise one document's chunks (σ = 0 for ε = ∞, whose receipt claims nothing)."""
    release = clip_and_noise(raw, settings.clip_radius, plan.noise.sigma, settings.seed)
    return EmbeddingTrace(
        raw, release.clipped, release.noise, release.noisy, plan.noise.sigma, release.sampler
    )


def _empty_trace(plan: EmbeddingPlan) -> EmbeddingTrace:
    empty = np.zeros((0, 768))
    return EmbeddingTrace(empty, empty, empty, empty, plan.noise.sigma)


def _keep_edge_whitespace(original: str, rewritten: str) -> str:
    """The chunk's own leading/trailing whitespace around the inverter's text, so that the
    stitched output keeps the spacing and line breaks around placeholders."""
    lead = original[: len(original) - len(original.lstrip())]
    trail = original[len(original.rstrip()) :]
    return lead + rewritten.strip() + trail


def check_available() -> str | None:
    """None when dp-embed-invert can run here; else the exact reason and the fixing command.
    Cheap: looks for packages and files, imports none of the heavy libraries."""
    absent = [
        p
        for p in ("torch", "transformers", "tokenizers", "vec2text")
        if importlib.util.find_spec(p) is None
    ]
    if absent:
        return f"Python packages not installed: {', '.join(absent)}; run `{INSTALL_PACKAGES}`."
    version = importlib.metadata.version("transformers")
    if tuple(int(part) for part in version.split(".")[:2]) > NEWEST_TRANSFORMERS:
        return (
            f"transformers {version} is installed, but vec2text 0.0.13 works only up to "
            f"{'.'.join(map(str, NEWEST_TRANSFORMERS))} (vec2text issue #86); run "
            f"`{INSTALL_PACKAGES}`."
        )
    _, missing = resolve_all()
    return missing_reason(missing) if missing else None


register(
    MechanismInfo(
        name=NAME,
        title="DP embedding inversion (GTR + vec2text)",
        guarantee="(ε, δ)-DP for rewritten chunks",
        description="Embeds each plain-text chunk with GTR-t5-base, clips it to radius C, adds "
        "calibrated Gaussian noise and decodes it back to text with vec2text. Formal "
        "guarantee for the rewriting; output is usually unrelated to the input at small ε.",
        parameters=(
            "epsilon",
            "delta",
            "clip_radius",
            "num_steps",
            "composition",
            "metric_unit",
            "redact_pii",
            "whitelist_categories",
            "max_len",
            "detector",
            "allow_list",
            "deny_list",
            "seed",
            "device",
            "batch_size",
            "sequence_beam_width",
        ),
        factory=DpEmbedInvertMechanism,
        uses_epsilon=True,
        uses_delta=True,
        needs_gpu=True,
        models=tuple(spec.hub_id for spec in ROLES),
        check_available=check_available,
    )
)
