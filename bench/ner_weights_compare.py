"""Two sets of NER weights under the same rules, per dev set: quality span by span, and speed
against Presidio, side by side in one run.

    python -m bench.ner_weights_compare --new /tmp/new-model            # old = main's weights
    python -m bench.ner_weights_compare --old DIR --new DIR --sets dev-hand-hard,dev-long

For each set the `combined` detector runs once with each set of weights (same rules, same
combiner), and Presidio's AnalyzerEngine runs on the same documents; the CPU time of each
(`time.process_time`, interleaved old / new / Presidio, `--rounds` times, median) gives the
speed ratios, which are what to read (absolute times move with the machine's load). Quality:
leak, span P/R at IoU 0.5 (`bench.detection_bench.score`), and per gold span whether it is
covered at IoU 0.5 with the old and with the new weights: gained / lost counts and a
two-sided sign test. Aggregate-only sets (`detection_bench.AGGREGATE_ONLY`) get no surfaces;
`--show N` prints up to N gained and lost surfaces of the other sets. Frozen sets are refused.
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

# every dev set of the detection bench (not its training sample or the frozen sets)
SETS = tuple(s for s in BENCH_SETS if s.startswith("dev-") and s != "dev-synth")
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


def compare_set(
    name: str, detectors: dict[str, Any], analyzer: Any, rounds: int, show: int
) -> dict[str, Any] | None:
    if name.startswith("frozen"):
        print(f"{name}: frozen sets are run by the lead only, at the end: skipped")
        return None
    docs, note = load_set(name, 300)
    if docs is None:
        print(f"{name}: {note}")
        return None
    texts = [d["text"] for d in docs]
    cpu: dict[str, list[float]] = {"old": [], "new": [], "presidio": []}
    found: dict[str, list[list[Detection]]] = {}
    for _ in range(rounds):
        for key, detector in detectors.items():
            found[key], seconds = _cpu(lambda detector=detector: detector.detect_many(texts))
            cpu[key].append(seconds)
        _, seconds = _cpu(lambda: [analyzer.analyze(text=t, language="en") for t in texts])
        cpu["presidio"].append(seconds)
    entry: dict[str, Any] = {"docs": len(docs), "gold": sum(len(d["spans"]) for d in docs)}
    for key, predictions in found.items():
        entry[key] = {
            **quality(docs, predictions),
            "cpu_s": statistics.median(cpu[key]),
            "x_presidio": statistics.median(cpu["presidio"]) / statistics.median(cpu[key]),
        }
    gained, lost = paired(
        docs,
        [resolve_overlaps(f) for f in found["old"]],
        [resolve_overlaps(f) for f in found["new"]],
    )
    entry["gained"], entry["lost"] = len(gained), len(lost)
    entry["sign_p"] = sign_test(len(gained), len(lost))
    entry["new_cpu_vs_old"] = entry["new"]["cpu_s"] / entry["old"]["cpu_s"]
    o, n = entry["old"], entry["new"]
    print(
        f"{name:20} {entry['docs']:4d} docs {entry['gold']:5d} spans | leak {o['leak']:.3f} -> "
        f"{n['leak']:.3f}  P {o['precision']:.3f} -> {n['precision']:.3f}  R {o['recall']:.3f} -> "
        f"{n['recall']:.3f} | spans +{len(gained)}/-{len(lost)} p={entry['sign_p']:.3f} | "
        f"x Presidio {o['x_presidio']:.2f} -> {n['x_presidio']:.2f} (new/old CPU "
        f"{entry['new_cpu_vs_old']:.2f})",
        flush=True,
    )
    if show and name not in AGGREGATE_ONLY:
        print("   gained:", "; ".join(gained[:show]))
        print("   lost:  ", "; ".join(lost[:show]))
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ner_weights_compare")
    parser.add_argument("--old", type=Path, default=None, help="model dir (default: main's)")
    parser.add_argument("--new", type=Path, required=True, help="model dir")
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
        detectors = {
            "old": CombinedDetector(ner=LearnedNerDetector(old_dir)),
            "new": CombinedDetector(ner=LearnedNerDetector(args.new)),
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
    if args.out:
        args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
