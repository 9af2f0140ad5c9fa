"""Write a run's results: `evaluation.json` (everything) and `evaluation.md` (the tables)."""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.evaluate import RunState, SystemResult, format_eps, machine, reference_rows

# The seed's research note, §4.2 (nvidia/Nemotron-PII, 50 examples, seed 0, an H100).
SEED_PUBLISHED = [
    {
        "system": "Presidio (analyzer + anonymizer)",
        "n": 50,
        "leak": 0.313,
        "sem_sim": 0.871,
        "len_ratio": 0.99,
        "sec_per_doc": 0.04,
    },
    {
        "system": "Regex sanitizer alone",
        "n": 50,
        "leak": 0.543,
        "sem_sim": 0.843,
        "len_ratio": 0.90,
        "sec_per_doc": 0.04,
    },
    {
        "system": "DP-Embed-Invert (ε=16, δ=1e-3, 20 steps)",
        "n": 50,
        "leak": 0.000,
        "sem_sim": 0.078,
        "len_ratio": 0.98,
        "sec_per_doc": 5.5,
    },
]


def _jsonable(value: Any) -> Any:
    if isinstance(value, float) and math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def corpus_summary(state: RunState) -> dict[str, Any]:
    labels = Counter(s["label"] for d in state.docs for s in d["spans"])
    return {
        "name": state.corpus_name,
        "documents": len(state.docs),
        "documents_for_detectors": min(state.config.n_detectors, len(state.docs)),
        "documents_for_mechanisms": min(state.config.n_mechanisms, len(state.docs)),
        "gold_spans": sum(labels.values()),
        "mean_chars": sum(len(d["text"]) for d in state.docs) / max(1, len(state.docs)),
        "labels": dict(labels.most_common()),
    }


def write_json(state: RunState, path: Path) -> Path:
    payload = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "config": asdict(state.config),
        "corpus": corpus_summary(state),
        "machine": machine(),
        "timings": state.timings,
        "rows": [asdict(r) for r in state.rows],
        "skipped": [asdict(s) for s in state.skipped],
        "seed_published": SEED_PUBLISHED,
    }
    path.write_text(json.dumps(_jsonable(payload), indent=2, ensure_ascii=False) + "\n")
    return path


def _f(value: float | None, digits: int = 3) -> str:
    if value is None:
        return "–"
    return "∞" if math.isinf(value) else f"{value:.{digits}f}"


def _sec(value: float) -> str:
    return f"{value:.4f}" if value < 0.01 else f"{value:.3f}"


def detector_table(rows: list[SystemResult]) -> list[str]:
    lines = [
        "| System | n | leak↓ | P | R | F2↑ | sem-sim↑ | len-ratio | sec/doc |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.name} | {r.n} | {_f(r.leak)} | {_f(r.precision)} | {_f(r.recall)} | "
            f"{_f(r.f2)} | {_f(r.sem_sim)} | {_f(r.len_ratio, 2)} | {_sec(r.sec_per_doc)} |"
        )
    return lines


def category_table(rows: list[SystemResult]) -> list[str]:
    scored = [r for r in rows if r.per_category and r.kind != "reference"]
    if not scored:
        return []
    gold_counts: Counter[str] = Counter()
    for r in scored[:1]:
        for label, s in r.per_category.items():
            gold_counts[label] = s["n_gold"]
    labels = [label for label, n in gold_counts.most_common() if n > 0]
    header = "| category | gold | " + " | ".join(r.name for r in scored) + " |"
    lines = [header, "|---|---:|" + "---:|" * len(scored)]
    for label in labels:
        cells = [_f(r.per_category.get(label, {}).get("recall", 0.0), 2) for r in scored]
        lines.append(f"| {label} | {gold_counts[label]} | " + " | ".join(cells) + " |")
    return lines


def sweep_tables(rows: list[SystemResult]) -> list[str]:
    lines: list[str] = []
    mechanisms = list(dict.fromkeys(r.mechanism for r in rows if r.kind == "mechanism"))
    for mechanism in mechanisms:
        mine = [r for r in rows if r.kind == "mechanism" and r.mechanism == mechanism]
        first = mine[0]
        lines += [
            "",
            f"### {mechanism}",
            "",
            f"Notion: {first.notion}. Detector: `{first.detector}`. n = {first.n}."
            + (f" **{first.note}.**" if first.note else ""),
            "",
            "| ε | composition | K̄ | σ̄ | ε/chunk | leak↓ | F2↑ | sem-sim↑ | len-ratio | sec/doc |",
            "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for r in mine:
            lines.append(
                f"| {format_eps(r.epsilon)} | {r.composition or '–'} | {_f(r.mean_k, 1)} | "
                f"{_f(r.mean_sigma, 2)} | {_f(r.mean_epsilon_per_chunk, 2)} | {_f(r.leak)} | "
                f"{_f(r.f2)} | {_f(r.sem_sim)} | {_f(r.len_ratio, 2)} | {_sec(r.sec_per_doc)} |"
            )
    return lines


def write_markdown(state: RunState, path: Path) -> Path:
    corpus = corpus_summary(state)
    total = state.timings.get("total_seconds", 0.0)
    top_rows = [r for r in state.rows if r.kind in ("reference", "detector", "baseline")]
    cpu = state.timings.get("cpu_seconds")
    lines = [
        "# Evaluation results",
        "",
        f"Corpus: `{corpus['name']}`: {corpus['documents']} documents (detectors on "
        f"{corpus['documents_for_detectors']}, mechanisms on "
        f"{corpus['documents_for_mechanisms']}), {corpus['gold_spans']} gold PII spans, "
        f"{corpus['mean_chars']:.0f} characters on average. Run took {total / 60:.1f} min "
        f"wall time on {machine()['cpu_count']} CPU cores"
        + (f" ({cpu / 60:.1f} min of CPU time)" if cpu is not None else "")
        + f". Mechanisms ran with a fixed seed "
        f"({state.config.seed}), so their outputs are reproducible and therefore not private.",
        "",
        "leak = fraction of gold PII surface strings still present (case-insensitive "
        "substring) in the output, the seed's metric. P / R / F2 = span precision, recall and "
        "F2 at IoU ≥ 0.7 over all PII (presidio-research's method; per-category scores are "
        "in the JSON). sem-sim = mean cosine of all-MiniLM-L6-v2 embeddings of input and "
        "output. len-ratio = output / input characters. sec/doc is wall time and excludes "
        "model loading; for the DP mechanisms it also excludes detection, which runs once per "
        "document for the whole sweep (its cost is the detector's row above).",
        "",
        "## Detectors and redaction (cf. the seed's §4.2)",
        "",
        *detector_table(top_rows),
    ]
    categories = category_table(top_rows)
    if categories:
        lines += ["", "### Recall per category (IoU ≥ 0.7, labels must agree)", "", *categories]
    sweeps = sweep_tables(state.rows)
    if sweeps:
        lines += ["", "## DP mechanisms: ε sweeps"]
        references = reference_rows(state)
        if references:
            n = references[0].n
            lines += [
                "",
                f"References on the mechanisms' documents (n = {n}):",
                "",
                *detector_table(references),
            ]
        lines += sweeps
    if state.skipped:
        lines += ["", "## Skipped", ""]
        lines += [f"- **{s.name}**: {s.reason}" for s in state.skipped]
    lines += [
        "",
        "## The seed's published numbers (a different corpus: nvidia/Nemotron-PII, 50 "
        "examples, H100)",
        "",
        "| System | n | leak↓ | sem-sim↑ | len-ratio | sec/ex |",
        "|---|---:|---:|---:|---:|---:|",
        *[
            f"| {s['system']} | {s['n']} | {s['leak']:.3f} | {s['sem_sim']:.3f} | "
            f"{s['len_ratio']:.2f} | {s['sec_per_doc']} |"
            for s in SEED_PUBLISHED
        ],
        "",
        "Timings: " + ", ".join(f"{k} {v:.1f}" for k, v in state.timings.items()) + ".",
        "",
    ]
    path.write_text("\n".join(lines))
    return path
