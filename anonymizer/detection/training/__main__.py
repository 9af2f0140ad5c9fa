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
    train.add_argument(
        "--start",
        default="shipped",
        help="weights to fine-tune: 'shipped' (the package's), 'md' (en_core_web_md's NER) or "
        "a model directory an earlier run wrote (--out)",
    )
    train.add_argument("--depth", type=int, default=None, help="tok2vec encoder layers")
    train.add_argument("--labels", default=None, help="comma-separated NER labels")
    train.add_argument(
        "--hand",
        default="default",
        help="hand-written training files: 'default' (every non-empty "
        "bench/train_hand/handwritten_train_*.txt), 'none', or comma-separated paths",
    )
    train.add_argument("--hand-share", type=float, default=None, help="of the examples")
    train.add_argument(
        "--select-every",
        type=float,
        default=0.0,
        help="minutes between checkpoints scored on dev-hand-hard + dev-hand-wild with the "
        "combined detector (0: keep the best synthetic dev F1)",
    )
    train.add_argument(
        "--hand-casing",
        type=float,
        default=0.0,
        help="share of the hand-written documents that also get a recased copy (names in "
        "capitals or lower case; training/casing.py)",
    )
    train.add_argument(
        "--hand-boost",
        default="",
        help="comma-separated NER labels (e.g. NORP,ORG): hand-written pieces holding one "
        "count --hand-boost-factor times in the hand-written share",
    )
    train.add_argument("--hand-boost-factor", type=int, default=2)
    train.add_argument(
        "--select-sets",
        default="dev-hand-hard,dev-hand-wild",
        help="comma-separated studyable dev sets the checkpoints are scored on",
    )
    gen = sub.add_parser("generate", help="write synthetic training documents as JSONL")
    gen.add_argument("--n", type=int, default=200)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "train":
        from anonymizer.detection.training.handwritten import hand_files
        from anonymizer.detection.training.select import selection_sets

        if args.select_every > 0:
            try:
                selection_sets(tuple(args.select_sets.split(",")))  # before minutes of preparation
            except ValueError as error:
                parser.error(str(error))
        from anonymizer.detection.training.train import DEPTH, HAND_SHARE, LABELS, MODEL_DIR
        from anonymizer.detection.training.train import train as run_training

        if args.hand == "default":
            hand = hand_files()
        elif args.hand == "none":
            hand = []
        else:
            hand = [Path(p) for p in args.hand.split(",")]

        meta = run_training(
            args.n_train, args.n_dev, args.seed, args.minutes, args.max_epochs,
            args.out or MODEL_DIR, start=args.start, depth=args.depth or DEPTH,
            labels=args.labels.split(",") if args.labels else LABELS, hand_paths=hand,
            hand_share=HAND_SHARE if args.hand_share is None else args.hand_share,
            select_every=args.select_every, hand_casing=args.hand_casing,
            hand_boost=[x for x in args.hand_boost.split(",") if x],
            hand_boost_factor=args.hand_boost_factor,
            select_sets=args.select_sets.split(","),
        )  # fmt: skip
        best = {k: v for k, v in meta["best"].items() if k != "selected"}
        selected = meta["best"].get("selected", {}).get("best", {})
        print(
            f"saved model: synthetic dev {best}, selected checkpoint "
            f"{selected.get('name', '-')} (cost {selected.get('cost', '-')}) "
            f"in {meta['training_seconds']} s"
        )
        return 0
    from anonymizer.detection.training.synth import generate
    from bench.loaders import write_jsonl

    path = write_jsonl(generate(args.n, args.seed), args.out)
    print(f"wrote {args.n} documents to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
