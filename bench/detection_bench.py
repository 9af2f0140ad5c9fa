"""Detection benchmark, per evaluation set: leak, span P/R/F2, per-category recall, speed.

Sets (each reported on its own; see `bench.dev_sets`):
- `train`: a sample of the NER model's training corpus (what it was fitted to);
- `dev-synth`: the training generator with a held-out seed;
- `dev-corpus`: `bench.corpus`, a different generator the model never saw;
- `dev-hand`: `bench/dev/handwritten.txt`, written by hand for development;
- `dev-hand-blind`: `bench/dev/handwritten_blind.txt`, written after the last tuning change;
- `dev-hand-hard`: `bench/dev/handwritten_hard.txt`, 40 documents in other genres, annotated
  without reading the rules (`bench/dev_hard/`);
- `dev-hand-wild`, `dev-hand-wild-blind`: `bench/dev/handwritten_wild.txt` and
  `handwritten_wild_blind.txt`, about 50 documents written from scratch by an annotator who
  read neither the detector nor the frozen data (`bench/dev_wild/`); the blind one is for
  aggregate figures only (never look at its misses);
- `dev-hand-fresh`: `bench/dev/handwritten_fresh.txt`, written last, from scratch, by an
  annotator who read neither the detector nor any other data (`bench/dev_fresh/`); aggregate
  only, never used to choose between changes: measured once, at the end;
- `dev-hand-fresh2`: `bench/dev/handwritten_fresh2.txt`, the same kind of set written in
  session 7 by another annotator (`bench/dev_fresh2/`), same rules;
- `dev-hand-open`: `bench/dev/handwritten_open.txt`, written in session 12 by four annotators
  who read neither the detector nor any other data (`bench/dev_open/`), for error analysis;
  `dev-hand-open2` (session 12) and `dev-hand-open3` (session 13) are sets of the same kind
  (`bench/dev_open2/`, `bench/dev_open3/`), each measured once before it was studied;
- `dev-presidio`: 600 sentences from presidio-evaluator's PresidioSentenceFaker (Microsoft's
  templates and value sources, a third party's generator) on half of its templates
  (`bench/third_party/`), for error analysis;
- `dev-long`: 16 documents of 10-60 kB, dev-corpus and dev-hand(-hard) documents joined end
  to end (`bench.dev_sets.long_dev`): the long-document case of the speed comparison;
- `frozen-hand`, `frozen-independent`, `frozen-presidio`: `bench/frozen/handwritten.jsonl`,
  `independent.jsonl` and `presidio_faker.jsonl` (1,000 sentences of the same third-party
  generator on the other half of its templates), loaded through `bench.loaders` and reported
  only as aggregate figures (skipped with a note when the files are not there). Nothing was
  tuned on them; they are run only to report.

Leak is reported twice: the substring leak (the seed's metric) and the span-coverage leak
("uncovered": gold spans no detection overlaps), which does not count a short gold string
such as "Will" as leaked because the verb "will" stays in the text.

Systems: the default detector (`combined`: rules + fine-tuned NER + context), Presidio's
AnalyzerEngine (offline, en_core_web_sm; its output redacted with its own AnonymizerEngine),
and the regex rules alone. Metrics (`anonymizer.metrics`): leak = share of gold surface
strings still present in the redacted text (case-insensitive); span precision / recall / F2
at IoU >= 0.5 and >= 0.7 (presidio-research's method); recall per gold category at IoU 0.5.
Speed: docs/s and total CPU-seconds of the default detector (batched, and one document at a
time), of Presidio and of the regex rules on the same documents, timed side by side in this
run; the ratio to Presidio is what to read (absolute figures move with the machine's load).
The largest document (2 MB, over 1,000,000 characters) runs in a child process that reports
its time and peak RSS. The regex rules' throughput is given in MB per CPU-second
(`time.process_time`); `python -m bench.regex_speed --against main` times the engine against
another revision's in one process and checks that both find the same spans.

    python -m bench.detection_bench                      # every set
    python -m bench.detection_bench --sets dev-hand,dev-corpus --no-large
    python -m bench.detection_bench --sets dev-hand-hard,dev-long --no-large --rounds 3  # speed
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from anonymizer import metrics
from anonymizer.detection import apply_lists
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.types import Detection

RESULTS = Path(__file__).resolve().parent / "results"
FROZEN = Path(__file__).resolve().parent / "frozen"
SETS = (
    "train",
    "dev-synth",
    "dev-corpus",
    "dev-hand",
    "dev-hand-blind",
    "dev-hand-hard",
    "dev-hand-wild",
    "dev-hand-wild-blind",
    "dev-hand-fresh",
    "dev-hand-fresh2",
    "dev-hand-open",
    "dev-hand-open2",
    "dev-hand-open3",
    "dev-hand-open4",
    "dev-hand-open5",
    "dev-hand-open6",
    "dev-presidio",
    "dev-long",
    "frozen-hand",
    "frozen-independent",
    "frozen-presidio",
)
SYSTEMS = ("combined", "presidio", "regex")
# Sets scored for aggregate figures only: their misses are never listed (nothing is tuned on them).
AGGREGATE_ONLY = (
    "dev-hand-blind",
    "dev-hand-wild-blind",
    "dev-hand-fresh",
    "dev-hand-fresh2",
    "frozen-hand",
    "frozen-independent",
    "frozen-presidio",
)
LARGE_DOC_BYTES = 2_000_000
# Hand-written sets read from `bench/dev/` (skipped with a note when the file is missing): the
# `bench.dev_sets` constant that holds each one's path.
HANDWRITTEN_FILES = {
    "dev-hand-wild": "HANDWRITTEN_WILD",
    "dev-hand-wild-blind": "HANDWRITTEN_WILD_BLIND",
    "dev-hand-fresh": "HANDWRITTEN_FRESH",
    "dev-hand-fresh2": "HANDWRITTEN_FRESH2",
    "dev-hand-open": "HANDWRITTEN_OPEN",
    "dev-hand-open2": "HANDWRITTEN_OPEN2",
    "dev-hand-open3": "HANDWRITTEN_OPEN3",
    "dev-hand-open4": "HANDWRITTEN_OPEN4",
    "dev-hand-open5": "HANDWRITTEN_OPEN5",
    "dev-hand-open6": "HANDWRITTEN_OPEN6",
}


def load_set(name: str, n: int) -> tuple[list[dict[str, Any]] | None, str]:
    """(documents or None, a note on where they come from / why they are missing)."""
    from bench import dev_sets

    if name == "train":
        return dev_sets.training_sample(
            n
        ), f"training corpus sample (seed {dev_sets.TRAINING_SEED})"
    if name == "dev-synth":
        return dev_sets.synthetic_heldout(
            n
        ), f"training generator, held-out seed {dev_sets.HELDOUT_SEED}"
    if name == "dev-corpus":
        return dev_sets.corpus_dev(n), f"bench.corpus, seed {dev_sets.CORPUS_SEED}"
    if name == "dev-hand":
        return dev_sets.handwritten_dev(), "bench/dev/handwritten.txt"
    if name == "dev-hand-blind":
        return dev_sets.handwritten_dev(
            dev_sets.HANDWRITTEN_BLIND
        ), "bench/dev/handwritten_blind.txt"
    if name == "dev-hand-hard":
        return dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD), "bench/dev/handwritten_hard.txt"
    if name in HANDWRITTEN_FILES:
        path = getattr(dev_sets, HANDWRITTEN_FILES[name])
        if not path.is_file():
            return None, f"bench/dev/{path.name} not found: skipped"
        return dev_sets.handwritten_dev(path), f"bench/dev/{path.name}"
    if name == "dev-long":
        return dev_sets.long_dev(), "dev-corpus and dev-hand(-hard) documents joined to 10-60 kB"
    if name == "dev-presidio":
        from bench.loaders import load_corpus
        from bench.third_party.presidio_faker import OUTPUTS

        return load_corpus(OUTPUTS["dev"]), "presidio-evaluator's generator, dev templates"
    frozen = {
        "frozen-hand": "handwritten.jsonl",
        "frozen-independent": "independent.jsonl",
        "frozen-presidio": "presidio_faker.jsonl",
    }
    if name not in frozen:  # never a fallback: a misspelt set name must not read a frozen set
        raise ValueError(f"unknown evaluation set {name!r}; the sets are {', '.join(SETS)}")
    path = FROZEN / frozen[name]
    if not path.is_file():
        return None, f"{path.relative_to(FROZEN.parent.parent)} not found: skipped"
    from bench.loaders import load_corpus

    return load_corpus(path), str(path.relative_to(FROZEN.parent.parent))


def redact(text: str, detections: Sequence[Detection]) -> str:
    """The text with every (overlap-resolved) detection replaced by its placeholder."""
    out, last = [], 0
    for d in resolve_overlaps(list(detections)):
        out.append(text[last : d.start])
        out.append(d.placeholder)
        last = d.end
    out.append(text[last:])
    return "".join(out)


class Systems:
    """The detectors under test, loaded once and warmed up."""

    def __init__(self) -> None:
        from presidio_anonymizer import AnonymizerEngine

        from anonymizer.detection import get_detector, warm_up
        from anonymizer.detection.presidio import PresidioDetector, analyzer_engine

        started = time.perf_counter()
        self.combined = get_detector("combined")
        warm_up(self.combined)  # as the web and worker processes do before their first job
        self.load_s = {"combined": time.perf_counter() - started}
        started = time.perf_counter()
        self.analyzer = analyzer_engine()
        self.presidio = PresidioDetector(self.analyzer)
        self.anonymizer = AnonymizerEngine()
        self.presidio.detect("Warm-up: Jane Doe called 415-555-0188 from Boston.")
        self.load_s["presidio"] = time.perf_counter() - started
        self.regex = get_detector("regex")
        warm_up(self.regex)

    rounds = 1  # timed rounds per set

    def run(self, docs: list[dict[str, Any]]) -> dict[str, Any]:
        """Every system on the documents, `rounds` times in turn (the fastest round of each
        is kept, so a burst of load on a shared machine skews the ratio less)."""
        texts = [d["text"] for d in docs]
        clocks: dict[str, tuple[float, float]] = {}

        def timed(name: str, work: Callable[[], Any]) -> Any:
            wall, cpu = time.perf_counter(), time.process_time()
            out = work()
            took = (time.perf_counter() - wall, time.process_time() - cpu)
            best = clocks.get(name, took)
            clocks[name] = (min(best[0], took[0]), min(best[1], took[1]))
            return out

        for _ in range(self.rounds):
            combined = timed("combined (batched)", lambda: self.combined.detect_many(texts))
            timed("combined (one at a time)", lambda: [self.combined.detect(t) for t in texts])
            presidio_raw = timed(
                "presidio AnalyzerEngine",
                lambda: [self.analyzer.analyze(text=t, language="en") for t in texts],
            )
            regex = timed("regex", lambda: [self.regex.detect(t) for t in texts])
        from anonymizer.detection.presidio import to_detection

        presidio = [
            [d for d in (to_detection(t, r) for r in raw) if d is not None]
            for t, raw in zip(texts, presidio_raw, strict=True)
        ]
        outputs = {
            "combined": [
                redact(t, apply_lists(t, f)) for t, f in zip(texts, combined, strict=True)
            ],
            "presidio": [
                self.anonymizer.anonymize(text=t, analyzer_results=raw).text
                for t, raw in zip(texts, presidio_raw, strict=True)
            ],
            "regex": [redact(t, f) for t, f in zip(texts, regex, strict=True)],
        }
        predictions = {
            "combined": [resolve_overlaps(f) for f in combined],
            "presidio": [resolve_overlaps(f) for f in presidio],
            "regex": [resolve_overlaps(f) for f in regex],
        }
        return {
            "chars": sum(map(len, texts)),
            "cpu_seconds": {name: cpu for name, (_, cpu) in clocks.items()},
            "docs_per_s": {name: len(texts) / wall for name, (wall, _) in clocks.items()},
            "docs_per_cpu_s": {name: len(texts) / cpu for name, (_, cpu) in clocks.items()},
            "systems": {name: score(docs, outputs[name], predictions[name]) for name in SYSTEMS},
            "_predictions": predictions["combined"],
        }


def score(
    docs: list[dict[str, Any]], outputs: list[str], predictions: list[list[Detection]]
) -> dict[str, Any]:
    """Leak, span scores at IoU 0.5 / 0.7 and per-category recall for one system."""
    gold = [d["spans"] for d in docs]
    surfaces = [[d["text"][s["start"] : s["end"]] for s in d["spans"]] for d in docs]
    leaked, total = metrics.leak_counts(outputs, surfaces)
    result: dict[str, Any] = {"leak": leaked / total if total else None, "leaked": leaked}
    result["uncovered"] = uncovered_share(docs, predictions)
    for iou in (0.5, 0.7):
        s = metrics.span_scores(predictions, gold, iou=iou)
        result[f"iou{iou}"] = {"precision": s.precision, "recall": s.recall, "f2": s.f2}
    result["recall_by_category"] = category_recall(docs, predictions)
    return result


def uncovered_share(docs: list[dict[str, Any]], predictions: list[list[Detection]]) -> float:
    """Span-coverage leak: the share of gold spans that no detection overlaps at all.

    Unlike the substring leak it does not count a short gold string ("Will") as leaked
    because the same letters occur elsewhere in the output ("will")."""
    missed = total = 0
    for doc, pred in zip(docs, predictions, strict=True):
        for g in doc["spans"]:
            total += 1
            missed += not any(p.start < g["end"] and g["start"] < p.end for p in pred)
    return missed / total if total else 0.0


def category_recall(
    docs: list[dict[str, Any]], predictions: list[list[Detection]], iou: float = 0.5
) -> dict[str, dict[str, Any]]:
    """Per gold category: share of its spans covered (any predicted label) at IoU >= `iou`."""
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for doc, pred in zip(docs, predictions, strict=True):
        spans = [(p.start, p.end) for p in pred]
        for g in doc["spans"]:
            total[g["label"]] += 1
            touching = [s for s in spans if s[0] < g["end"] and g["start"] < s[1]]
            if touching and metrics.covered_iou((g["start"], g["end"]), touching) >= iou:
                found[g["label"]] += 1
    return {label: {"n": n, "recall": found[label] / n} for label, n in total.most_common()}


def misses(docs: list[dict[str, Any]], predictions: list[list[Detection]]) -> Counter[str]:
    """Gold spans not covered at IoU 0.5, as 'category: surface' (for development sets)."""
    missed: Counter[str] = Counter()
    for doc, pred in zip(docs, predictions, strict=True):
        spans = [(p.start, p.end) for p in pred]
        for g in doc["spans"]:
            touching = [s for s in spans if s[0] < g["end"] and g["start"] < s[1]]
            if not touching or metrics.covered_iou((g["start"], g["end"]), touching) < 0.5:
                missed[f"{g['label']}: {doc['text'][g['start'] : g['end']]}"] += 1
    return missed


def regex_throughput(texts: list[str], min_bytes: int = LARGE_DOC_BYTES) -> dict[str, float]:
    """The regex rules over the texts repeated to `min_bytes`: MB per CPU-second and per s."""
    from anonymizer.detection.regex import RegexDetector

    detector = RegexDetector()
    blob = "\n\n".join(texts)
    blob = "\n\n".join([blob] * max(1, -(-min_bytes // len(blob.encode()))))
    size = len(blob.encode())
    detector.warm_up()  # as each worker child does at start (Hyperscan databases compiled)
    detector.detect(blob[:10_000])
    started, cpu = time.perf_counter(), time.process_time()
    detector.detect(blob)
    cpu = time.process_time() - cpu
    return {
        "bytes": size,
        "cpu_seconds": cpu,
        "mb_per_cpu_s": size / 1e6 / cpu,
        "mb_per_s": size / 1e6 / (time.perf_counter() - started),
    }


LARGE_DOC_SCRIPT = """
import json, resource, sys, time
from anonymizer.detection import get_detector
from bench.detection_bench import large_document
text = large_document(int(sys.argv[1]))
detector = get_detector("combined")
start = time.perf_counter()
found = detector.detect(text)
elapsed = time.perf_counter() - start
print(json.dumps({"chars": len(text), "bytes": len(text.encode()), "seconds": elapsed,
                  "detections": len(found),
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def large_document(size_bytes: int) -> str:
    """A document of about `size_bytes` UTF-8 bytes made of development-corpus documents."""
    from bench.dev_sets import corpus_dev

    docs = [d["text"] for d in corpus_dev(200)]
    parts, size, i = [], 0, 0
    while size < size_bytes:
        parts.append(docs[i % len(docs)])
        size += len(docs[i % len(docs)].encode()) + 2
        i += 1
    return "\n\n".join(parts)


def largest_document(size_bytes: int = LARGE_DOC_BYTES) -> dict[str, Any]:
    """Time and peak RSS of the default detector on one large document, in a fresh process
    (the RSS includes loading the model)."""
    done = subprocess.run(
        [sys.executable, "-c", LARGE_DOC_SCRIPT, str(size_bytes)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(
    sets: Sequence[str], n: int, large: bool, top_misses: int, rounds: int = 1
) -> dict[str, Any]:
    systems = Systems()
    systems.rounds = rounds
    result: dict[str, Any] = {"load_seconds": systems.load_s, "sets": {}}
    all_texts: list[str] = []
    for name in sets:
        docs, note = load_set(name, n)
        if docs is None:
            result["sets"][name] = {"skipped": note}
            print(f"{name}: {note}", file=sys.stderr)
            continue
        print(f"{name}: {len(docs)} documents ({note})", file=sys.stderr, flush=True)
        run_result = systems.run(docs)
        predictions = run_result.pop("_predictions")
        entry = {
            "source": note,
            "n_docs": len(docs),
            "n_gold": sum(len(d["spans"]) for d in docs),
            **run_result,
        }
        if name not in AGGREGATE_ONLY and top_misses:
            entry["top_misses"] = misses(docs, predictions).most_common(top_misses)
        result["sets"][name] = entry
        if not name.startswith("frozen") and name != "dev-long":  # dev-long repeats the others
            all_texts.extend(d["text"] for d in docs)
    if all_texts:
        result["regex_throughput"] = regex_throughput(all_texts)
    if large:
        result["largest_document"] = largest_document()
    return result


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def markdown(result: dict[str, Any]) -> str:
    lines = ["# Detection benchmark", "", "Produced by `python -m bench.detection_bench`.", ""]
    lines += [
        "| set | system | leak ↓ | uncovered ↓ | P@0.5 | R@0.5 | F2@0.5 | P@0.7 | R@0.7 | F2@0.7 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, entry in result["sets"].items():
        if "skipped" in entry:
            lines.append(f"| {name} | ({entry['skipped']}) | | | | | | | | |")
            continue
        for system, s in entry["systems"].items():
            a, b = s["iou0.5"], s["iou0.7"]
            scores = [a["precision"], a["recall"], a["f2"], b["precision"], b["recall"], b["f2"]]
            lines.append(
                f"| {name} ({entry['n_docs']} docs, {entry['n_gold']} spans) | {system} | "
                f"{_fmt(s['leak'])} | {_fmt(s['uncovered'])} | "
                + " | ".join(map(_fmt, scores))
                + " |"
            )
    lines += [
        "",
        "## Speed (documents per second, side by side in one run)",
        "",
        "Wall-clock docs/s, and in brackets docs per CPU-second (`time.process_time`), which",
        "other processes on a shared machine disturb less. Ratio = default detector (batched)",
        "over Presidio's AnalyzerEngine on the same documents. CPU-s: total CPU-seconds of the",
        "batched default detector, Presidio and the regex rules alone on the whole set.",
        "",
        "| set | kB | combined, batched | combined, one at a time | Presidio | ratio "
        "| ratio (CPU) | CPU-s: combined / Presidio / regex |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, entry in result["sets"].items():
        if "skipped" in entry:
            continue
        wall, cpu = entry["docs_per_s"], entry["docs_per_cpu_s"]
        ours, one, theirs = (
            "combined (batched)",
            "combined (one at a time)",
            "presidio AnalyzerEngine",
        )
        seconds = entry.get("cpu_seconds", {})
        cpu_s = " / ".join(f"{seconds[k]:.1f}" for k in (ours, theirs, "regex") if k in seconds)
        lines.append(
            f"| {name} | {entry.get('chars', 0) / 1000:.0f} | {wall[ours]:.1f} ({cpu[ours]:.1f}) "
            f"| {wall[one]:.1f} ({cpu[one]:.1f}) | {wall[theirs]:.1f} ({cpu[theirs]:.1f}) | "
            f"{wall[ours] / wall[theirs]:.2f}× | {cpu[ours] / cpu[theirs]:.2f}× | {cpu_s} |"
        )
    if "regex_throughput" in result:
        r = result["regex_throughput"]
        lines += [
            "",
            f"Regex rules: {r['mb_per_cpu_s']:.2f} MB per CPU-second ({r['bytes']:,} bytes of the "
            f"development sets' documents joined, {r['cpu_seconds']:.2f} CPU-s). Old against new "
            "engine, side by side: `python -m bench.regex_speed --against main`.",
        ]
    if "largest_document" in result:
        r = result["largest_document"]
        lines += [
            "",
            f"Largest document: {r['chars']:,} characters ({r['bytes']:,} bytes) in "
            f"{r['seconds']:.1f} s, peak RSS {r['peak_rss_mb']:.0f} MB (model load included), "
            f"{r['detections']:,} detections.",
        ]
    lines += ["", "## Recall by category (default detector, IoU ≥ 0.5)", ""]
    for name, entry in result["sets"].items():
        if "skipped" in entry:
            continue
        cats = entry["systems"]["combined"]["recall_by_category"]
        lines.append(
            f"- **{name}**: "
            + ", ".join(f"{k} {v['recall']:.2f} (n={v['n']})" for k, v in cats.items())
        )
    dev_misses = [(n, e["top_misses"]) for n, e in result["sets"].items() if e.get("top_misses")]
    if dev_misses:
        lines += ["", "## Most common misses on the development sets (default detector)", ""]
        for name, found in dev_misses:
            lines.append(f"- **{name}**: " + "; ".join(f"{m} ×{c}" for m, c in found))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    from anonymizer.detection.training import run_with_fixed_hash_seed

    run_with_fixed_hash_seed("bench.detection_bench", argv)  # generated sets: same every run
    parser = argparse.ArgumentParser(
        prog="python -m bench.detection_bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated from {SETS}")
    parser.add_argument("--n", type=int, default=300, help="documents per generated set")
    parser.add_argument("--no-large", action="store_true", help="skip the 2 MB document")
    parser.add_argument(
        "--rounds", type=int, default=1, help="timed rounds per set, in turn (fastest kept)"
    )
    parser.add_argument("--misses", type=int, default=10, help="top misses per non-blind dev set")
    parser.add_argument("--out", type=Path, default=RESULTS / "detection.json")
    args = parser.parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = set(sets) - set(SETS)
    if unknown:
        parser.error(f"unknown sets {sorted(unknown)}")
    result = run(sets, args.n, not args.no_large, args.misses, args.rounds)
    text = markdown(result)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(text, encoding="utf-8")
    print(f"wrote {args.out} and {args.out.with_suffix('.md')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
