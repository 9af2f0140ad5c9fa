"""Item 1: token sanitizers output public candidates only; a document's strings are inputs only.

Before the fix every variant added the document's detected strings to the outputs, so
Pr[y = x | document with x] > 0 while Pr[y = x | document without x] = 0: an unbounded loss.
"""

from __future__ import annotations

import numpy as np
import pytest

from anonymizer.token_dp.candidates import generate_strings
from anonymizer.token_dp.sanitizer import TokenSanitizer
from tests.privacy.audit import audit_pairs, privacy_loss
from tests.privacy.token_setup import (
    CATEGORY,
    OUTSIDE_NAMES,
    audited,
    gold_for,
    input_pairs,
    with_inputs_in_outputs,
)

VARIANTS = ("santext", "custext", "clusant")


@pytest.mark.parametrize("variant", VARIANTS)
def test_item1_a_name_outside_the_public_set_is_never_given_back(variant, embedder) -> None:  # type: ignore[no-untyped-def]
    subject = audited(variant, embedder, epsilon=16.0)
    public = set(generate_strings(CATEGORY, 60))
    assert not public & set(OUTSIDE_NAMES)
    text = "From " + ", ".join(OUTSIDE_NAMES) + "."
    gold = gold_for(text, OUTSIDE_NAMES)
    results = subject.sanitizer.rewrite_many([text] * 40, subject.settings, golds=[gold] * 40)
    for result in results:
        surrogates = [s.rewritten for s in result.spans if s.is_pii]
        assert len(surrogates) == len(OUTSIDE_NAMES)
        assert set(surrogates) <= public  # never the input, never another document name
    # and exactly: the output distribution puts no mass outside the public set
    for name, x in zip(OUTSIDE_NAMES, embedder.encode(list(OUTSIDE_NAMES)), strict=True):
        dist = subject.distribution(x)
        assert set(dist.labels) == set(subject.public.strings) and name not in dist.labels


@pytest.mark.parametrize("variant", VARIANTS)
def test_item1_the_receipt_no_longer_claims_the_candidate_set_is_public_despite_the_document(
    variant, embedder
) -> None:  # type: ignore[no-untyped-def]
    receipt = audited(variant, embedder).receipt
    assert not any("treats the candidate set as public" in c for c in receipt.caveats)
    assert receipt.details["output_domain"].startswith("the category's public candidate set only")
    assert receipt.details["categories"][CATEGORY]["inputs_outside_public_set"] == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_item1_the_claim_holds_for_any_input_point(variant, embedder) -> None:  # type: ignore[no-untyped-def]
    subject = audited(variant, embedder)
    pairs = input_pairs(subject, embedder)
    assert audit_pairs(subject.distribution, pairs, subject.bound()) == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_item1_document_strings_back_in_the_outputs_fail_the_audit(variant, embedder) -> None:  # type: ignore[no-untyped-def]
    subject = audited(variant, embedder)
    broken = with_inputs_in_outputs(subject)
    pairs = input_pairs(subject, embedder)
    violations = audit_pairs(broken, pairs, subject.bound())
    assert violations and max(v.loss for v in violations) == np.inf
    x, other = embedder.encode(["Zelda Quartermaine", "Otto Brandt"])
    assert privacy_loss(broken(x), broken(other)) == np.inf


def test_item1_per_input_min_max_keeps_custext_within_eps_for_any_points(embedder) -> None:  # type: ignore[no-untyped-def]
    subject = audited("custext", embedder, epsilon=3.0)
    rng = np.random.default_rng(5)
    cells = subject.public.cluster_of
    checked = 0
    for _ in range(300):
        x, y = rng.normal(size=(2, 32)) * rng.uniform(0.05, 2.0)
        if cells(x[None])[0] == cells(y[None])[0]:
            loss = privacy_loss(subject.distribution(x), subject.distribution(y))
            assert loss <= 3.0 + 1e-9
            checked += 1
    assert checked > 20


def test_item1_one_sanitizer_serves_documents_without_growing_its_domain(embedder) -> None:  # type: ignore[no-untyped-def]
    sanitizer = TokenSanitizer("santext", embedder)
    subject = audited("santext", embedder)
    before = sanitizer.public_domain(CATEGORY, subject.settings).strings
    text = "Signed, Kwame Mensah."
    sanitizer.rewrite_many([text], subject.settings, golds=[gold_for(text, ("Kwame Mensah",))])
    assert sanitizer.public_domain(CATEGORY, subject.settings).strings == before


@pytest.mark.slow
def test_item1_with_minilm_a_name_outside_the_public_set_never_comes_back() -> None:
    """The review measured Pr[output = input] = 0.896 / 0.822 / 0.165 here at ε = 16."""
    from anonymizer.settings import Settings
    from anonymizer.token_dp.embedding import MiniLMEmbedder

    name = "Margaret Thornton"
    assert name not in generate_strings(CATEGORY, 200)
    text = f"Please ask {name} about the invoice."
    gold = gold_for(text, (name,))
    embedder = MiniLMEmbedder()
    for variant in VARIANTS:
        settings = Settings(
            mechanism=variant, detector="gold", epsilon=16.0, candidates_per_category=200
        )
        results = TokenSanitizer(variant, embedder).rewrite_many(
            [text] * 300, settings, golds=[gold] * 300
        )
        assert sum(r.spans[1].rewritten == name for r in results) == 0, variant
