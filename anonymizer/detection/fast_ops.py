"""Faster matrix products for a spaCy model on CPU: NumPy's BLAS on one thread.

thinc's CPU `gemm` (BLIS) multiplies the NER's layer shapes at about 35 GFLOP per
CPU-second on this machine, NumPy's OpenBLAS at about 85 on one thread (more threads only
spin on a shared CPU). The products differ from BLIS's in float rounding only (~1e-5),
which changed no entity on the development sets (`tests/anonymizer/detection/test_fast_ops.py`
checks that). Imported lazily, with the model.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from functools import cache
from typing import Any

import numpy as np
from thinc.api import Model, NumpyOps


class NumpyGemmOps(NumpyOps):
    """thinc's NumPy operations with `gemm` done by `numpy.matmul` for 2-D float32 arrays."""

    name = "numpy-gemm"

    def gemm(
        self,
        x: Any,
        y: Any,
        out: Any = None,
        trans1: bool = False,
        trans2: bool = False,
    ) -> Any:
        if x.ndim != 2 or y.ndim != 2 or x.dtype != np.float32 or y.dtype != np.float32:
            return super().gemm(x, y, out=out, trans1=trans1, trans2=trans2)
        return np.matmul(x.T if trans1 else x, y.T if trans2 else y, out=out)


def use_numpy_gemm(model: Model) -> None:
    """Make every layer of `model` multiply with `NumpyGemmOps` (weights untouched)."""
    ops = NumpyGemmOps()
    for node in model.walk():
        node.ops = ops


@cache
def _blas_controller() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """NumPy's BLAS limited to one thread while the block runs."""
    with _blas_controller().limit(limits=1, user_api="blas"):
        yield
