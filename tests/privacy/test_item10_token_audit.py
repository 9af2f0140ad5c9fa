"""Item 10: the token mechanisms' claims against their own sampling code.

Exact output distributions (the sanitizer's `log_probs`, which the rewrite samples from) for
many input pairs (public strings, strings outside the public set, random points of the space,
pairs straddling cluster boundaries, near-identical pairs): max_y |Δ log p| ≤ claim·dist + 1e-9
with the metric the receipt names. The broken variants live with the items they break
(test_item01: document strings in the outputs; test_item02: k = 1, document-dependent Δu).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.frequencies import frequency_pvalue
from tests.privacy.audit import audit_pairs
from tests.privacy.token_setup import (
    CATEGORY,
    OUTSIDE_NAMES,
    audited,
    document_loss,
    gold_for,
    input_pairs,
)

CONFIGURATIONS = [
    ("santext", {}),
    ("santext", {"epsilon": 16.0}),
    ("custext", {}),
    ("custext", {"n_clusters": 1}),
    ("clusant", {}),
    ("clusant", {"cluster_push": 1.25}),
    ("clusant", {"cluster_push": math.inf}),
    ("clusant", {"n_clusters": 1, "cluster_push": 1.0}),
    ("clusant", {"epsilon": 16.0, "n_clusters": 12}),
]


@pytest.mark.parametrize(("variant", "changes"), CONFIGURATIONS)
def test_item10_every_pair_stays_within_the_receipts_claim(variant, changes, embedder) -> None:  # type: ignore[no-untyped-def]
    subject = audited(variant, embedder, **changes)
    pairs = input_pairs(subject, embedder, seed=3)
    assert len(pairs) > 400
    assert audit_pairs(subject.distribution, pairs, subject.bound()) == []


@pytest.mark.parametrize(("variant", "changes"), CONFIGURATIONS[::2])
def test_item10_one_strings_output_never_depends_on_the_rest_of_the_document(  # type: ignore[no-untyped-def]
    variant, changes, embedder
) -> None:
    """Document level: changing one string costs only that string's claim."""
    subject = audited(variant, embedder, **changes)
    rng = np.random.default_rng(4)
    rest = rng.normal(size=(50, 32)) * 0.3
    changed = rng.normal(size=(2, 32))
    first, second = np.vstack([rest, changed[:1]]), np.vstack([rest, changed[1:]])
    sanitizer, public, settings = subject.sanitizer, subject.public, subject.settings
    rows_a = sanitizer.log_probs(public, first, settings)
    rows_b = sanitizer.log_probs(public, second, settings)
    assert np.array_equal(rows_a[:-1], rows_b[:-1])
    claim = subject.bound()(changed[0], changed[1])
    if claim is not None:
        assert document_loss(rows_a, rows_b) <= claim + 1e-9


@pytest.mark.parametrize("variant", ["santext", "custext", "clusant"])
def test_item10_the_rewrite_draws_from_the_audited_distribution(variant, embedder) -> None:  # type: ignore[no-untyped-def]
    subject = audited(variant, embedder, epsilon=4.0, candidates_per_category=8, n_clusters=2)
    name = OUTSIDE_NAMES[2]
    text = f"Call {name}."
    n = 4000
    results = subject.sanitizer.rewrite_many(
        [text] * n, subject.settings, golds=[gold_for(text, (name,))] * n
    )
    strings = list(subject.public.strings)
    counts = np.bincount([strings.index(r.spans[1].rewritten) for r in results], minlength=8)
    probs = np.exp(subject.distribution(subject.sanitizer.embedder.encode([name])[0]).log_probs)
    reachable = probs > 0
    assert counts[~reachable].sum() == 0
    assert frequency_pvalue(counts[reachable], probs[reachable]) > 1e-3
    assert subject.receipt.details["categories"][CATEGORY]["public_candidates"] == 8
