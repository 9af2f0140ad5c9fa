"""Fixtures for the token sanitizer tests: a small deterministic embedder and a private cache."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pytest

from anonymizer.token_dp import candidates


class TrigramEmbedder:
    """Hashed character trigrams, unit norm: similar strings get nearby vectors. Fast."""

    name = "test-trigram-32"

    def __init__(self, dim: int = 32) -> None:
        self.dim = dim
        self.calls = 0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        out = np.zeros((len(texts), self.dim))
        for i, text in enumerate(texts):
            padded = f"  {text.lower()}  "
            for j in range(len(padded) - 2):
                digest = hashlib.blake2b(padded[j : j + 3].encode(), digest_size=4).digest()
                out[i, int.from_bytes(digest, "little") % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms > 0, norms, 1.0)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """Every test gets its own on-disk candidate cache and an empty in-memory one."""
    monkeypatch.setenv("ANONYMIZER_CACHE_DIR", str(tmp_path / "cache"))
    candidates.clear_memory_cache()
    yield
    candidates.clear_memory_cache()


@pytest.fixture
def embedder() -> TrigramEmbedder:
    return TrigramEmbedder()
