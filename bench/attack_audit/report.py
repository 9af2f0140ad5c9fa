"""The audit's outputs: the summary, the markdown tables, the plots and the package's table."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from anonymizer.receipts import jsonable
from bench.attack_audit.ampl import (
    EXACT,
    choose,
    largest_meeting,
    pooled,
    strongest,
    strongest_recovery,
)


def _key(epsilon: float) -> str:
    return f"{epsilon:g}"


def _pct(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{100 * value:.{digits}f}"


def by_variant(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        grouped.setdefault(row["mechanism"], []).append(row)
    return grouped


def mean_over_sets(row: dict[str, Any], field: str) -> float:
    values = [u[field] for u in row["utility"].values()]
    return sum(values) / len(values)


def summary_row(row: dict[str, Any]) -> dict[str, Any]:
    """The receipt's figures for one (mechanism, ε): the strongest learned attacker's
    recovery, and the strongest attacker's violation rate against the receipt's own ε."""
    recovery = strongest_recovery(row)
    violation = strongest(row, row["epsilon"])
    exact_ratio = max(m["max_claimed_ratio"] for m in row["attackers"][EXACT]["sets"].values())
    return {
        "attacker": recovery["attacker"],
        "recovery_set": recovery["set"],
        "recovery": recovery["top1"],
        "recovery_top5": recovery["top5"],
        "prior_recovery": recovery["prior_top1"],
        "prior_recovery_top5": recovery["prior_top5"],
        "exact_recovery": max(m["top1"] for m in row["attackers"][EXACT]["sets"].values()),
        "violation_attacker": violation["attacker"] if violation else None,
        "violation_set": violation["set"] if violation else None,
        "violation_rate": violation["rate"] if violation else 0.0,
        "violation_bound": violation["bound99"] if violation else 1.0,
        "violation_max_set_pair_rate": violation["max_set_pair_rate"] if violation else 0.0,
        "violation_documents": violation["documents"] if violation else 0,
        "exact_max_ratio": exact_ratio,
        "similarity": mean_over_sets(row, "similarity"),
        "similarity_remapped": mean_over_sets(row, "similarity_remapped"),
        "collisions": mean_over_sets(row, "collisions"),
        "collisions_remapped": mean_over_sets(row, "collisions_remapped"),
    }


def ampl_tables(
    rows: list[dict[str, Any]], epsilons: tuple[float, ...], tolerance: float
) -> dict[str, Any]:
    """For every mechanism and budget: the AmPL choice, overall and per category."""
    out: dict[str, Any] = {}
    for variant, variant_rows in by_variant(rows).items():
        categories = sorted(
            {
                c
                for row in variant_rows
                for result in row["attackers"].values()
                for metrics in result["sets"].values()
                for c, entry in metrics["per_category"].items()
                if entry["records"] >= MIN_CATEGORY_RECORDS
            }
        )
        largest = largest_meeting(variant_rows, tolerance)
        if largest["epsilon"] is not None:
            row = next(r for r in variant_rows if r["epsilon"] == largest["epsilon"])
            largest["similarity"] = mean_over_sets(row, "similarity")
            largest["similarity_remapped"] = mean_over_sets(row, "similarity_remapped")
        out[variant] = {
            "largest": largest,
            "largest_per_category": {
                c: _category_choice(largest_meeting(variant_rows, tolerance, c)) for c in categories
            },
            "overall": {_key(b): choose(variant_rows, b, tolerance) for b in epsilons},
            "per_category": {
                c: {_key(b): choose(variant_rows, b, tolerance, c)["epsilon"] for b in epsilons}
                for c in categories
            },
        }
    return out


MIN_CATEGORY_RECORDS = 100


def _category_choice(choice: dict[str, Any]) -> dict[str, Any]:
    """A category's largest ε, or why none: its bound at the smallest ε (few documents of a
    category cannot bring the Hoeffding bound under the target even with no violation)."""
    if choice["epsilon"] is not None:
        return {"epsilon": choice["epsilon"], "bound99": choice["strongest"]["bound99"]}
    worst = choice.get("strongest_at_smallest") or {}
    return {
        "epsilon": None,
        "bound99_at_smallest": worst.get("bound99"),
        "rate_at_smallest": worst.get("rate"),
        "documents": worst.get("documents"),
    }


def audit_table(
    result: dict[str, Any], defaults: dict[str, dict[str, Any]], meta: dict[str, Any]
) -> dict[str, Any]:
    """The compact table the package ships (anonymizer/token_dp/audit_table.json)."""
    mechanisms: dict[str, Any] = {}
    for variant, rows in by_variant(result["rows"]).items():
        table_rows = {}
        for row in rows:
            s = summary_row(row)
            table_rows[_key(row["epsilon"])] = {
                "attacker": s["attacker"],
                "recovery": round(s["recovery"], 4),
                "prior_recovery": round(s["prior_recovery"], 4),
                "violation_rate": round(s["violation_rate"], 4),
                "violation_bound": round(s["violation_bound"], 4),
                "similarity": round(s["similarity"], 4),
                "similarity_remapped": round(s["similarity_remapped"], 4),
            }
        mechanisms[variant] = {**defaults.get(variant, {}), "rows": table_rows}
    return {**meta, "mechanisms": mechanisms}


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(jsonable(data), indent=1, allow_nan=False) + "\n")


def markdown(report: dict[str, Any]) -> str:
    """The human-readable report: audit table, per-set details, AmPL, remapping."""
    lines = [
        "# Attack audit of the token mechanisms",
        "",
        f"`{report['command']}` · {report['date']} · software {report['software_version']} · "
        f"{report['runtime_seconds']:.0f} s on {report['machine']['cpus']} CPUs",
        "",
        *[f"- {note}" for note in report["method"]],
        "",
        "## Audit table (what receipts show)",
        "",
        "Recovery: top-1 of the strongest learned attacker (its prior from the same documents "
        f"with placeholders; uniform prior = {_pct(1 / report['candidate_set_size'])} %). "
        "Violations: Pr[mPL > the receipt's per-token ε] for the strongest attacker, "
        "document-averaged over every evaluation set pooled, with the one-sided 99 % "
        "Hoeffding bound over those documents (appendix D.4); the largest pair-level rate of "
        "a single set is listed beside it. "
        "Exact ratio: the exact single-span Bayes attacker's largest mPL / claim (≤ 1 by "
        "seed 004 Prop. 2). Similarity: mean cos(x, y) of secret and surrogate, without / "
        "with Bayesian remapping.",
        "",
        "| mechanism | ε | attacker | top-1 % | prior % | exact top-1 % | mPL > ε % | ≤ (99 %) | "
        "max pair rate of a set % | exact ratio | sim | sim remap | collisions % (remap) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for variant, rows in by_variant(report["rows"]).items():
        for row in rows:
            s = summary_row(row)
            lines.append(
                f"| {variant} | {row['epsilon']:g} | {s['attacker']} ({s['recovery_set']}) | "
                f"{_pct(s['recovery'])} | {_pct(s['prior_recovery'])} | "
                f"{_pct(s['exact_recovery'])} | {_pct(s['violation_rate'], 2)} | "
                f"{_pct(s['violation_bound'], 2)} | {_pct(s['violation_max_set_pair_rate'], 2)} | "
                f"{s['exact_max_ratio']:.3f} | {s['similarity']:.3f} | "
                f"{s['similarity_remapped']:.3f} | {_pct(s['collisions'])} "
                f"({_pct(s['collisions_remapped'])}) |"
            )
    worst = max(summary_row(row)["exact_max_ratio"] for row in report["rows"])
    verdict = "holds" if worst <= 1 + 1e-9 else "FAILS: the mechanism or the attacker is wrong"
    lines += [
        "",
        f"Theorem check (seed 004 Prop. 2): the exact single-span attacker's largest mPL / "
        f"claim over every mechanism, ε and set is {worst:.4f}; ≤ 1 {verdict}.",
    ]
    lines += ["", "## Every attacker on every evaluation set", ""]
    lines += [
        "| mechanism | ε | attacker | set | top-1 % | top-5 % | prior top-1 % | NLL | "
        "prior NLL | mPL > ε % | ≤ (99 %) | pairs % | CP pairs (99 %) | release-level % |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report["rows"]:
        for attacker, result in row["attackers"].items():
            for name, m in result["sets"].items():
                v = m["violation"][_key(row["epsilon"])]
                lines.append(
                    f"| {row['mechanism']} | {row['epsilon']:g} | {attacker} | {name} | "
                    f"{_pct(m['top1'])} | {_pct(m['top5'])} | {_pct(m['prior_top1'])} | "
                    f"{m['nll']:.3f} | {m['prior_nll']:.3f} | {_pct(v['rate'], 2)} | "
                    f"{_pct(v['bound99'], 2)} | {_pct(v['pair_rate'], 2)} | "
                    f"{_pct(v['pair_cp99'], 2)} | {_pct(v['release_rate'], 2)} |"
                )
    lines += _ampl_markdown(report)
    lines += _remap_markdown(report)
    lines += ["", "## Defaults", "", report["defaults_note"], ""]
    return "\n".join(lines) + "\n"


def _ampl_markdown(report: dict[str, Any]) -> list[str]:
    tolerance = report["tolerance"]
    lines = [
        "",
        f"## AmPL (target: 99 % bound on Pr[mPL > ε] ≤ {_pct(tolerance)} %, strongest attacker)",
        "",
        "Largest audited ε meeting the target at its own ε (what the receipt states), with "
        "the utility paid (mean cos(secret, surrogate) over the evaluation sets):",
        "",
        "| mechanism | largest ε | strongest attacker | bound % | sim | sim remapped | "
        "per category |",
        "|---|---|---|---|---|---|---|",
    ]
    for variant, tables in report["ampl"].items():
        largest = tables["largest"]
        per_category = "; ".join(
            f"{c} {_category_cell(e)}" for c, e in tables["largest_per_category"].items()
        )
        if largest["epsilon"] is None:
            lines.append(f"| {variant} | none | — | — | — | — | {per_category} |")
            continue
        worst = largest["strongest"]
        lines.append(
            f"| {variant} | {largest['epsilon']:g} | {worst['attacker']} | "
            f"{_pct(worst['bound99'], 2)} | {largest['similarity']:.3f} | "
            f"{largest['similarity_remapped']:.3f} | {per_category} |"
        )
    lines += [
        "",
        "Perturb–audit–adapt at a fixed budget: the largest running ε whose bound on "
        "Pr[mPL > ε_B] is within the target:",
        "",
        "| mechanism | ε_B | chosen ε | strongest attacker (set) | bound % | similarity at "
        "chosen ε | similarity at ε_B |",
        "|---|---|---|---|---|---|---|",
    ]
    for variant, tables in report["ampl"].items():
        rows = {r["epsilon"]: r for r in by_variant(report["rows"])[variant]}
        for budget, choice in tables["overall"].items():
            eps = choice["epsilon"]
            at_budget = rows.get(float(budget))
            if eps is None:
                lines.append(f"| {variant} | {budget} | none | — | — | — | — |")
                continue
            worst = choice["strongest"]
            lines.append(
                f"| {variant} | {budget} | {eps:g} | {worst['attacker']} ({worst['set']}) | "
                f"{_pct(worst['bound99'], 2)} | {mean_over_sets(rows[eps], 'similarity'):.3f} | "
                + (f"{mean_over_sets(at_budget, 'similarity'):.3f} |" if at_budget else "— |")
            )
    lines += ["", "Per category (chosen running ε for each budget ε_B):", ""]
    for variant, tables in report["ampl"].items():
        budgets = list(tables["overall"])
        lines += [
            f"**{variant}**",
            "",
            "| category | " + " | ".join(f"ε_B={b}" for b in budgets) + " |",
            "|---|" + "---|" * len(budgets),
        ]
        for category, choices in tables["per_category"].items():
            cells = ["none" if choices[b] is None else f"{choices[b]:g}" for b in budgets]
            lines.append(f"| {category} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def _category_cell(choice: dict[str, Any]) -> str:
    if choice["epsilon"] is not None:
        return f"{choice['epsilon']:g}"
    if choice.get("documents") is None:
        return "none"
    return (
        f"none (rate {_pct(choice['rate_at_smallest'], 2)} %, bound "
        f"{_pct(choice['bound99_at_smallest'])} % over {choice['documents']} documents)"
    )


def _remap_markdown(report: dict[str, Any]) -> list[str]:
    lines = [
        "## Bayesian remapping (post-processing): utility per evaluation set",
        "",
        "| mechanism | ε | set | sim | sim remapped | gain | loss (1−cos)/2 | loss remapped | "
        "collisions % | collisions remapped % |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report["rows"]:
        for name, u in row["utility"].items():
            lines.append(
                f"| {row['mechanism']} | {row['epsilon']:g} | {name} | {u['similarity']:.3f} | "
                f"{u['similarity_remapped']:.3f} | "
                f"{u['similarity_remapped'] - u['similarity']:+.3f} | {u['utility_loss']:.3f} | "
                f"{u['utility_loss_remapped']:.3f} | {_pct(u['collisions'])} | "
                f"{_pct(u['collisions_remapped'])} |"
            )
    lines += ["", "Reference similarities (ε = ∞: nearest candidate; uniform surrogate):", ""]
    for variant, sets in report["reference_utility"].items():
        for name, ref in sets.items():
            lines.append(
                f"- {variant} / {name}: no noise {ref['similarity_no_noise']:.3f}, uniform "
                f"{ref['similarity_uniform']:.3f}"
            )
    return lines


def plots(report: dict[str, Any], directory: Path, stem: str) -> list[Path]:
    """Violation rate and recovery vs ε per mechanism and attacker; utility ± remapping."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grouped = by_variant(report["rows"])
    paths = []
    fig, axes = plt.subplots(2, len(grouped), figsize=(5 * len(grouped), 8), squeeze=False)
    for col, (variant, rows) in enumerate(grouped.items()):
        eps = [r["epsilon"] for r in rows]
        for attacker in rows[0]["attackers"]:
            rates = [strongest_for(r, attacker, "rate") for r in rows]
            bounds = [strongest_for(r, attacker, "bound99") for r in rows]
            line = axes[0][col].plot(eps, [100 * v for v in rates], marker="o", label=attacker)
            axes[0][col].plot(
                eps, [100 * v for v in bounds], ls=":", color=line[0].get_color(), lw=1
            )
            top1 = [max(m["top1"] for m in r["attackers"][attacker]["sets"].values()) for r in rows]
            axes[1][col].plot(eps, [100 * v for v in top1], marker="o", label=attacker)
        prior = [strongest_recovery(r)["prior_top1"] for r in rows]
        axes[1][col].plot(eps, [100 * v for v in prior], ls="--", color="grey", label="prior")
        axes[1][col].axhline(
            100 / report["candidate_set_size"], ls=":", color="black", label="uniform"
        )
        for ax, title in (
            (axes[0][col], f"{variant}: mPL > ε, sets pooled (%, dotted: 99 % bound)"),
            (axes[1][col], f"{variant}: top-1 recovery (%)"),
        ):
            ax.set_xscale("log", base=2)
            ax.set_xlabel("ε")
            ax.set_title(title, fontsize=10)
            ax.legend(fontsize=7)
    fig.tight_layout()
    paths.append(directory / f"{stem}_leakage.png")
    fig.savefig(paths[-1])
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for variant, rows in grouped.items():
        eps = [r["epsilon"] for r in rows]
        line = ax.plot(
            eps, [mean_over_sets(r, "similarity") for r in rows], marker="o", label=variant
        )
        ax.plot(
            eps,
            [mean_over_sets(r, "similarity_remapped") for r in rows],
            marker="s",
            ls="--",
            color=line[0].get_color(),
            label=f"{variant} + remap",
        )
    ax.set_xscale("log", base=2)
    ax.set_xlabel("ε")
    ax.set_ylabel("mean cos(secret, surrogate)")
    ax.set_title("Span utility with and without Bayesian remapping")
    ax.legend(fontsize=8)
    fig.tight_layout()
    paths.append(directory / f"{stem}_utility.png")
    fig.savefig(paths[-1])
    plt.close(fig)
    return paths


def strongest_for(row: dict[str, Any], attacker: str, field: str) -> float:
    """The attacker's pooled violation `field` (rate or bound99) at the row's own ε."""
    result = pooled(row["attackers"][attacker], row["epsilon"])
    return math.nan if result is None else result[field]
