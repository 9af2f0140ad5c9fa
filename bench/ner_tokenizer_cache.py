"""The default detector with and without the NER tokenizer's span cache (`learned.
cache_tokenizer_spans`), side by side: every detection compared, and the CPU time of each.

    python -m bench.ner_tokenizer_cache [--sets dev-hand-hard,dev-long] [--rounds 4]

Both `combined` detectors share the rules and are built in this process with fresh NER
pipelines (an empty vocabulary and tokenizer cache, as in a new worker child), after a third
one has read the set (so the caches of the rules and word lists are warm for both). Each round runs
`detect_many` over a whole set with each detector, in alternating order; the first round reads
every word for the first time (cold), later rounds read them again (warm, the rounds
`bench.detection_bench --rounds` keeps). Detections must be identical (offsets, categories,
scores, sources, rule ids) in every round. Speed is a ratio of CPU times (`time.process_time`):
untouched over cached, median of the warm rounds; the tokenizer alone is timed the same way.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

SETS = ("dev-corpus", "dev-hand", "dev-hand-hard", "dev-hand-wild", "dev-long")
VARIANTS = ("untouched", "cached")


def combined(cached: bool, rules: Any) -> Any:
    """The default detector over a freshly built NER pipeline, span cache on or off."""
    from anonymizer.detection.combined import CombinedDetector
    from anonymizer.detection.learned import LearnedNerDetector, _build_pipeline

    ner = LearnedNerDetector()
    ner.__dict__["nlp"] = _build_pipeline(cache_spans=cached)  # the cached property
    return CombinedDetector(rules=rules, ner=ner)


def detections(found: list[list[Any]]) -> list[list[tuple[Any, ...]]]:
    return [
        sorted((d.start, d.end, d.category, d.score, d.source, d.rule_id or "") for d in doc)
        for doc in found
    ]


def cpu_seconds(work: Any) -> tuple[float, Any]:
    start = time.process_time()
    out = work()
    return time.process_time() - start, out


def compare_set(name: str, texts: list[str], rounds: int, rules: Any) -> dict[str, Any]:
    """Per variant: detect_many CPU per round and tokenizer CPU per round; and whether every
    round of both found the same."""
    combined(True, rules).detect_many(texts)  # fills the rules' and word lists' caches
    detectors = {v: combined(v == "cached", rules) for v in VARIANTS}
    seconds: dict[str, list[float]] = {v: [] for v in VARIANTS}
    tokenizer: dict[str, list[float]] = {v: [] for v in VARIANTS}
    reference = None
    for n in range(rounds):
        for variant in VARIANTS if n % 2 == 0 else VARIANTS[::-1]:
            detector = detectors[variant]
            took, found = cpu_seconds(lambda d=detector: d.detect_many(texts))
            seconds[variant].append(took)
            tokenize = detector.ner.nlp.tokenizer
            tokenizer[variant].append(cpu_seconds(lambda t=tokenize: [t(x) for x in texts])[0])
            found = detections(found)
            if reference is None:
                reference = found
            elif found != reference:
                differ = sum(a != b for a, b in zip(found, reference, strict=True))
                raise AssertionError(f"{name}: {variant} round {n}: {differ} documents differ")
    return {
        "docs": len(texts),
        "detections": sum(map(len, reference or [])),
        "seconds": seconds,
        "tokenizer": tokenizer,
    }


def warm_ratio(times: dict[str, list[float]]) -> float:
    warm = {v: times[v][1:] or times[v] for v in VARIANTS}
    return statistics.median(warm["untouched"]) / statistics.median(warm["cached"])


def main(argv: list[str] | None = None) -> int:
    from anonymizer.detection.regex import RegexDetector
    from bench.detection_bench import load_set

    parser = argparse.ArgumentParser(prog="python -m bench.ner_tokenizer_cache")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args(argv)
    rules = RegexDetector()
    rules.warm_up()
    print(
        f"{'set':14} {'docs':>5} {'found':>6} {'identical':>9} "
        f"{'cold ratio':>10} {'warm ratio':>10} {'tokenizer warm ratio':>20} "
        f"{'warm CPU-s untouched/cached':>28}"
    )
    for name in args.sets.split(","):
        if name.startswith("frozen") or name.startswith("dev-hand-fresh"):
            raise SystemExit(f"{name} is run by the lead only")
        docs, _ = load_set(name, 300)
        if docs is None:
            continue
        result = compare_set(name, [d["text"] for d in docs], args.rounds, rules)
        seconds = result["seconds"]
        warm = {v: statistics.median(seconds[v][1:] or seconds[v]) for v in VARIANTS}
        print(
            f"{name:14} {result['docs']:5} {result['detections']:6} {'yes':>9} "
            f"{seconds['untouched'][0] / seconds['cached'][0]:10.3f} "
            f"{warm_ratio(seconds):10.3f} {warm_ratio(result['tokenizer']):20.3f} "
            f"{warm['untouched']:13.2f} / {warm['cached']:.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
