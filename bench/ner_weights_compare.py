"""Sets of NER weights under the same rules, per dev set: quality span by span, and speed
against Presidio, side by side in one run.

    python -m bench.ner_weights_compare --new /tmp/new-model            # old = main's weights
    python -m bench.ner_weights_compare --old DIR --new DIR --sets dev-hand-hard,dev-long
    python -m bench.ner_weights_compare --new A=DIR --new B=DIR        # several, one run

For each set the `combined` detector runs once with each set of weights (same rules, same
combiner), and Presidio's AnalyzerEngine runs on the same documents; the CPU time of each
(`time.process_time`, interleaved old / new... / Presidio in a rotating order, `--rounds`
times, median) gives the speed ratios, which are what to read (absolute times move with the
machine's load).
Quality: leak, span P/R at IoU 0.5 (`bench.detection_bench.score`), and per gold span whether
it is covered at IoU 0.5 with the old and with each new set of weights: gained / lost counts
and a two-sided sign test, per set and pooled over `GATE_SETS`. Aggregate-only sets
(`detection_bench.AGGREGATE_ONLY`) get no surfaces; `--show N` prints up to N gained and lost
surfaces of the other sets. Frozen and lead-only sets are refused.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from anonymizer import metrics
from anonymizer.detection import apply_lists
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.types import Detection
from bench.detection_bench import AGGREGATE_ONLY, load_set, redact, score
from bench.detection_bench import SETS as BENCH_SETS

LEAD_ONLY = ("dev-hand-fresh", "dev-hand-fresh2")  # run by the lead only, like the frozen sets
# every dev set of the detection bench (not its training sample, lead-only or frozen sets)
SETS = tuple(s for s in BENCH_SETS if s.startswith("dev-") and s not in ("dev-synth", *LEAD_ONLY))
# where new weights must not do worse, pooled (the blind aggregates and dev-hand-hard)
GATE_SETS = ("dev-hand-wild-blind", "dev-hand-blind", "dev-hand-hard")
REPO = Path(__file__).resolve().parent.parent
MODEL_PATH = "anonymizer/detection/model"


def weights_from_git(rev: str, into: Path) -> Path:
    """The model directory as committed at `rev`, extracted under `into`."""
    archive = subprocess.run(
        ["git", "archive", rev, MODEL_PATH], cwd=REPO, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / MODEL_PATH


def sign_test(gained: int, lost: int) -> float:
    """Two-sided exact sign test p-value for `gained` against `lost` (ties left out)."""
    n = gained + lost
    if n == 0:
        return 1.0
    k = min(gained, lost)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def covered(gold: dict[str, Any], predicted: Sequence[Detection]) -> bool:
    """The gold span is covered at IoU >= 0.5 by the predicted spans touching it."""
    touching = [
        (p.start, p.end) for p in predicted if p.start < gold["end"] and gold["start"] < p.end
    ]
    return bool(touching) and metrics.covered_iou((gold["start"], gold["end"]), touching) >= 0.5


def paired(
    docs: list[dict[str, Any]], old: list[list[Detection]], new: list[list[Detection]]
) -> tuple[list[str], list[str]]:
    """Gold spans ('category: surface') covered only with the new weights, and only the old."""
    gained, lost = [], []
    for doc, o, n in zip(docs, old, new, strict=True):
        for g in doc["spans"]:
            before, after = covered(g, o), covered(g, n)
            label = f"{g['label']}: {doc['text'][g['start'] : g['end']]}"
            if after and not before:
                gained.append(label)
            elif before and not after:
                lost.append(label)
    return gained, lost


def quality(docs: list[dict[str, Any]], predictions: list[list[Detection]]) -> dict[str, float]:
    """Leak and span precision / recall at IoU 0.5 of one detector's predictions, scored as
    the detection bench scores them (lists applied, overlaps resolved)."""
    texts = [d["text"] for d in docs]
    outputs = [redact(t, apply_lists(t, f)) for t, f in zip(texts, predictions, strict=True)]
    s = score(docs, outputs, [resolve_overlaps(f) for f in predictions])
    return {
        "leak": s["leak"],
        "precision": s["iou0.5"]["precision"],
        "recall": s["iou0.5"]["recall"],
    }


def _cpu(work: Callable[[], Any]) -> tuple[Any, float]:
    start = time.process_time()
    out = work()
    return out, time.process_time() - start


def rotated(keys: Sequence[str], round_no: int) -> list[str]:
    """`keys` starting at position `round_no` (mod their number), so that over the rounds each
    system runs first, last and between the others (caches and load drift even out)."""
    shift = round_no % len(keys)
    return [*keys[shift:], *keys[:shift]]


def compare_set(
    name: str, detectors: dict[str, Any], analyzer: Any, rounds: int, show: int
) -> dict[str, Any] | None:
    """Quality and CPU of each detector (the first is the baseline, "old") on set `name`,
    runs interleaved with Presidio's; gained / lost spans of every other against the first."""
    if name.startswith("frozen") or name in LEAD_ONLY:
        print(f"{name}: run by the lead only, at the end: skipped")
        return None
    docs, note = load_set(name, 300)
    if docs is None:
        print(f"{name}: {note}")
        return None
    texts = [d["text"] for d in docs]
    cpu: dict[str, list[float]] = {key: [] for key in [*detectors, "presidio"]}
    found: dict[str, list[list[Detection]]] = {}
    for r in range(rounds):
        for key in rotated([*detectors, "presidio"], r):
            if key == "presidio":
                _, seconds = _cpu(lambda: [analyzer.analyze(text=t, language="en") for t in texts])
            else:
                detector = detectors[key]
                found[key], seconds = _cpu(lambda d=detector: d.detect_many(texts))
            cpu[key].append(seconds)
    entry: dict[str, Any] = {"docs": len(docs), "gold": sum(len(d["spans"]) for d in docs)}
    for key, predictions in found.items():
        entry[key] = {
            **quality(docs, predictions),
            "cpu_s": statistics.median(cpu[key]),
            "x_presidio": statistics.median(cpu["presidio"]) / statistics.median(cpu[key]),
        }
    base, *others = detectors
    resolved = {key: [resolve_overlaps(f) for f in found[key]] for key in detectors}
    o = entry[base]
    print(
        f"{name:20} {entry['docs']:4d} docs {entry['gold']:5d} spans | {base}: leak "
        f"{o['leak']:.3f} P {o['precision']:.3f} R {o['recall']:.3f} "
        f"x Presidio {o['x_presidio']:.2f}",
        flush=True,
    )
    entry["vs_" + base] = {}
    for key in others:
        gained, lost = paired(docs, resolved[base], resolved[key])
        n = entry[key]
        versus = {
            "gained": len(gained),
            "lost": len(lost),
            "sign_p": sign_test(len(gained), len(lost)),
            "cpu_ratio": n["cpu_s"] / o["cpu_s"],
        }
        entry["vs_" + base][key] = versus
        print(
            f"{'':20} {key:>20}: leak {n['leak']:.3f} P {n['precision']:.3f} R "
            f"{n['recall']:.3f} x Presidio {n['x_presidio']:.2f} | spans +{len(gained)}/"
            f"-{len(lost)} p={versus['sign_p']:.3f} (CPU {versus['cpu_ratio']:.2f} of {base})",
            flush=True,
        )
        if show and name not in AGGREGATE_ONLY:
            print("   gained:", "; ".join(gained[:show]))
            print("   lost:  ", "; ".join(lost[:show]))
    return entry


def pooled(results: dict[str, dict[str, Any]], sets: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Gained / lost spans of each compared model against the baseline, summed over `sets`
    (those that ran), with the sign test of the sums: the adoption rule's figure."""
    totals: dict[str, dict[str, Any]] = {}
    for name in sets:
        versus = next((v for k, v in results.get(name, {}).items() if k.startswith("vs_")), {})
        for key, counts in versus.items():
            total = totals.setdefault(key, {"gained": 0, "lost": 0, "sets": []})
            total["gained"] += counts["gained"]
            total["lost"] += counts["lost"]
            total["sets"].append(name)
    for total in totals.values():
        total["sign_p"] = sign_test(total["gained"], total["lost"])
    return totals


def named_dirs(values: Sequence[str]) -> dict[str, Path]:
    """`NAME=DIR` or `DIR` arguments as {name: dir}; a bare DIR is called "new" (then
    "new2", ...)."""
    named: dict[str, Path] = {}
    for n, value in enumerate(values, start=1):
        name, sep, path = value.partition("=")
        if not sep:
            name, path = ("new" if n == 1 else f"new{n}"), value
        if name in named or name in ("old", "presidio"):
            raise ValueError(f"model name {name!r} is taken")
        named[name] = Path(path)
    return named


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ner_weights_compare")
    parser.add_argument("--old", type=Path, default=None, help="model dir (default: main's)")
    parser.add_argument(
        "--new",
        action="append",
        required=True,
        help="model dir, or NAME=DIR; repeat to compare several against --old in one run",
    )
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--show", type=int, default=0, help="surfaces gained/lost to print")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args(argv)
    from anonymizer.detection.combined import CombinedDetector
    from anonymizer.detection.learned import LearnedNerDetector
    from anonymizer.detection.presidio import analyzer_engine

    with tempfile.TemporaryDirectory() as tmp:
        old_dir = args.old or weights_from_git("main", Path(tmp))
        weights = {"old": old_dir, **named_dirs(args.new)}
        detectors = {
            key: CombinedDetector(ner=LearnedNerDetector(path)) for key, path in weights.items()
        }
        analyzer = analyzer_engine()
        warm = "Warm-up: Jane Doe called 415-555-0188 from Boston."
        for detector in detectors.values():
            detector.detect(warm)
        analyzer.analyze(text=warm, language="en")
        results = {}
        for name in args.sets.split(","):
            entry = compare_set(name, detectors, analyzer, args.rounds, args.show)
            if entry is not None:
                results[name] = entry
    gate = pooled(results, GATE_SETS)
    for key, total in gate.items():
        print(
            f"pooled over {', '.join(total['sets'])}: {key} vs old spans +{total['gained']}/"
            f"-{total['lost']} p={total['sign_p']:.3f}"
        )
    if args.out:
        summary = {"weights": {k: str(v) for k, v in weights.items()}, "pooled": gate}
        args.out.write_text(
            json.dumps({**results, "summary": summary}, indent=2) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
