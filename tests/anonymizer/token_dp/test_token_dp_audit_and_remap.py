"""The shipped audit table in receipts and defaults, and Bayesian remapping as a setting."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from anonymizer.registry import mechanism_info
from anonymizer.settings import Settings
from anonymizer.token_dp.audit import (
    audit_entry,
    audit_sentence,
    default_epsilon,
    load_audit_table,
)
from anonymizer.token_dp.receipt import AUDIT_CAVEAT, REMAP_STATEMENT
from anonymizer.token_dp.remap import public_remap_table
from anonymizer.token_dp.sanitizer import TokenSanitizer
from anonymizer.types import Detection

TEXT = "Zelda Quartermaine met Otto Brandt and Ines Vasquez in Lyon."
NAMES = ("Zelda Quartermaine", "Otto Brandt", "Ines Vasquez")
VARIANTS = ("santext", "custext", "clusant")


def gold() -> list[Detection]:
    return [
        Detection(TEXT.find(n), TEXT.find(n) + len(n), "full person name", "[PERSON]", "gold")
        for n in NAMES
    ]


def settings(variant: str = "santext", **changes) -> Settings:  # type: ignore[no-untyped-def]
    base = dict(
        mechanism=variant, detector="gold", epsilon=2.0, candidates_per_category=40, n_clusters=4
    )
    return Settings(**{**base, **changes})


TABLE = {
    "date": "2026-01-02",
    "software_version": "9.9.9",
    "confidence": 0.99,
    "candidate_set_size": 20,
    "settings": {"candidates_per_category": 2000, "n_clusters": 20, "cluster_push": 16.0},
    "mechanisms": {
        "santext": {
            "default_epsilon": 4.0,
            "default_reason": "largest audited ε meeting both targets",
            "rows": {
                f"{e:g}": {
                    "attacker": "transformer",
                    "recovery": 0.05 + e / 100,
                    "prior_recovery": 0.05,
                    "violation_rate": 0.001,
                    "violation_bound": 0.04,
                }
                for e in (1.0, 4.0, 16.0)
            },
        }
    },
}


def test_the_shipped_table_covers_every_token_mechanism_and_the_full_grid() -> None:
    table = load_audit_table()
    assert table is not None
    assert table["confidence"] == 0.99
    for variant in VARIANTS:
        rows = table["mechanisms"][variant]["rows"]
        assert sorted(float(e) for e in rows) == [0.5, 1.0, 2.0, 4.0, 8.0, 16.0]
        for row in rows.values():
            assert 0 <= row["prior_recovery"] <= 1 and 0 <= row["recovery"] <= 1
            assert row["violation_rate"] <= row["violation_bound"] <= 1
        chosen = table["mechanisms"][variant]["default_epsilon"]
        assert f"{chosen:g}" in rows
        assert mechanism_info(variant).default_epsilon == chosen == default_epsilon(variant)


def test_the_nearest_audited_epsilon_is_used_on_a_log_scale() -> None:
    assert audit_entry("santext", 4.0, TABLE).exact
    entry = audit_entry("santext", 6.0, TABLE)
    assert entry is not None and entry.epsilon == 4.0 and not entry.exact
    assert audit_entry("santext", 8.0, TABLE).epsilon == 16.0  # a log-scale tie: the larger
    assert audit_entry("santext", 0.1, TABLE).epsilon == 1.0
    assert audit_entry("santext", math.inf, TABLE) is None
    assert audit_entry("custext", 2.0, TABLE) is None
    assert audit_entry("santext", 2.0, {}) is None


def test_the_sentence_gives_figures_provenance_and_says_it_is_no_guarantee() -> None:
    entry = audit_entry("santext", 6.0, TABLE)
    text = audit_sentence(entry, settings(candidates_per_category=500))
    assert "recovered 9.0 % of strings (prior 5.0 %" in text
    assert "mPL above ε in 0.1 % of pairs (≤ 4.0 % at 99%)" in text
    assert "evidence, not a guarantee" in text
    assert "2026-01-02" in text and "9.9.9" in text
    assert "ε = 6 was not audited" in text and "nearest audited ε = 4" in text
    assert "candidates_per_category = 500 (audited 2000)" in text
    exact = audit_sentence(
        audit_entry("santext", 4.0, TABLE), settings(candidates_per_category=2000)
    )
    assert "not audited" not in exact and "differ" not in exact


@pytest.mark.parametrize("variant", VARIANTS)
def test_receipt_and_preview_carry_the_audit_line(variant, embedder) -> None:  # type: ignore[no-untyped-def]
    sanitizer = TokenSanitizer(variant, embedder)
    chosen = settings(variant)
    for receipt in (
        sanitizer.plan(TEXT, chosen, gold()).receipt,
        sanitizer.rewrite_many([TEXT], chosen, golds=[gold()])[0].receipt,
    ):
        assert "Audited (evidence, not a guarantee)" in receipt.statement
        assert AUDIT_CAVEAT in receipt.caveats
        audit = receipt.details["audit"]
        assert audit["audited_epsilon"] == 2.0 and audit["requested_epsilon"] == 2.0
        assert audit["date"] == load_audit_table()["date"]


def test_no_audit_line_without_a_formal_guarantee(embedder) -> None:  # type: ignore[no-untyped-def]
    sanitizer = TokenSanitizer("santext", embedder)
    for receipt in (
        sanitizer.rewrite_many([TEXT], settings(epsilon=math.inf), golds=[gold()])[0].receipt,
        sanitizer.rewrite_many(["nothing here"], settings(), golds=[[]])[0].receipt,
    ):
        assert "audit" not in receipt.details
        assert "Audited" not in receipt.statement


def test_a_seeded_receipt_keeps_the_audit_in_its_details_only(embedder) -> None:  # type: ignore[no-untyped-def]
    receipt = (
        TokenSanitizer("santext", embedder)
        .rewrite_many([TEXT], settings(seed=3), golds=[gold()])[0]
        .receipt
    )
    assert receipt.notion.startswith("none")
    assert "audit" in receipt.details
    assert "Audited" in receipt.details["unseeded_statement"]


def test_remapping_replaces_each_draw_by_its_table_entry_and_costs_nothing(embedder) -> None:  # type: ignore[no-untyped-def]
    sanitizer = TokenSanitizer("santext", embedder)
    plain = sanitizer.rewrite_many([TEXT] * 30, settings(seed=5), golds=[gold()] * 30)
    remapped = sanitizer.rewrite_many(
        [TEXT] * 30, settings(seed=5, bayes_remap=True), golds=[gold()] * 30
    )
    public = sanitizer.public_domain("full person name", settings())
    table = public_remap_table(
        sanitizer.log_probs(public, public.embeddings, settings()), public.embeddings
    )
    for a, b in zip(plain, remapped, strict=True):
        drawn = [s.rewritten for s in a.spans if s.is_pii]
        mapped = [s.rewritten for s in b.spans if s.is_pii]
        assert mapped == [public.strings[table[public.index[d]]] for d in drawn]
    unseeded = sanitizer.rewrite_many([TEXT], settings(bayes_remap=True), golds=[gold()])[0]
    honest = sanitizer.rewrite_many([TEXT], settings(), golds=[gold()])[0]
    receipt = unseeded.receipt
    assert REMAP_STATEMENT in receipt.statement
    assert receipt.details["bayes_remap"]["privacy"].startswith("post-processing")
    assert receipt.notion == honest.receipt.notion
    assert receipt.epsilon_total == honest.receipt.epsilon_total


def test_the_remap_table_is_cached_per_epsilon(embedder) -> None:  # type: ignore[no-untyped-def]
    sanitizer = TokenSanitizer("clusant", embedder)
    public = sanitizer.public_domain("full person name", settings("clusant"))
    first = sanitizer.remap_table(public, settings("clusant"))
    assert sanitizer.remap_table(public, settings("clusant")) is first
    assert sanitizer.remap_table(public, settings("clusant", epsilon=0.5)) is not first
    assert first.shape == (len(public.strings),)
    assert np.all((0 <= first) & (first < len(public.strings)))


def test_the_registered_default_epsilon_reaches_cli_and_form(capsys) -> None:  # type: ignore[no-untyped-def]
    from anonymizer.cli import main

    assert (
        main(["--mechanism", "santext", "--plan", "--json", "--text", "hi", "--detector", "none"])
        == 0
    )
    planned = json.loads(capsys.readouterr().out)
    assert planned["receipt"]["details"]["epsilon"] == default_epsilon("santext")
    assert main(["--mechanism", "dp-embed-invert", "--plan", "--json", "--text", "hi"]) == 0
    assert json.loads(capsys.readouterr().out)["receipt"]["epsilon_total"] == 16.0  # the seed's
    assert mechanism_info("dp-embed-invert").default_epsilon is None


def test_the_form_offers_remapping_and_starts_at_the_audited_epsilon(db) -> None:  # type: ignore[no-untyped-def]
    from webapp.jobs.forms import SubmitForm

    form = SubmitForm(mechanism=mechanism_info("clusant"))
    assert form.fields["epsilon"].initial == f"{default_epsilon('clusant'):g}"
    assert "attack audit" in form.fields["epsilon"].help_text
    assert "bayes_remap" in form.fields
    assert SubmitForm(mechanism=mechanism_info("redact")).fields.get("bayes_remap") is None


def test_the_result_page_summary_carries_the_audit_line_of_a_private_receipt() -> None:
    from webapp.jobs.presentation import receipt_summary

    audit = audit_entry("santext", 6.0, TABLE).to_dict()
    payload = {"notion": "metric-LDP", "epsilon_total": 6.0, "details": {"audit": audit}}
    line = receipt_summary(payload).audit
    assert line.startswith("Audited at ε = 4 (evidence, not a guarantee): a learned attacker")
    assert "recovered 9.0 % of strings (prior 5.0 %)" in line
    assert "mPL above ε in 0.1 % of pairs (≤ 4.0 % at 99%)" in line
    assert "2026-01-02" in line and "9.9.9" in line and "chosen 6" in line
    seeded = {**payload, "notion": "none"}
    assert receipt_summary(seeded).audit is None
    assert receipt_summary({"notion": "metric-LDP", "details": {}}).audit is None
