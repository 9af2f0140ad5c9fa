"""The real all-MiniLM-L6-v2 from its PyPI package, with small candidate sets (a few seconds)."""

from __future__ import annotations

import numpy as np
import pytest

import anonymizer
from anonymizer.token_dp.candidates import cache_dir, generate_strings
from anonymizer.token_dp.embedding import MiniLMEmbedder
from anonymizer.token_dp.sampling import pairwise_distances, santext_log_probs
from anonymizer.types import Detection

pytestmark = pytest.mark.slow


def test_santext_with_minilm_replaces_a_name_by_a_name_and_keeps_the_rest() -> None:
    text = "Please ask Margaret Thornton (m.thornton@example.com) about the invoice."
    start = text.index("Margaret")
    gold = [
        Detection(start, start + len("Margaret Thornton"), "full person name", "[PERSON]", "gold")
    ]
    mechanism = anonymizer.registry.get_mechanism("santext")
    settings = anonymizer.Settings(
        mechanism="santext",
        detector="gold",
        deny_list=(),
        candidates_per_category=40,
        epsilon=1.0,
    )
    result = mechanism.rewrite(text, settings, gold=gold)  # type: ignore[call-arg]
    name = result.spans[1]
    assert name.is_pii and name.category == "full person name"
    assert name.rewritten in set(generate_strings("full person name", 40))  # public only
    assert result.output.startswith("Please ask ")
    assert result.output.endswith(" (m.thornton@example.com) about the invoice.")
    assert result.receipt.models["token_embedder"].startswith("sentence-transformers/all-MiniLM")
    assert result.receipt.notion == ("eps-metric-LDP per token (Euclidean, all-MiniLM-L6-v2 space)")
    assert any(
        p.name.startswith("full-person-name__n40__seed0__all-minilm-l6-v2")
        for p in cache_dir().glob("*.npz")
    )


def test_minilm_embeddings_are_unit_norm_and_santext_stays_within_eps_d() -> None:
    names = generate_strings("full person name", 25)
    emb = MiniLMEmbedder().encode([*names, "Margaret Thornton"])
    assert emb.shape == (26, 384)
    np.testing.assert_allclose(np.linalg.norm(emb, axis=1), 1.0, atol=1e-5)
    d = pairwise_distances(emb, emb)
    log_probs = santext_log_probs(d, 4.0)
    off = ~np.eye(len(emb), dtype=bool)
    ratios = np.abs(log_probs[:, None, :] - log_probs[None, :, :]).max(axis=2)[off] / d[off]
    assert ratios.max() <= 4.0 + 1e-9
