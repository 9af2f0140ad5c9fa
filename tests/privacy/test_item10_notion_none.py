"""Item 10: releases that carry no formal guarantee say "none": seeded runs, ε = ∞, K = 0,
nothing detected, redaction; and the ledger lists each among releases without a guarantee."""

from __future__ import annotations

import math

import pytest

import anonymizer
from anonymizer.receipts import SEEDED_NOTION
from anonymizer.settings import Settings
from anonymizer.token_dp.receipt import NOTHING_SANITIZED
from anonymizer.token_dp.sanitizer import TokenSanitizer
from webapp.ledger.costs import NONE, release_cost

TEXT = "Write to jane@example.com about the meeting; the budget is fine."
ONLY_PII = "jane@example.com"
REDACT = Settings(mechanism="redact", detector="regex")


def gaussian(**changes):  # type: ignore[no-untyped-def]
    return anonymizer.plan(
        changes.pop("text", TEXT),
        Settings(mechanism="dp-embed-invert", detector="regex", **changes),
    ).receipt


CASES = {
    "seeded": lambda: gaussian(seed=3),
    "epsilon inf": lambda: gaussian(epsilon=math.inf),
    "K = 0": lambda: gaussian(text=ONLY_PII),
    "redaction": lambda: anonymizer.plan(TEXT, REDACT).receipt,
    "redaction seeded": lambda: anonymizer.plan(TEXT, REDACT.with_changes(seed=1)).receipt,
}


@pytest.mark.parametrize("case", CASES)
def test_item10_releases_without_a_guarantee_say_none(case) -> None:  # type: ignore[no-untyped-def]
    receipt = CASES[case]()
    assert receipt.notion.startswith("none")
    assert "DP" not in receipt.notion.replace("none", "")
    assert release_cost(receipt).kind == NONE
    if case == "seeded":
        assert receipt.notion == SEEDED_NOTION
    if case == "K = 0":
        assert receipt.n_chunks == 0 and "nothing was noised" in receipt.statement
    if case == "epsilon inf":
        assert receipt.sigma == 0 and receipt.epsilon_total == math.inf


@pytest.mark.parametrize("variant", ["santext", "custext", "clusant"])
@pytest.mark.parametrize(
    "changes",
    [{"seed": 4}, {"epsilon": math.inf}, {"detector": "none"}],
    ids=["seeded", "epsilon inf", "nothing detected"],
)
def test_item10_token_releases_without_a_guarantee_say_none(variant, changes, embedder) -> None:  # type: ignore[no-untyped-def]
    settings = Settings(
        **{
            "mechanism": variant,
            "detector": "regex",
            "candidates_per_category": 20,
            **changes,
        }
    )
    receipt = TokenSanitizer(variant, embedder).rewrite_many([TEXT], settings)[0].receipt
    assert receipt.notion.startswith("none")
    assert release_cost(receipt).kind == NONE
    if changes.get("detector") == "none":
        assert receipt.notion == NOTHING_SANITIZED
