"""Item 5: when nothing was perturbed the receipt says "none", with the reason.

Before the fix a token receipt with detector `none` (or nothing detected) said
"eps-metric-LDP per token, ε_total = 0" while the whole text was released verbatim.
"""

from __future__ import annotations

import pytest

from anonymizer.settings import Settings
from anonymizer.token_dp.receipt import NOTHING_SANITIZED
from anonymizer.token_dp.sanitizer import TokenSanitizer
from webapp.ledger.costs import NONE, release_cost

TEXT = "The quarterly figures look fine; nothing personal in here."


@pytest.mark.parametrize("variant", ["santext", "custext", "clusant"])
@pytest.mark.parametrize("detector", ["none", "regex"])
def test_item5_a_token_rewrite_that_sanitized_nothing_claims_nothing(  # type: ignore[no-untyped-def]
    variant, detector, embedder
) -> None:
    sanitizer = TokenSanitizer(variant, embedder)
    settings = Settings(mechanism=variant, detector=detector, candidates_per_category=20)
    for receipt in (
        sanitizer.rewrite_many([TEXT], settings)[0].receipt,
        sanitizer.plan(TEXT, settings).receipt,
    ):
        assert receipt.notion == NOTHING_SANITIZED
        assert "metric-LDP" not in receipt.notion and receipt.epsilon_total is None
        assert receipt.details["n_tokens"] == 0
        assert "no formal privacy guarantee" in receipt.statement
        assert release_cost(receipt).kind == NONE


def test_item5_placeholders_alone_are_not_a_token_guarantee(embedder) -> None:  # type: ignore[no-untyped-def]
    """A secret becomes [SECRET] (no surrogates exist), and nothing goes through the mechanism."""
    text = "The key is sk-live-51H8xYzAbCdEfGhIjKlMnOp today."
    settings = Settings(mechanism="santext", detector="regex", candidates_per_category=20)
    result = TokenSanitizer("santext", embedder).rewrite_many([text], settings)[0]
    assert result.receipt.details["placeholder_categories"] == {"secret": 1}
    assert "[SECRET]" in result.output and "sk-live" not in result.output
    assert result.receipt.notion == NOTHING_SANITIZED
