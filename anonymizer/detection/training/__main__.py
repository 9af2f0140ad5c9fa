"""`python -m anonymizer.detection.training train|generate`: rebuild the shipped NER model, or
write the synthetic training corpus as JSONL."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from anonymizer.detection.training import run_with_fixed_hash_seed


def main(argv: list[str] | None = None) -> int:
    run_with_fixed_hash_seed("anonymizer.detection.training", argv)
    parser = argparse.ArgumentParser(prog="python -m anonymizer.detection.training")
    sub = parser.add_subparsers(dest="command", required=True)
    train = sub.add_parser("train", help="fine-tune the NER model and save it into the package")
    train.add_argument("--n-train", type=int, default=16000)
    train.add_argument("--n-dev", type=int, default=400)
    train.add_argument("--seed", type=int, default=1)
    train.add_argument("--minutes", type=float, default=45.0, help="training time budget")
    train.add_argument("--max-epochs", type=int, default=6)
    train.add_argument("--out", type=Path, default=None)
    train.add_argument("--start", choices=["shipped", "md"], default="shipped")
    train.add_argument("--depth", type=int, default=None, help="tok2vec encoder layers")
    train.add_argument("--labels", default=None, help="comma-separated NER labels")
    gen = sub.add_parser("generate", help="write synthetic training documents as JSONL")
    gen.add_argument("--n", type=int, default=200)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "train":
        from anonymizer.detection.training.train import DEPTH, LABELS, MODEL_DIR
        from anonymizer.detection.training.train import train as run_training

        meta = run_training(
            args.n_train, args.n_dev, args.seed, args.minutes, args.max_epochs,
            args.out or MODEL_DIR, start=args.start, depth=args.depth or DEPTH,
            labels=args.labels.split(",") if args.labels else LABELS,
        )  # fmt: skip
        print(f"saved model: best dev {meta['best']} in {meta['training_seconds']} s")
        return 0
    from anonymizer.detection.training.synth import generate
    from bench.loaders import write_jsonl

    path = write_jsonl(generate(args.n, args.seed), args.out)
    print(f"wrote {args.n} documents to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
