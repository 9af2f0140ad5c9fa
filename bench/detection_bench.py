"""Detection benchmark: regex throughput, time per document and gold-PII leak, side by side.

On the synthetic corpus (`bench.corpus`) it measures, in one run:

* regex detector throughput in MB/s (UTF-8 bytes of the corpus text per wall-clock second);
* time per document, on the same documents, of detection (combined detector vs Presidio's
  AnalyzerEngine) and of redaction (our `redact` mechanism with the combined detector vs
  Presidio alone: AnalyzerEngine + presidio-anonymizer's AnonymizerEngine with the default
  replace operator);
* the leak rate: the fraction of gold PII surface strings that still occur in the output
  (case-insensitive substring), overall and per category, for combined, Presidio alone and
  the regex rules alone;
* spurious detections: the share of detections that overlap no gold span (over-redaction).

Prints a table and writes JSON (default `bench/results/detection.json`).

    python -m bench.detection_bench --n 600
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from anonymizer.detection import detect
from anonymizer.mechanisms.redact import RedactMechanism
from anonymizer.settings import Settings
from bench.corpus import generate_corpus


def leaked_spans(doc: dict[str, Any], output: str) -> list[bool]:
    """For each gold span: does its surface string still occur in the output?"""
    lowered = output.lower()
    return [doc["text"][s["start"] : s["end"]].lower() in lowered for s in doc["spans"]]


def spurious(doc: dict[str, Any], spans: list[tuple[int, int]]) -> int:
    """How many detected spans overlap no gold span."""
    gold = [(s["start"], s["end"]) for s in doc["spans"]]
    return sum(not any(s < ge and gs < e for gs, ge in gold) for s, e in spans)


def regex_throughput(texts: list[str], min_bytes: int = 2_000_000, repeats: int = 3) -> dict:
    """Median MB/s of the regex detector over the corpus text, repeated to `min_bytes`."""
    from anonymizer.detection.regex import RegexDetector

    detector = RegexDetector()
    blob = "\n\n".join(texts)
    blob = "\n\n".join([blob] * max(1, -(-min_bytes // len(blob.encode()))))
    size = len(blob.encode())
    detector.detect(blob[:10_000])  # warm caches
    seconds, cpu_seconds = [], []
    for _ in range(repeats):
        start, cpu_start = time.perf_counter(), time.process_time()
        detector.detect(blob)
        seconds.append(time.perf_counter() - start)
        cpu_seconds.append(time.process_time() - cpu_start)
    per_doc = []
    for text in texts:
        start = time.perf_counter()
        detector.detect(text)
        per_doc.append(time.perf_counter() - start)
    return {
        "bytes": size,
        "seconds_median": statistics.median(seconds),
        "mb_per_s": size / 1e6 / statistics.median(seconds),
        "mb_per_cpu_s": size / 1e6 / statistics.median(cpu_seconds),
        "ms_per_doc": 1000 * statistics.mean(per_doc),
    }


def run(n: int, seed: int) -> dict[str, Any]:
    from presidio_anonymizer import AnonymizerEngine

    from anonymizer.detection.presidio import analyzer_engine

    docs = generate_corpus(n, seed)
    texts = [d["text"] for d in docs]
    result: dict[str, Any] = {
        "n_docs": n,
        "seed": seed,
        "corpus_chars": sum(len(t) for t in texts),
        "gold_spans": sum(len(d["spans"]) for d in docs),
    }

    result["regex"] = regex_throughput(texts)

    start = time.perf_counter()
    analyzer = analyzer_engine()
    anonymizer = AnonymizerEngine()
    result["presidio_load_s"] = time.perf_counter() - start
    redact = RedactMechanism()
    settings = {name: Settings(mechanism="redact", detector=name) for name in ("combined", "regex")}
    redact.rewrite(texts[0], settings["combined"])  # warm both pipelines
    anonymizer.anonymize(texts[0], analyzer.analyze(texts[0], language="en"))

    times: dict[str, list[float]] = defaultdict(list)
    leaks: dict[str, list[bool]] = defaultdict(list)
    by_category: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    detections: dict[str, int] = defaultdict(int)
    spurious_counts: dict[str, int] = defaultdict(int)
    for doc in docs:
        text = doc["text"]
        start = time.perf_counter()
        presidio_results = analyzer.analyze(text=text, language="en")
        times["presidio_analyze"].append(time.perf_counter() - start)
        presidio_out = anonymizer.anonymize(text=text, analyzer_results=presidio_results).text
        times["presidio_analyze_anonymize"].append(time.perf_counter() - start)
        outputs = {"presidio": presidio_out}
        spans = {"presidio": [(r.start, r.end) for r in presidio_results]}
        for name in ("combined", "regex"):
            start = time.perf_counter()
            rewritten = redact.rewrite(text, settings[name])
            times[f"{name}_redact"].append(time.perf_counter() - start)
            outputs[name] = rewritten.output
            start = time.perf_counter()
            spans[name] = [(d.start, d.end) for d in detect(text, settings[name])]
            times[f"{name}_detect"].append(time.perf_counter() - start)
        for name, output in outputs.items():
            flags = leaked_spans(doc, output)
            leaks[name].extend(flags)
            for span, flag in zip(doc["spans"], flags, strict=True):
                by_category[span["label"]][name].append(flag)
            detections[name] += len(spans[name])
            spurious_counts[name] += spurious(doc, spans[name])

    result["ms_per_doc"] = {k: 1000 * statistics.mean(v) for k, v in times.items()}
    result["ms_per_doc_p95"] = {
        k: 1000 * sorted(v)[int(0.95 * (len(v) - 1))] for k, v in times.items()
    }
    result["leak"] = {k: sum(v) / len(v) for k, v in leaks.items()}
    result["leaked_spans"] = {k: sum(v) for k, v in leaks.items()}
    result["spurious_detection_share"] = {
        k: spurious_counts[k] / detections[k] if detections[k] else 0.0 for k in detections
    }
    result["leak_by_category"] = {
        label: {
            "n": len(flags["combined"]),
            **{name: sum(flags[name]) / len(flags[name]) for name in flags},
        }
        for label, flags in sorted(by_category.items(), key=lambda kv: -len(kv[1]["combined"]))
    }
    return result


def print_table(r: dict[str, Any]) -> None:
    ms, leak = r["ms_per_doc"], r["leak"]
    print(
        f"corpus: {r['n_docs']} docs, {r['corpus_chars']:,} chars, {r['gold_spans']} gold spans"
        f" (seed {r['seed']}); Presidio load {r['presidio_load_s']:.1f} s"
    )
    print(
        f"regex detector: {r['regex']['mb_per_s']:.2f} MB/s wall-clock, "
        f"{r['regex']['mb_per_cpu_s']:.2f} MB per CPU-second "
        f"({r['regex']['ms_per_doc']:.2f} ms/doc)\n"
    )
    print(f"{'system':<36}{'detect ms/doc':>14}{'redact ms/doc':>14}{'leak':>8}{'spurious':>10}")
    rows = [
        ("combined (regex + Presidio)", "combined_detect", "combined_redact", "combined"),
        (
            "Presidio alone (analyzer+anonymizer)",
            "presidio_analyze",
            "presidio_analyze_anonymize",
            "presidio",
        ),
        ("regex only", "regex_detect", "regex_redact", "regex"),
    ]
    for title, detect_key, redact_key, name in rows:
        print(
            f"{title:<36}{ms[detect_key]:>14.1f}{ms[redact_key]:>14.1f}{leak[name]:>8.3f}"
            f"{r['spurious_detection_share'][name]:>10.3f}"
        )
    print(f"\n{'leak by category':<24}{'n':>6}{'combined':>10}{'presidio':>10}{'regex':>8}")
    for label, row in r["leak_by_category"].items():
        print(
            f"{label:<24}{row['n']:>6}{row['combined']:>10.3f}{row['presidio']:>10.3f}"
            f"{row['regex']:>8.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.detection_bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--n", type=int, default=600, help="documents (default 600)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("bench/results/detection.json"))
    args = parser.parse_args(argv)
    result = run(args.n, args.seed)
    print_table(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
