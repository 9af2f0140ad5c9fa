"""The NER's CPU with spaCy's own parse against `ner_decode.GreedyNerDecoder`, side by side.

    python -m bench.ner_decode_speed [--rounds 5] [--sets dev-hand-open,dev-hand-hard]

Both run the shipped weights on the same tokenized documents (batches of `BATCH_SIZE`, NumPy
gemm on one BLAS thread, as `learned.py` runs them); rounds alternate between the two so machine
load hits both alike, and the figure to read is the ratio of their median CPU seconds. The
entities of both are compared and must be identical.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

DEFAULT_SETS = "dev-hand-open,dev-hand-open2,dev-hand-hard,dev-corpus"


def _texts(sets: str) -> list[str]:
    from anonymizer.detection.long_pieces import split_long_pieces
    from bench.detection_bench import load_set

    texts = []
    for name in sets.split(","):
        docs, _ = load_set(name, 300)
        texts += [split_long_pieces(d["text"]) for d in docs]
    return texts


def _spacy_parse(nlp: Any, docs: list[Any]) -> list[list[tuple]]:
    from anonymizer.detection.learned import BATCH_SIZE

    ner = nlp.get_pipe("ner")
    return [
        [(e.start, e.end, e.label_) for e in doc.ents]
        for doc in ner.pipe(docs, batch_size=BATCH_SIZE)
    ]


def _decoder(nlp: Any) -> Callable[[Any, list[Any]], list[list[tuple]]]:
    from anonymizer.detection.learned import BATCH_SIZE
    from anonymizer.detection.ner_decode import GreedyNerDecoder

    decoder = GreedyNerDecoder(nlp.get_pipe("ner"))

    def decode(_: Any, docs: list[Any]) -> list[list[tuple]]:
        out: list[list[tuple]] = []
        for start in range(0, len(docs), BATCH_SIZE):
            out += decoder.entities(docs[start : start + BATCH_SIZE])
        return out

    return decode


def main(argv: list[str] | None = None) -> int:
    from anonymizer.detection.fast_ops import one_blas_thread
    from anonymizer.detection.learned import load_pipeline

    parser = argparse.ArgumentParser(prog="python -m bench.ner_decode_speed")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sets", default=DEFAULT_SETS)
    args = parser.parse_args(argv)
    nlp = load_pipeline()
    texts = _texts(args.sets)
    ways = {"spaCy's parse": _spacy_parse, "GreedyNerDecoder": _decoder(nlp)}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    found: dict[str, list[list[tuple]]] = {}
    with one_blas_thread():
        for _ in range(args.rounds):
            for name, run in ways.items():
                docs = [nlp.make_doc(t) for t in texts]  # fresh docs: no entities set yet
                start = time.process_time()
                found[name] = run(nlp, docs)
                cpu[name].append(time.process_time() - start)
    tokens = sum(len(nlp.make_doc(t)) for t in texts)
    base = statistics.median(cpu["spaCy's parse"])
    print(f"{len(texts)} documents ({args.sets}), {tokens:,} tokens, {args.rounds} rounds")
    for name, seconds in cpu.items():
        median = statistics.median(seconds)
        print(f"  {name:18} median {median:.3f} CPU-s  ({median / base:.2f} of spaCy's parse)")
    same = found["spaCy's parse"] == found["GreedyNerDecoder"]
    entities = sum(map(len, found["spaCy's parse"]))
    print(f"  entities: {entities:,}, identical: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
