"""`python -m anonymizer`: the seed's flags and output formats, plus mechanisms and --plan."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from anonymizer.errors import AnonymizerError
from anonymizer.receipts import jsonable, receipt_dict, receipt_line, result_dict, result_text
from anonymizer.settings import Settings, parse_float

EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m anonymizer",
        description="Rewrite text with a privacy mechanism and print it with its receipt. "
        "Subcommand: `python -m anonymizer models status|fetch`.",
    )
    p.add_argument("--text", help="input text (default: read standard input)")
    p.add_argument("--mechanism", default=Settings.mechanism, help="see --list-mechanisms")
    p.add_argument("--detector", default=Settings.detector)
    p.add_argument(
        "--epsilon",
        type=parse_float,
        default=None,
        help="document ε (default: the seed's 16; for the token mechanisms the ε their "
        "attack audit chose, see --list-mechanisms)",
    )
    p.add_argument("--delta", type=float, default=Settings.delta, help="document δ")
    p.add_argument("--clip", type=float, default=Settings.clip_radius, dest="clip_radius")
    p.add_argument("--steps", type=int, default=Settings.num_steps, dest="num_steps")
    p.add_argument("--composition", default=Settings.composition, help="basic | zcdp | gdp")
    p.add_argument("--metric-unit", type=float, default=None, dest="metric_unit")
    p.add_argument("--no-redact", action="store_false", dest="redact_pii")
    p.add_argument("--whitelist", default="", help="comma-separated categories to keep")
    p.add_argument("--allow", action="append", default=[], help="string never redacted")
    p.add_argument("--deny", action="append", default=[], help="string always redacted")
    p.add_argument("--max-len", type=int, default=Settings.max_len, dest="max_len")
    p.add_argument("--batch-size", type=int, default=Settings.batch_size, dest="batch_size")
    p.add_argument("--device", default=None)
    p.add_argument("--seed", type=int, default=None, help="reproducible noise: NOT private")
    p.add_argument("--clusters", type=int, default=Settings.n_clusters, dest="n_clusters")
    p.add_argument("--cluster-size", type=int, default=None, dest="cluster_size")
    p.add_argument(
        "--push",
        type=parse_float,
        default=Settings.cluster_push,
        dest="cluster_push",
        help="CluSanT factor k (inf allowed)",
    )
    p.add_argument(
        "--candidates",
        type=int,
        default=Settings.candidates_per_category,
        dest="candidates_per_category",
    )
    p.add_argument("--sensitive", action="append", default=[], dest="sensitive_words")
    p.add_argument(
        "--remap",
        action="store_true",
        dest="bayes_remap",
        help="token mechanisms: Bayesian remapping of the surrogates (post-processing)",
    )
    p.add_argument(
        "--operator",
        default=Settings.operator,
        help="placeholder | numbered | mask | hash | fake (replacement of placeholder spans)",
    )
    p.add_argument("--mask-fixed", action="store_false", dest="mask_keep_length")
    p.add_argument("--fake-locale", default=Settings.fake_locale, dest="fake_locale")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument(
        "--plan",
        action="store_true",
        help="detect, segment and account only; print the receipt a rewrite would carry",
    )
    p.add_argument("--list-rules", action="store_true")
    p.add_argument("--list-mechanisms", action="store_true")
    return p


def _settings_from_args(args: argparse.Namespace) -> Settings:
    whitelist = tuple(c.strip() for c in args.whitelist.split(",") if c.strip())
    return Settings(
        mechanism=args.mechanism,
        detector=args.detector,
        epsilon=args.epsilon if args.epsilon is not None else default_epsilon(args.mechanism),
        delta=args.delta,
        clip_radius=args.clip_radius,
        num_steps=args.num_steps,
        composition=args.composition,
        metric_unit=args.metric_unit,
        redact_pii=args.redact_pii,
        whitelist_categories=whitelist,
        allow_list=tuple(args.allow),
        deny_list=tuple(args.deny),
        max_len=args.max_len,
        batch_size=args.batch_size,
        device=args.device,
        seed=args.seed,
        n_clusters=args.n_clusters,
        cluster_size=args.cluster_size,
        cluster_push=args.cluster_push,
        candidates_per_category=args.candidates_per_category,
        sensitive_words=tuple(args.sensitive_words),
        bayes_remap=args.bayes_remap,
        operator=args.operator,
        mask_keep_length=args.mask_keep_length,
        fake_locale=args.fake_locale,
    )


def default_epsilon(mechanism: str) -> float:
    """The mechanism's registered default ε (the token mechanisms' comes from their attack
    audit), else the seed's."""
    from anonymizer.errors import UnknownMechanism
    from anonymizer.registry import mechanism_info

    try:
        value = mechanism_info(mechanism).default_epsilon
    except UnknownMechanism:
        return Settings.epsilon
    return Settings.epsilon if value is None else value


def _print_rules(as_json: bool) -> None:
    from anonymizer.detection.regex import rule_table

    rows = rule_table()
    if as_json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for r in rows:
        print(
            f"{r['id']:<28} {r['category']:<24} {r['placeholder']:<24} "
            f"{r['confidence']}  {r['rationale']}"
        )


def _print_mechanisms(as_json: bool) -> None:
    from anonymizer.registry import list_mechanisms

    rows = []
    for info in list_mechanisms():
        reason = info.unavailable_reason()
        rows.append(
            {
                "name": info.name,
                "title": info.title,
                "guarantee": info.guarantee,
                "needs_gpu": info.needs_gpu,
                "available": reason is None,
                "reason": reason,
                "parameters": list(info.parameters),
                "default_epsilon": info.default_epsilon,
            }
        )
    if as_json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for r in rows:
        state = "available" if r["available"] else f"UNAVAILABLE: {r['reason']}"
        gpu = " (GPU recommended)" if r["needs_gpu"] else ""
        print(f"{r['name']:<18} {r['guarantee']:<34} {state}{gpu}")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["models"]:
        from anonymizer.models.cli import main as models_main

        return models_main(argv[1:])
    args = build_parser().parse_args(argv)
    if args.list_rules:
        _print_rules(args.json)
        return 0
    if args.list_mechanisms:
        _print_mechanisms(args.json)
        return 0
    try:
        settings = _settings_from_args(args)
        text = args.text if args.text is not None else sys.stdin.read()
        if not text.strip():
            raise AnonymizerError("input text is empty")
        from anonymizer import api

        if args.plan:
            plan = api.plan(text, settings)
            if args.json:
                print(
                    json.dumps(
                        jsonable(
                            {
                                "original": text,
                                "spans": [s.__dict__ for s in plan.spans],
                                "n_chunks": plan.receipt.n_chunks,
                                "sigma": plan.receipt.sigma,
                                "epsilon_per_chunk": plan.receipt.epsilon_per_chunk,
                                "delta_per_chunk": plan.receipt.delta_per_chunk,
                                "receipt": receipt_dict(plan.receipt),
                            }
                        ),
                        indent=2,
                        ensure_ascii=False,
                    )
                )
            else:
                print(receipt_line(plan.receipt))
                print(plan.receipt.statement)
            return 0
        result = api.rewrite(text, settings)
    except AnonymizerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        print(json.dumps(result_dict(result), indent=2, ensure_ascii=False))
    else:
        print(result_text(result))
    return 0
