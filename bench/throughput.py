"""dp-embed-invert throughput: one chunk per call (as the seed runs it) versus batched.

Builds the GTR encoder, the vec2text hypothesiser and the corrector with the published
architectures and random weights (`anonymizer.models.standins`: same FLOPs, no download) and
times the mechanism's model path (embed, clip, noise, invert) for num_steps 0, 1, 5 and 20:
chunks through one call each, versus all chunks in micro-batches of `--batch-size`. Random
weights almost never emit `</s>`, so every generation runs to vec2text's 128-token limit:
absolute rates are lower than with the real models, the ratio is what this measures. Prints
chunks/s and the ratio, writes JSON. Uses CUDA when present (`--device` overrides).

    python -m bench.throughput            # T5-base sizes: meant for a GPU (a few minutes)
    python -m bench.throughput --small    # tiny models, steps 0/1/5: a couple of minutes on CPU
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import torch
import transformers

from anonymizer.accounting import plan_gaussian_noise
from anonymizer.mechanisms.dp_embed_invert import clip_to_radius, noise_generator
from anonymizer.models.gtr_vec2text import InversionPipeline, select_device
from anonymizer.models.standins import build_standins, standin_pipeline, standin_sentences
from anonymizer.settings import Settings

RESULTS_DIR = Path(__file__).resolve().parent / "results"
CLIP_RADIUS = Settings.clip_radius


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m bench.throughput", description=__doc__.split("\n")[0]
    )
    p.add_argument("--small", action="store_true", help="tiny models and steps 0/1/5 (CPU)")
    p.add_argument("--steps", type=int, nargs="+", default=None, help="default 0 1 5 20")
    p.add_argument("--chunks", type=int, default=None, help="chunks timed batched (64; small 16)")
    p.add_argument("--single-chunks", type=int, default=8, help="chunks timed one per call")
    p.add_argument("--batch-size", type=int, default=Settings.batch_size)
    p.add_argument("--device", default=None, help="cpu, cuda, cuda:N (default: auto)")
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="torch CPU threads (default: torch's own; 1 with --small, whose tiny matrices "
        "gain nothing from more and lose ~10x to thread hand-offs on a busy 2-core machine)",
    )
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    args.steps = args.steps or ([0, 1, 5] if args.small else [0, 1, 5, 20])
    args.chunks = args.chunks or (16 if args.small else 64)
    if args.threads is None:
        args.threads = 1 if args.small else 0
    name = "throughput_small.json" if args.small else "throughput.json"
    args.out = args.out or RESULTS_DIR / name
    return args


def rewrite_chunks(
    pipeline: InversionPipeline,
    chunks: list[str],
    *,
    num_steps: int,
    batch_size: int,
    sigma: float,
    rng: np.random.Generator,
) -> list[str]:
    """The mechanism's model path for a list of chunks, in micro-batches of `batch_size`."""
    raw = pipeline.embed(chunks, batch_size)
    clipped = clip_to_radius(raw, CLIP_RADIUS)
    noisy = clipped + rng.normal(0.0, sigma, size=clipped.shape)
    return pipeline.invert(noisy.astype(np.float32), num_steps=num_steps, batch_size=batch_size)


def _timed(device: torch.device, run: Any) -> float:
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    start = time.perf_counter()
    run()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter() - start


def measure(args: argparse.Namespace) -> dict[str, Any]:
    if args.threads:
        torch.set_num_threads(args.threads)
    device = select_device(args.device)
    size = "tiny" if args.small else "base"
    started = time.perf_counter()
    pipeline = standin_pipeline(build_standins(size, seed=0), device)
    build_s = time.perf_counter() - started
    chunks = standin_sentences(args.chunks, seed=1)
    single_chunks = chunks[: args.single_chunks]
    sigma = plan_gaussian_noise(16.0, 1e-3, 4, clip_radius=CLIP_RADIUS).sigma
    rng = noise_generator(0)
    rewrite_chunks(pipeline, chunks[:2], num_steps=1, batch_size=2, sigma=sigma, rng=rng)  # warm-up
    rows = []
    for steps in args.steps:

        def one_per_call(steps: int = steps) -> None:
            for chunk in single_chunks:
                rewrite_chunks(
                    pipeline, [chunk], num_steps=steps, batch_size=1, sigma=sigma, rng=rng
                )

        def batched(steps: int = steps) -> None:
            rewrite_chunks(
                pipeline, chunks, num_steps=steps, batch_size=args.batch_size, sigma=sigma, rng=rng
            )

        single_s = _timed(device, one_per_call)
        batched_s = _timed(device, batched)
        row = {
            "num_steps": steps,
            "single_chunks": len(single_chunks),
            "single_seconds": single_s,
            "single_chunks_per_s": len(single_chunks) / single_s,
            "batched_chunks": len(chunks),
            "batched_seconds": batched_s,
            "batched_chunks_per_s": len(chunks) / batched_s,
        }
        row["ratio"] = row["batched_chunks_per_s"] / row["single_chunks_per_s"]
        rows.append(row)
        print(
            f"steps {steps:>2}: one per call {row['single_chunks_per_s']:8.2f} chunks/s   "
            f"batched {row['batched_chunks_per_s']:8.2f} chunks/s   ratio {row['ratio']:6.1f}x",
            flush=True,
        )
    return {
        "what": "dp-embed-invert model path (embed, clip, noise, invert), random-weight stand-ins",
        "models": "T5-base sizes (published architectures)" if size == "base" else "tiny",
        "device": str(device),
        "device_name": torch.cuda.get_device_name(device)
        if device.type == "cuda"
        else platform.processor() or platform.machine(),
        "torch_threads": torch.get_num_threads(),
        "batch_size": args.batch_size,
        "max_generation_tokens": 128,
        "build_seconds": build_s,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "results": rows,
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = measure(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
