"""ε-sweep plots: semantic similarity and leak against ε, one line per mechanism (and mode).

The x axis is logarithmic; ε = ∞ (no noise) sits one step to the right of the largest finite
ε, behind a dotted line and labelled "∞". Presidio's engines and redaction with the
mechanisms' detector are drawn as horizontal references.
"""

from __future__ import annotations

import math
from pathlib import Path

from bench.evaluate import PRESIDIO_ENGINES, RunState, SystemResult, format_eps, reference_rows


def _x_positions(epsilons: list[float]) -> dict[float, float]:
    finite = sorted(e for e in epsilons if math.isfinite(e))
    top = finite[-1] if finite else 1.0
    step = finite[-1] / finite[-2] if len(finite) >= 2 else 4.0
    return {e: (e if math.isfinite(e) else top * max(step, 2.0)) for e in epsilons}


def _series(rows: list[SystemResult]) -> dict[str, list[SystemResult]]:
    """One line per mechanism and composition; the ε = ∞ row ends each of its mechanism's lines."""
    series: dict[str, list[SystemResult]] = {}
    no_noise: dict[str | None, SystemResult] = {}
    for row in rows:
        if row.kind != "mechanism" or row.epsilon is None:
            continue
        if math.isinf(row.epsilon):
            no_noise[row.mechanism] = row
            continue
        label = row.name + (" [tiny models]" if row.note and "tiny" in row.note else "")
        series.setdefault(label, []).append(row)
    for mechanism, row in no_noise.items():
        lines = [rows for rows in series.values() if rows[0].mechanism == mechanism]
        for rows in lines or [series.setdefault(row.name, [])]:
            rows.append(row)
    return series


def plot_metric(state: RunState, metric: str, ylabel: str, path: Path) -> Path | None:
    """One PNG of `metric` against ε; None when no mechanism row exists."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = _series(state.rows)
    if not series:
        return None
    epsilons = sorted(
        {r.epsilon for rows in series.values() for r in rows if r.epsilon is not None}
    )
    xs = _x_positions(epsilons)
    fig, ax = plt.subplots(figsize=(7.5, 4.8), dpi=120)
    for label, rows in series.items():
        points = sorted(
            (xs[r.epsilon], getattr(r, metric))
            for r in rows
            if r.epsilon is not None and getattr(r, metric) is not None
        )
        if points:
            tiny = "[tiny models]" in label  # random weights: shape of the run, not quality
            ax.plot(
                *zip(*points, strict=True),
                marker="o",
                label=label,
                linestyle="--" if tiny else "-",
                alpha=0.6 if tiny else 1.0,
            )
    for ref in reference_rows(state):
        style = ":" if ref.name == PRESIDIO_ENGINES else "--"
        value = getattr(ref, metric)
        if value is not None:
            short = "Presidio engines" if ref.name == PRESIDIO_ENGINES else ref.name
            ax.axhline(
                value, color="grey", linestyle=style, linewidth=1, label=f"{short} (n={ref.n})"
            )
    ax.set_xscale("log")
    ax.set_xticks([xs[e] for e in epsilons])
    ax.set_xticklabels([format_eps(e) for e in epsilons])
    ax.minorticks_off()
    if any(math.isinf(e) for e in epsilons):
        finite = [xs[e] for e in epsilons if math.isfinite(e)]
        if finite:
            ax.axvline(
                math.sqrt(max(finite) * xs[math.inf]), color="black", linestyle=":", linewidth=0.8
            )
    ax.set_xlabel("ε (nominal; notions differ between mechanisms — see evaluation.md)")
    ax.set_ylabel(ylabel)
    values = [getattr(r, metric) for rows in series.values() for r in rows]
    ax.set_ylim(min([-0.02, *(v - 0.02 for v in values if v is not None)]), 1.02)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    ax.set_title(f"{ylabel} vs ε ({_n(series)} documents)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _n(series: dict[str, list[SystemResult]]) -> int:
    return max(r.n for rows in series.values() for r in rows)


def write_plots(state: RunState, out: Path) -> list[Path]:
    written = [
        plot_metric(
            state, "sem_sim", "semantic similarity (MiniLM cosine)", out / "eps_vs_semsim.png"
        ),
        plot_metric(state, "leak", "leak (gold PII strings in output)", out / "eps_vs_leak.png"),
    ]
    return [p for p in written if p is not None]
