"""Receipt building and its text, JSON and canonical (hashable) forms."""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import asdict, replace
from datetime import UTC, datetime
from typing import Any

from anonymizer.accounting import NoisePlan
from anonymizer.settings import Settings
from anonymizer.types import Receipt, RewriteResult, Span
from anonymizer.version import __version__

DETECTOR_CAVEAT = (
    "PII placeholders come from a heuristic detector ({detector}); its decisions are not "
    "covered by any formal guarantee: a missed span is protected only by the rewriting layer "
    "(if any), and which spans were replaced is visible in the output."
)
K_PUBLIC_CAVEAT = (
    "The number of chunks K (and so the chunk boundaries) is treated as public; it is not "
    "padded or included in the accounting."
)
SEEDED_CAVEAT = (
    "This run was seeded (seed={seed}): its noise is reproducible by anyone who knows the "
    "seed, so the output is NOT private. Use seeded runs for testing only."
)
SEEDED_NOTION = "none (seeded: reproducible, not private)"
NO_GUARANTEE_CAVEAT = (
    "No formal privacy guarantee: placeholder redaction removes only what the detector "
    "finds; anything it misses is released verbatim."
)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def build_receipt(
    *,
    mechanism: str,
    settings: Settings,
    text: str,
    notion: str,
    statement: str,
    noise: NoisePlan | None = None,
    n_chunks: int = 0,
    models: dict[str, str] | None = None,
    caveats: list[str] | None = None,
    details: dict[str, Any] | None = None,
    epsilon_total: float | None = None,
    delta_total: float | None = None,
    composition: str | None = None,
    epsilon_per_chunk: float | None = None,
    delta_per_chunk: float | None = None,
) -> Receipt:
    """Assemble a receipt, adding the caveats that always apply (detector, seed).

    A seeded receipt is turned into one that claims nothing (`mark_seeded`).
    """
    all_caveats: list[str] = []
    detector = settings.detector if settings.redact_pii else None
    if detector and detector != "none":
        all_caveats.append(DETECTOR_CAVEAT.format(detector=detector))
    all_caveats.extend(caveats or [])
    if settings.seed is not None:
        all_caveats.append(SEEDED_CAVEAT.format(seed=settings.seed))
    common: dict[str, Any] = {
        "mechanism": mechanism,
        "models": dict(models or {}),
        "seeded": settings.seed is not None,
        "created_at": now_iso(),
        "software_version": __version__,
        "input_sha256": sha256_text(text),
        "detector": detector,
    }
    if noise is not None:
        all_caveats.extend(noise.caveats)
        guarantee: dict[str, Any] = {
            "notion": noise.notion,
            "composition": noise.composition,
            "epsilon_total": noise.epsilon_total,
            "delta_total": noise.delta_total,
            "n_chunks": noise.n_chunks,
            "epsilon_per_chunk": noise.epsilon_per_chunk,
            "delta_per_chunk": noise.delta_per_chunk,
            "rho": noise.rho,
            "sigma": noise.sigma,
            "sensitivity": noise.sensitivity,
            "clip_radius": noise.clip_radius,
            "metric_unit": noise.metric_unit,
            "statement": noise.statement,
            "details": {**noise.details, **(details or {})},
        }
    else:
        guarantee = {
            "notion": notion,
            "composition": composition,
            "epsilon_total": epsilon_total,
            "delta_total": delta_total,
            "n_chunks": n_chunks,
            "epsilon_per_chunk": epsilon_per_chunk,
            "delta_per_chunk": delta_per_chunk,
            "rho": None,
            "sigma": None,
            "sensitivity": None,
            "clip_radius": None,
            "metric_unit": None,
            "statement": statement,
            "details": dict(details or {}),
        }
    return mark_seeded(Receipt(**common, **guarantee, caveats=_unique(all_caveats)))


def mark_seeded(receipt: Receipt) -> Receipt:
    """A seeded receipt claims nothing: notion "none", ε = ∞, and a statement that says why.

    What an unseeded run with the same settings would have carried stays in `details` (for
    reproducible audits), clearly labelled; the ledger lists the run among releases without a
    formal guarantee. Receipts that already claim nothing are returned unchanged.
    """
    if not receipt.seeded or receipt.notion.startswith("none"):
        return receipt
    return replace(
        receipt,
        notion=SEEDED_NOTION,
        statement=(
            "Seeded run: the randomness is a deterministic function of the seed, so anyone "
            "who knows the seed can reproduce it (and subtract the noise); this release "
            "carries NO privacy guarantee. It exists for reproducible tests and audits. An "
            f"unseeded run with these settings would carry {receipt.notion} (see "
            "details.unseeded_statement)."
        ),
        epsilon_total=math.inf,
        delta_total=0.0,
        epsilon_per_chunk=None if receipt.epsilon_per_chunk is None else math.inf,
        delta_per_chunk=None if receipt.delta_per_chunk is None else 0.0,
        details={
            **receipt.details,
            "unseeded_notion": receipt.notion,
            "unseeded_statement": receipt.statement,
            "unseeded_epsilon_total": receipt.epsilon_total,
            "unseeded_delta_total": receipt.delta_total,
        },
    )


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def jsonable(value: Any) -> Any:
    """Replace non-finite floats by strings so the JSON is strict (RFC 8259)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "inf" if value > 0 else ("-inf" if value < 0 else "nan")
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def receipt_dict(receipt: Receipt) -> dict[str, Any]:
    return jsonable(asdict(receipt))


def canonical_json(data: Any) -> str:
    """Sorted keys, no whitespace, strict JSON: the form that receipt hashes are taken over."""
    return json.dumps(jsonable(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def receipt_line(receipt: Receipt) -> str:
    """The seed's trailing `[DP] ...` line, with every field of the receipt's guarantee."""

    def num(x: float | None, spec: str = "g") -> str:
        if x is None:
            return "n/a"
        if isinstance(x, float) and math.isinf(x):
            return "inf"
        return format(x, spec)

    parts = [
        f"mechanism={receipt.mechanism}",
        f"notion={receipt.notion}",
        f"composition={receipt.composition or 'n/a'}",
        f"eps_total={num(receipt.epsilon_total)}",
        f"delta_total={num(receipt.delta_total)}",
        f"K={receipt.n_chunks}",
        f"eps/chunk={num(receipt.epsilon_per_chunk, '.4f')}",
        f"delta/chunk={num(receipt.delta_per_chunk)}",
        f"sigma={num(receipt.sigma, '.7g')}",
        f"sensitivity={num(receipt.sensitivity)}",
        f"clip={num(receipt.clip_radius)}",
    ]
    if receipt.metric_unit is not None:
        parts.append(f"unit={num(receipt.metric_unit)}")
    if receipt.rho is not None:
        parts.append(f"rho={num(receipt.rho, '.6g')}")
    parts.append(f"seeded={'true' if receipt.seeded else 'false'}")
    return "[DP] " + " ".join(parts)


def result_text(result: RewriteResult) -> str:
    """The seed's text output: original, output, and the receipt line."""
    lines = [
        "=== ORIGINAL ===",
        result.original,
        "",
        "=== OUTPUT ===",
        result.output,
        "",
        receipt_line(result.receipt),
    ]
    lines.extend(f"[caveat] {c}" for c in result.receipt.caveats)
    return "\n".join(lines)


def span_dict(span: Span) -> dict[str, Any]:
    return {
        "text": span.text,
        "is_pii": span.is_pii,
        "category": span.category,
        "placeholder": span.placeholder,
        "rewritten": span.rewritten,
        "chunk_idx": span.chunk_idx,
        "source": span.source,
    }


def result_dict(result: RewriteResult) -> dict[str, Any]:
    """The seed's JSON keys plus the full receipt under `receipt`."""
    r = result.receipt
    return jsonable(
        {
            "original": result.original,
            "output": result.output,
            "spans": [span_dict(s) for s in result.spans],
            "epsilon_total": r.epsilon_total,
            "delta_total": r.delta_total,
            "epsilon_per_chunk": r.epsilon_per_chunk,
            "delta_per_chunk": r.delta_per_chunk,
            "sigma": r.sigma,
            "clip_radius": r.clip_radius,
            "n_chunks": r.n_chunks,
            "receipt": receipt_dict(r),
        }
    )


def receipt_human_text(receipt: Receipt) -> str:
    """A plain-language receipt for people (downloads, the result page)."""
    lines = [
        f"Privacy receipt — {receipt.mechanism}",
        f"Guarantee: {receipt.notion}",
        "",
        receipt.statement,
        "",
        receipt_line(receipt),
        "",
        "What this guarantee does not cover:",
    ]
    lines.extend(f"  - {c}" for c in receipt.caveats or ["(nothing listed)"])
    lines += [
        "",
        f"Models: {', '.join(f'{k}={v}' for k, v in receipt.models.items()) or 'none'}",
        f"Input SHA-256: {receipt.input_sha256}",
        f"Created: {receipt.created_at} · software {receipt.software_version}",
    ]
    return "\n".join(lines) + "\n"
