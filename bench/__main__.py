"""`python -m bench [all|detectors|mechanisms|corpus]`: the evaluation harness's command line.

`all` (the default) reproduces bench/results/evaluation.{json,md} and the two ε plots on the
embedded synthetic corpus; `--corpus PATH` evaluates a local JSONL / TAB file instead, and
`corpus` writes the embedded corpus as JSONL.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from anonymizer.settings import COMPOSITIONS, parse_float
from bench.evaluate import DEFAULT_DETECTORS, DEFAULT_EPSILONS, RESULTS_DIR, Config, run


def _csv(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(",") if v.strip())


def _epsilons(value: str) -> tuple[float, ...]:
    try:
        eps = tuple(parse_float(v) for v in _csv(value))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {value!r}") from None
    if not eps or any(math.isnan(e) or e <= 0 for e in eps):
        raise argparse.ArgumentTypeError("every ε must be > 0 (or inf)")
    return eps


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "part", nargs="?", default="all", choices=("all", "detectors", "mechanisms", "corpus")
    )
    p.add_argument(
        "--n",
        type=int,
        default=None,
        help="documents for both parts (default: 600 detectors, 120 mechanisms)",
    )
    p.add_argument("--n-detectors", type=int, default=600)
    p.add_argument("--n-mechanisms", type=int, default=120)
    p.add_argument(
        "--corpus",
        type=Path,
        default=None,
        help="a local JSONL (Nemotron-PII / gretel style) or TAB JSON file",
    )
    p.add_argument(
        "--format", dest="corpus_format", default="auto", choices=("auto", "jsonl", "json", "tab")
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--eps",
        type=_epsilons,
        default=DEFAULT_EPSILONS,
        help="comma-separated ε values, 'inf' allowed (default: 1,4,16,64,256,inf)",
    )
    p.add_argument("--detectors", type=_csv, default=DEFAULT_DETECTORS)
    p.add_argument(
        "--mechanisms",
        type=_csv,
        default=None,
        help="comma-separated mechanism names (default: every registered one)",
    )
    p.add_argument("--compositions", type=_csv, default=COMPOSITIONS)
    p.add_argument(
        "--mechanism-detector",
        default=Config().mechanism_detector,
        help="detector the DP mechanisms use (default: %(default)s)",
    )
    p.add_argument(
        "--n-standin",
        type=int,
        default=Config().n_standin,
        help="documents for DP-Embed-Invert on tiny stand-in models (default: 8)",
    )
    p.add_argument(
        "--standin-steps",
        type=int,
        default=Config().standin_steps,
        help="corrector steps with the stand-in models (default: 1)",
    )
    p.add_argument("--no-presidio-baseline", action="store_true")
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--out", type=Path, default=RESULTS_DIR)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    config = Config(
        n_detectors=args.n if args.n is not None else args.n_detectors,
        n_mechanisms=args.n if args.n is not None else args.n_mechanisms,
        corpus=args.corpus,
        corpus_format=args.corpus_format,
        seed=args.seed,
        epsilons=args.eps,
        detectors=args.detectors,
        mechanisms=args.mechanisms,
        compositions=args.compositions,
        mechanism_detector=args.mechanism_detector,
        n_standin=args.n_standin,
        standin_steps=args.standin_steps,
        presidio_baseline=not args.no_presidio_baseline,
        out=args.out,
        plots=not args.no_plots,
    )
    if args.part == "corpus":
        from bench.evaluate import load_documents
        from bench.loaders import write_jsonl

        _, docs = load_documents(config)
        path = write_jsonl(docs, config.out / "corpus.jsonl")
        print(f"wrote {len(docs)} documents to {path}")
        return 0
    parts = ("detectors", "mechanisms") if args.part == "all" else (args.part,)
    started = time.perf_counter()
    run(config, parts)
    elapsed = time.perf_counter() - started
    print(
        f"wrote {config.out}/evaluation.json, evaluation.md"
        + ("" if args.no_plots else ", eps_vs_semsim.png, eps_vs_leak.png")
        + f" in {elapsed / 60:.1f} min"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
