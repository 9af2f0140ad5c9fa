"""The NER with and without the trimmed lexical attributes (`learned.keep_only_read_lexical_
attributes`), side by side: every entity compared, and the CPU time of each.

    python -m bench.ner_vocab_trim [--sets dev-corpus,dev-long] [--rounds 3]

Each round builds both pipelines afresh (an empty vocabulary, as in a new worker process),
runs the learned detector over every document of a set twice (cold: every word new to the
vocabulary; warm: the same text again) in alternating order, and checks that both variants
find exactly the same entities (offsets, categories, NER labels, PII or not). Speed is the median
CPU time (`time.process_time`) of the trimmed pipeline over the full one: a ratio, not seconds.
On a loaded machine that ratio moves by +-10 % between runs, more than the saving, so each round
also times the part that changes on its own: making the lexemes of the set's distinct words in
a fresh vocabulary (`lexemes`), reported as a ratio and as the share of the full pipeline's
cold-pass CPU it saves (`saved`).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

SETS = ("dev-corpus", "dev-hand", "dev-hand-hard", "dev-hand-wild", "dev-long")
VARIANTS = ("full", "trimmed")


def detector(trimmed: bool) -> Any:
    """The learned detector over a freshly built pipeline, vocabulary trimmed or not."""
    from anonymizer.detection.learned import LearnedNerDetector, _build_pipeline

    found = LearnedNerDetector()
    found.nlp = _build_pipeline(trim_vocab=trimmed)  # instead of the process-wide pipeline
    return found


def entities(found: list[list[Any]]) -> list[list[tuple[Any, ...]]]:
    return [[(d.start, d.end, d.category, d.source, d.rule_id) for d in doc] for doc in found]


def timed(variant: str, texts: list[str]) -> tuple[float, float, list[list[tuple[Any, ...]]]]:
    """(cold CPU s, warm CPU s, entities of the cold pass) for one fresh pipeline."""
    ner = detector(variant == "trimmed")
    start = time.process_time()
    cold = ner.all_many(texts)
    mid = time.process_time()
    warm = ner.all_many(texts)
    end = time.process_time()
    if entities(warm) != entities(cold):
        raise AssertionError(f"{variant}: a second pass over the same text changed entities")
    return mid - start, end - mid, entities(cold)


def lexeme_seconds(variant: str, words: list[str]) -> float:
    """CPU seconds to make a lexeme for each of `words` in a fresh vocabulary."""
    vocab = detector(variant == "trimmed").nlp.vocab
    start = time.process_time()
    for word in words:
        vocab[word]
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    from bench.detection_bench import load_set

    parser = argparse.ArgumentParser(prog="python -m bench.ner_vocab_trim")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    header = f"{'set':14} {'docs':>5} {'entities':>8} {'equal':>6} {'words':>6}"
    print(f"{header} {'cold ratio':>10} {'warm ratio':>10} {'lexemes':>8} {'saved':>6}")
    for name in args.sets.split(","):
        if name.startswith("frozen") or name.startswith("dev-hand-fresh"):
            raise SystemExit(f"{name} is run by the lead only")
        docs, _ = load_set(name, 200)
        if docs is None:
            continue
        texts = [d["text"] for d in docs]
        words = sorted({t.text for doc in detector(False).nlp.tokenizer.pipe(texts) for t in doc})
        lexemes: dict[str, list[float]] = {v: [] for v in VARIANTS}
        cold: dict[str, list[float]] = {v: [] for v in VARIANTS}
        warm: dict[str, list[float]] = {v: [] for v in VARIANTS}
        found: dict[str, list[list[tuple[Any, ...]]]] = {}
        for n in range(args.rounds):
            for variant in VARIANTS if n % 2 == 0 else VARIANTS[::-1]:
                lexemes[variant].append(lexeme_seconds(variant, words))
                c, w, ents = timed(variant, texts)
                cold[variant].append(c)
                warm[variant].append(w)
                if found.setdefault(variant, ents) != ents:
                    raise AssertionError(f"{variant}: entities differ between rounds on {name}")
        equal = found["full"] == found["trimmed"]
        med = {v: statistics.median(lexemes[v]) for v in VARIANTS}
        print(
            f"{name:14} {len(texts):5} {sum(map(len, found['full'])):8} {str(equal):>6} "
            f"{len(words):6} "
            f"{statistics.median(cold['trimmed']) / statistics.median(cold['full']):10.3f} "
            f"{statistics.median(warm['trimmed']) / statistics.median(warm['full']):10.3f} "
            f"{med['trimmed'] / med['full']:8.3f} "
            f"{(med['full'] - med['trimmed']) / statistics.median(cold['full']):6.1%}",
            flush=True,
        )
        if not equal:
            diff = sum(a != b for a, b in zip(found["full"], found["trimmed"], strict=True))
            print(f"  {diff} documents differ", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
