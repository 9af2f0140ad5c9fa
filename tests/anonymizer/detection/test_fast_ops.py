"""NumPy's matrix product for the NER: same products as thinc's BLIS up to rounding, one BLAS
thread while it runs, and the same entities on the development documents."""

from __future__ import annotations

import numpy as np
import pytest
from thinc.api import NumpyOps
from threadpoolctl import threadpool_info

from anonymizer.detection import learned
from anonymizer.detection.fast_ops import NumpyGemmOps, one_blas_thread
from anonymizer.detection.learned import LearnedNerDetector
from bench import dev_sets


@pytest.mark.parametrize(("trans1", "trans2"), [(False, False), (True, False), (False, True)])
def test_numpy_gemm_gives_blis_s_products(trans1: bool, trans2: bool) -> None:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((40, 30) if not trans1 else (30, 40), dtype=np.float32)
    y = rng.standard_normal((30, 20) if not trans2 else (20, 30), dtype=np.float32)
    ours = NumpyGemmOps().gemm(x, y, trans1=trans1, trans2=trans2)
    blis = NumpyOps().gemm(x, y, trans1=trans1, trans2=trans2)
    assert ours.dtype == np.float32 and ours.shape == (40, 20)
    np.testing.assert_allclose(ours, blis, rtol=1e-5, atol=1e-4)
    out = np.zeros((40, 20), dtype=np.float32)
    assert NumpyGemmOps().gemm(x, y, out=out, trans1=trans1, trans2=trans2) is out
    np.testing.assert_allclose(out, blis, rtol=1e-5, atol=1e-4)


def test_blas_runs_on_one_thread_inside_the_block_only() -> None:
    def blas_threads() -> set[int]:
        return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}

    before = blas_threads()
    with one_blas_thread():
        assert blas_threads() == {1}
    assert blas_threads() == before


def entities(detector: LearnedNerDetector, texts: list[str]) -> list[list[tuple]]:
    return [
        sorted((d.start, d.end, d.rule_id) for d in found) for found in detector.all_many(texts)
    ]


def test_the_ner_finds_the_same_entities_as_with_thinc_s_own_products() -> None:
    blis_nlp = learned._build_pipeline()
    for node in blis_nlp.get_pipe("ner").model.walk():
        node.ops = NumpyOps()
    blis = LearnedNerDetector()
    blis.__dict__["nlp"] = blis_nlp  # the cached property, set to the BLIS pipeline
    fast = LearnedNerDetector()
    assert isinstance(fast.nlp.get_pipe("ner").model.ops, NumpyGemmOps)
    docs = (
        dev_sets.handwritten_dev()
        + dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD)
        + dev_sets.corpus_dev(60)
    )
    texts = [d["text"] for d in docs] + ["\n\n".join(d["text"] for d in docs)]
    found = entities(fast, texts)
    assert sum(map(len, found)) > 1000
    assert found == entities(blis, texts)
