"""Gaussian noise samplers side by side: OpenDP's exact sampler (production, unseeded) vs numpy.

Times `anonymizer.mechanisms.gaussian_noise.clip_and_noise` on documents of K chunks of 768
floats (GTR-t5-base embeddings) with each sampler, interleaved in one run, and prints the ratio
and the cost per chunk. The first OpenDP call (loading its native library) is timed apart.
Writes bench/results/noise_sampler.json.

    .venv/bin/python -m bench.noise_sampler_bench [--chunks 8] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from anonymizer.accounting import plan_gaussian_noise
from anonymizer.mechanisms.gaussian_noise import NUMPY, OPENDP, clip_and_noise, opendp_version

RESULTS = Path(__file__).resolve().parent / "results" / "noise_sampler.json"
DIM = 768


def timed(raw: np.ndarray, sigma: float, sampler: str) -> float:
    started = time.perf_counter()
    clip_and_noise(raw, 1.5, sigma, sampler=sampler)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=8, help="K chunks per document")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if opendp_version() is None:
        raise SystemExit("OpenDP is not installed: pip install -c constraints.txt opendp==0.16.0")
    sigma = plan_gaussian_noise(16.0, 1e-3, args.chunks, clip_radius=1.5).sigma
    raw = np.random.default_rng(0).normal(size=(args.chunks, DIM))
    first_call = timed(raw[:1], sigma, OPENDP)
    runs: dict[str, list[float]] = {OPENDP: [], NUMPY: []}
    for _ in range(args.repeats):  # interleaved, so both see the same machine load
        for sampler in (OPENDP, NUMPY):
            runs[sampler].append(timed(raw, sigma, sampler))
    median = {s: statistics.median(t) for s, t in runs.items()}
    report = {
        "benchmark": "noise_sampler",
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "opendp": opendp_version(),
        "chunks_per_document": args.chunks,
        "floats_per_document": args.chunks * DIM,
        "sigma": sigma,
        "repeats": args.repeats,
        "seconds_median": median,
        "ms_per_chunk": {s: 1000 * t / args.chunks for s, t in median.items()},
        "us_per_float": {s: 1e6 * t / (args.chunks * DIM) for s, t in median.items()},
        "ratio_opendp_over_numpy": median[OPENDP] / median[NUMPY],
        "opendp_first_call_seconds": first_call,
        "threads": min(16, os.cpu_count() or 1),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform()},
        "notes": [
            "Timings come from a shared machine and vary between runs; the ratio is measured "
            "side by side in one run.",
            "opendp_first_call_seconds includes loading OpenDP's native library, once per "
            "worker process.",
        ],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(
        f"K = {args.chunks} chunks × {DIM} floats: OpenDP {median[OPENDP] * 1000:.1f} ms "
        f"({report['ms_per_chunk'][OPENDP]:.1f} ms/chunk), numpy {median[NUMPY] * 1000:.3f} ms; "
        f"ratio {report['ratio_opendp_over_numpy']:.0f}×; first OpenDP call {first_call:.2f} s"
    )
    return report


if __name__ == "__main__":
    main()
