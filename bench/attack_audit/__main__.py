"""`python -m bench.attack_audit [--small]`: audit the token mechanisms with learned attackers.

Full run (the default; 22 min wall on 2 CPU cores shared with other jobs, load 3–4, once
the candidate sets are cached, single-threaded): 2,977 documents (1,600 training, 1,377 in
three evaluation sets), SanText, CusText and CluSanT at ε ∈ {0.5, 1, 2, 4, 8, 16}, the exact Bayes
attacker and three learned ones. Writes bench/results/attack_audit.{json,md}, two plots, and
the compact table the package ships (anonymizer/token_dp/audit_table.json), from which
receipts quote the audit and the token mechanisms take their default ε.

`--small` (CI, about a minute once its candidate sets are cached): 280 documents, 120
candidates per category, candidate sets of 10, ε ∈ {0.5, 2, 8}, the exact attacker and the
MLP attacker; writes
bench/results/attack_audit_small.{json,md} and never the package's table. `--rebuild JSON`
redoes the report, defaults and table from a saved run without attacking again.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from anonymizer.token_dp.audit import AUDIT_TABLE
from anonymizer.token_dp.sanitizer import TokenSanitizer
from anonymizer.version import __version__
from bench.attack_audit import report as rep
from bench.attack_audit.ampl import EXACT
from bench.attack_audit.attackers import ARCHITECTURES, TrainConfig
from bench.attack_audit.data import FULL, SMALL, Scale
from bench.attack_audit.defaults import DEFAULT_POLICY, choose_defaults
from bench.attack_audit.run import EPSILONS, VARIANTS, AuditConfig, WeakenedSanitizer, run_audit

RESULTS = Path(__file__).resolve().parents[1] / "results"
SMALL_EPSILONS = (0.5, 2.0, 8.0)

METHOD = [
    "Threat model (seed 004 §2.1): the attacker knows the mechanism, its parameters and the "
    "public candidate sets, and holds an auxiliary corpus from the same population; it sees "
    "a whole sanitized document (every surrogate and the unchanged text around it).",
    "Documents: training = bench.corpus (seed 15001) + the independent generator "
    "bench.frozen.generate (seed 15002); evaluation = bench.corpus (seed 15003), the frozen "
    "independent set and the frozen hand-written set, each reported separately. Gold spans "
    "are the detections. Surrogates are drawn from the sanitizer's own log_probs with the "
    "product's sampler; the claims are read from real receipts.",
    "Candidate sets: the secret plus distractors = other documents' strings of the same "
    "category from the same split and source (the population the secrets come from); public "
    "prior uniform over the set, since the secret's position is exchangeable.",
    "Attackers: exact single-span Bayes (the sanitizer's own log_probs, uniform prior) and "
    "three learned joint attackers (bag-of-embeddings MLP, BiLSTM, 2-layer Transformer over "
    "the document's records: surrogate and candidate MiniLM embeddings, MiniLM static "
    "word-piece context around each span, the mechanism's likelihood of the document's "
    "surrogates under each candidate). Their prior is the same network on the document with "
    "every surrogate masked (seed 004's prior approximation).",
    "mPL = |Δ log posterior odds − Δ log prior odds| / d with the metric the receipt names "
    "(SanText: Euclidean; CluSanT: pushed d' and its per-category ε'; CusText: ε-LDP, d = 1, "
    "claimed only inside a cluster). Violation rate = Pr[mPL > the receipt's ε] over "
    "(document, record, candidate pair), averaged per document; '≤' is the one-sided 99 % "
    "Hoeffding bound of appendix D.4 with documents as the independent samples. The exact "
    "Clopper–Pearson bound over pairs (spec §5) is listed too; it treats the pairs of one "
    "document as independent, which they are not.",
    "An audit certifies the attackers that were tried, not the true posterior (spec §5): a "
    "stronger attacker may do better.",
]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bench.attack_audit",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--small", action="store_true", help="the CI-sized run (see above)")
    p.add_argument("--out-dir", type=Path, default=RESULTS)
    p.add_argument(
        "--table",
        type=Path,
        default=None,
        help=f"where to write the package's audit table (full run default: {AUDIT_TABLE})",
    )
    p.add_argument("--mechanisms", default=",".join(VARIANTS))
    p.add_argument("--attackers", default=None, help=f"subset of {','.join(ARCHITECTURES)}")
    p.add_argument("--tolerance", type=float, default=DEFAULT_POLICY.tolerance)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--weaken-sampler",
        type=float,
        default=None,
        metavar="FACTOR",
        help="self-test: audit a deliberately broken sanitizer that samples at FACTOR·ε while "
        "its receipts state ε (writes <stem>_weakened.*, never the package's table)",
    )
    p.add_argument(
        "--rebuild",
        type=Path,
        default=None,
        metavar="JSON",
        help="rebuild the report, plots, defaults and table from a saved run's JSON without "
        "attacking again (after a change to the reporting or the default policy)",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch threads for the learned attackers (1 is fastest on a busy machine)",
    )
    return p


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parser().parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch

    torch.set_num_threads(max(1, args.threads))
    started = time.perf_counter()
    small = args.small
    architectures = (
        tuple(a for a in args.attackers.split(",") if a)
        if args.attackers
        else (("mlp",) if small else ARCHITECTURES)
    )
    if args.rebuild is not None:
        saved = json.loads(args.rebuild.read_text(encoding="utf-8"))
        config = AuditConfig(
            scale=Scale(**saved["scale"]),
            epsilons=tuple(saved["epsilons"]),
            variants=tuple(dict.fromkeys(r["mechanism"] for r in saved["rows"])),
            architectures=tuple(a for a in saved["attackers"] if a != EXACT),
        )
        small, args.small = saved["mode"] == "small", saved["mode"] == "small"
        args.weaken_sampler = saved["weakened_sampler_factor"]
        result = {k: saved[k] for k in ("rows", "world", "reference_utility")}
        argv = saved["command"].split()[3:]
        started -= saved["runtime_seconds"]
    else:
        config = AuditConfig(
            scale=SMALL if small else FULL,
            epsilons=SMALL_EPSILONS if small else EPSILONS,
            variants=tuple(v for v in args.mechanisms.split(",") if v),
            architectures=architectures,
            train=TrainConfig(epochs=8 if small else 20, seed=args.seed),
            seed=args.seed,
        )
        factory = (
            partial(WeakenedSanitizer, factor=args.weaken_sampler)
            if args.weaken_sampler
            else TokenSanitizer
        )
        result = run_audit(
            config,
            sanitizer_factory=factory,
            log=lambda line: print(line, file=sys.stderr, flush=True),
        )
    report = build_report(result, config, args, time.perf_counter() - started, argv)
    stem = ("attack_audit_small" if small else "attack_audit") + (
        "_weakened" if args.weaken_sampler else ""
    )
    args.out_dir.mkdir(parents=True, exist_ok=True)
    report["plots"] = [p.name for p in rep.plots(report, args.out_dir, stem)]
    rep.write_json(args.out_dir / f"{stem}.json", report)
    (args.out_dir / f"{stem}.md").write_text(rep.markdown(report), encoding="utf-8")
    table_path = args.table
    if table_path is None and not small and not args.weaken_sampler:
        table_path = AUDIT_TABLE
    if table_path is not None:
        rep.write_json(table_path, report["audit_table"])
    print(rep.markdown(report).split("## Every attacker")[0])
    print(f"wrote {args.out_dir / stem}.{{json,md}} in {report['runtime_seconds']:.0f}s")
    return report


def build_report(
    result: dict[str, Any],
    config: AuditConfig,
    args: argparse.Namespace,
    seconds: float,
    argv: list[str] | None,
) -> dict[str, Any]:
    date = datetime.now(UTC).date().isoformat()
    command = "python -m bench.attack_audit " + " ".join(argv if argv is not None else sys.argv[1:])
    defaults = choose_defaults(result["rows"], DEFAULT_POLICY._replace(tolerance=args.tolerance))
    scale = config.scale
    meta = {
        "format": 1,
        "produced_by": command.strip(),
        "date": date,
        "software_version": __version__,
        "confidence": 0.99,
        "bound": "one-sided Hoeffding (seed 004 appendix D.4) over documents",
        "candidate_set_size": scale.candidate_set_size,
        "settings": {
            "candidates_per_category": scale.candidates_per_category,
            "n_clusters": 20,
            "cluster_size": None,
            "cluster_push": 16.0,
            "sanitize_general_words": False,
        },
        "evaluation_sets": {n: w for n, w in result["world"].items() if n != "train"},
        "policy": defaults["policy"],
    }
    return {
        "benchmark": "attack_audit",
        "command": command.strip(),
        "date": date,
        "software_version": __version__,
        "mode": "small" if args.small else "full",
        "weakened_sampler_factor": args.weaken_sampler,
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "runtime_seconds": round(seconds, 1),
        "scale": scale.__dict__,
        "candidate_set_size": scale.candidate_set_size,
        "epsilons": list(config.epsilons),
        "attackers": ["exact-bayes", *config.architectures],
        "tolerance": args.tolerance,
        "method": METHOD,
        "world": result["world"],
        "rows": result["rows"],
        "reference_utility": result["reference_utility"],
        "summary": {
            variant: {f"{r['epsilon']:g}": rep.summary_row(r) for r in rows}
            for variant, rows in rep.by_variant(result["rows"]).items()
        },
        "ampl": rep.ampl_tables(result["rows"], config.epsilons, args.tolerance),
        "defaults": defaults["mechanisms"],
        "defaults_note": defaults["note"],
        "audit_table": rep.audit_table(result, defaults["mechanisms"], meta),
    }


if __name__ == "__main__":
    main()
