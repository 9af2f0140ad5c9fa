"""NER forward CPU per token for cheaper architectures, side by side with the shipped one.

    python -m bench.ner_arch_speed [--rounds 5] [--model DIR ...]

Every variant runs the same dev texts (dev-hand-hard and 60 dev-corpus documents) through
`nlp.pipe` with NumPy gemm on one BLAS thread, exactly as `learned.py` runs the shipped
model; the rounds are interleaved so machine load hits every variant alike, and each
variant is reported as its median CPU time over the shipped model's (a ratio, not seconds).
Variants are the shipped weights cut by `training.arch.smaller_ner` to fewer encoder layers
and/or fewer labels (the cost of a forward does not depend on what the weights learnt), and
any trained model directories given with `--model`.

What it showed (November 2026, on md's NER shape: width 96, depth 4, 20 labels): the encoder is
about a third of the NER's CPU and the greedy transition loop the rest, and that loop pays
per action per token (each label adds four BILU actions), so dropping labels saves more
than dropping layers: depth 4 -> 2 alone 0.86-0.98, 20 -> 13 labels alone 0.80-0.86,
both with depth 3 0.66-0.73, with depth 2 0.64-0.67. The shipped model is now the depth 3,
13 labels cut, fine-tuned (0.74 of the old model's NER CPU once trained, median of 5 rounds).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

SHIPPED = "shipped"


def _texts() -> list[str]:
    from bench import dev_sets

    docs = dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD) + dev_sets.corpus_dev(60)
    return [d["text"] for d in docs]


def _run(nlp: Any, texts: list[str]) -> float:
    """CPU seconds of one pass over the texts (NumPy gemm, one BLAS thread, as shipped)."""
    from anonymizer.detection.fast_ops import one_blas_thread, use_numpy_gemm

    use_numpy_gemm(nlp.get_pipe("ner").model)
    with one_blas_thread():
        start = time.process_time()
        for _ in nlp.pipe(texts, batch_size=32):
            pass
        return time.process_time() - start


def variants(models: list[Path]) -> dict[str, Any]:
    """The shipped pipeline, its cut-down copies and the given trained models."""
    from anonymizer.detection.learned import _build_pipeline
    from anonymizer.detection.training.arch import encoder_stack, smaller_ner
    from anonymizer.detection.training.train import LABELS

    shipped = _build_pipeline()
    ner = shipped.get_pipe("ner")
    depth = len(encoder_stack(ner.model).layers)
    out: dict[str, Any] = {
        f"{SHIPPED} (d{depth}, {len(ner.labels)} labels)": shipped,
    }
    for d in sorted({depth, 3, 2}, reverse=True):
        if d <= depth and (d < depth or len(LABELS) < len(ner.labels)):
            out[f"cut to d{d}, {len(LABELS)} labels"] = smaller_ner(shipped, d, LABELS)
        if d < depth and set(LABELS) != set(ner.labels):
            out[f"cut to d{d}, all labels"] = smaller_ner(shipped, d, list(ner.labels))
    for path in models:
        out[f"model {path}"] = _build_pipeline(path)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ner_arch_speed")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--model", type=Path, action="append", default=[])
    args = parser.parse_args(argv)
    texts = _texts()
    pipelines = variants(args.model)
    base_name = next(iter(pipelines))
    tokens = sum(len(d) for d in pipelines[base_name].tokenizer.pipe(texts))
    for nlp in pipelines.values():  # warm-up
        _run(nlp, texts[:5])
    times: dict[str, list[float]] = {name: [] for name in pipelines}
    for _ in range(args.rounds):
        for name, nlp in pipelines.items():
            times[name].append(_run(nlp, texts))
    base = statistics.median(times[base_name])
    print(f"{len(texts)} docs, {tokens} tokens, {args.rounds} interleaved rounds")
    print(f"{'variant':48} {'CPU vs shipped':>15} {'us/token':>9}")
    for name, t in times.items():
        med = statistics.median(t)
        print(f"{name[:48]:48} {med / base:15.3f} {1e6 * med / tokens:9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
