"""Replacement operators, restore, and reviewed (gold) spans honoured by every mechanism."""

import random
import re

import pytest

from anonymizer import Settings, plan, rewrite
from anonymizer.errors import InvalidSettings
from anonymizer.operators import (
    OperatorConfig,
    ReplacementMemory,
    apply_operator,
    fake_like,
    same_format,
)
from anonymizer.restore import restore_text
from anonymizer.review import (
    ACCEPT,
    REJECT,
    added_span,
    final_spans,
    mark_reviewed,
    occurrences,
    reviewed_settings,
    summarise_review,
)
from anonymizer.types import Detection

TEXT = "Jane Doe met John Smith. Later JANE DOE wrote to jane@example.com."
NAMES = ["Jane Doe", "John Smith", "jane@example.com"]


def _redacted(**settings) -> object:
    return rewrite(TEXT, mechanism="redact", detector="none", deny_list=NAMES, **settings)


def _gold(text: str, *needles_and_categories: tuple[str, str]) -> list[Detection]:
    spans = []
    for needle, category in needles_and_categories:
        for start, end in occurrences(text, needle):
            spans.append(added_span(start, end, category))
    return sorted(spans, key=lambda d: d.start)


def test_numbered_placeholders_give_one_number_per_string_ignoring_case_and_spacing():
    result = _redacted(operator="numbered")
    assert result.output == (
        "[REDACTED_1] met [REDACTED_2]. Later [REDACTED_1] wrote to [REDACTED_3]."
    )


def test_numbered_placeholders_use_the_category_label():
    gold = _gold(TEXT, ("Jane Doe", "full person name"), ("John Smith", "full person name"))
    result = rewrite(TEXT, mechanism="redact", detector="gold", gold=gold, operator="numbered")
    assert result.output.startswith("[PERSON_1] met [PERSON_2]. Later [PERSON_1]")


def test_a_shared_memory_keeps_numbers_across_documents_and_stores_no_originals():
    memory = ReplacementMemory(key_secret=b"s" * 32)
    config = OperatorConfig("numbered")
    first, _ = apply_operator(_redacted(), config, memory)
    second_text = "John Smith and Mary Major."
    second = rewrite(
        second_text, mechanism="redact", detector="none", deny_list=["John Smith", "Mary Major"]
    )
    second, mapping = apply_operator(second, config, memory)
    assert second.output == "[REDACTED_2] and [REDACTED_4]."
    assert mapping == {"[REDACTED_2]": "John Smith", "[REDACTED_4]": "Mary Major"}
    stored = str(memory.to_dict())
    assert "John" not in stored and "jane" not in stored.lower()


def test_applying_an_operator_twice_recomputes_instead_of_stacking():
    once = _redacted(operator="numbered")
    twice, _ = apply_operator(once, OperatorConfig("numbered"))
    assert twice.output == once.output
    placeholders, _ = apply_operator(once, OperatorConfig("placeholder"))
    assert placeholders.output == _redacted().output


@pytest.mark.parametrize("keep, expected", [(True, "********"), (False, "****")])
def test_masks_keep_the_length_or_not(keep, expected):
    result = _redacted(operator="mask", mask_keep_length=keep)
    assert result.output.startswith(f"{expected} met ")
    assert ("keep the length" in " ".join(result.receipt.caveats)) is keep


def test_hashes_are_consistent_per_salt_and_differ_between_salts():
    base = _redacted()
    a1, _ = apply_operator(base, OperatorConfig("hash", salt=b"a" * 32))
    a2, _ = apply_operator(base, OperatorConfig("hash", salt=b"a" * 32))
    b, _ = apply_operator(base, OperatorConfig("hash", salt=b"b" * 32))
    assert a1.output == a2.output != b.output
    hashes = re.findall(r"\[REDACTED:([0-9a-f]{12})\]", a1.output)
    assert len(hashes) == 4 and hashes[0] == hashes[2] and len(set(hashes)) == 3


def test_fakes_are_consistent_unique_and_never_the_original():
    result, mapping = apply_operator(_redacted(), OperatorConfig("fake"))
    spans = [s for s in result.spans if s.is_pii]
    assert spans[0].output_text == spans[2].output_text  # Jane Doe == JANE DOE
    assert len({s.output_text for s in spans}) == 3
    assert all(s.output_text.casefold() != s.text.casefold() for s in spans)
    assert set(mapping.values()) == {"Jane Doe", "John Smith", "jane@example.com"}
    assert any("no formal guarantee" in c for c in result.receipt.caveats)


@pytest.mark.parametrize(
    "category, original, pattern",
    [
        ("full person name", "Jane Doe", r"^\S+( \S+)+$"),
        ("email address", "jane@example.com", r"^[^@\s]+@[^@\s]+\.\w+$"),
        ("iban", "GB82 WEST 1234 5698 7654 32", r"^[A-Z]{2}\d{2}( [A-Z0-9]{1,4})+$"),
        ("card number", "4111 1111 1111 1111", r"^\d{4} \d{4} \d{4} \d{4}$"),
        ("date", "12.03.2024", r"^\d{2}\.\d{2}\.\d{4}$"),
        ("date", "2024-03-12", r"^\d{4}-\d{2}-\d{2}$"),
        ("phone number", "+44 20 7946 0958", r"^\+\d{2} \d{2} \d{4} \d{4}$"),
        ("internal id", "EMP-00417", r"^[A-Z]{3}-\d{5}$"),
    ],
)
def test_fakes_keep_the_category_and_format(category, original, pattern):
    fake = fake_like(original, category, "en_GB", random.Random(1))
    assert re.match(pattern, fake), fake
    assert fake != original


def test_fake_card_numbers_pass_the_luhn_check():
    from anonymizer.detection.checksums import luhn_valid

    for seed in range(20):
        digits = re.sub(
            r"\D", "", fake_like("4111 1111 1111 1111", "card number", "en_US", random.Random(seed))
        )
        assert luhn_valid(digits)


def test_same_format_keeps_separators_and_case():
    assert re.match(r"^[A-Z][a-z]{3}-\d{3}$", same_format("Abcd-123", random.Random(0)))


def test_unknown_operators_and_locales_are_refused():
    with pytest.raises(InvalidSettings, match="operator"):
        Settings(operator="shuffle")
    with pytest.raises(InvalidSettings, match="fake_locale"):
        Settings(operator="fake", fake_locale="xx_XX")


# --- restore --------------------------------------------------------------------------


def test_restore_puts_back_numbered_placeholders_with_or_without_brackets():
    mapping = {"[PERSON_1]": "Jane Doe", "[PERSON_12]": "John Smith", "[EMAIL_1]": "j@x.org"}
    restored = restore_text("[PERSON_12] asked PERSON_1 to mail [EMAIL_1]; [PERSON_2]?", mapping)
    assert restored.text == "John Smith asked Jane Doe to mail j@x.org; [PERSON_2]?"
    assert restored.replaced == 3 and restored.distinct == 3


def test_restore_of_fakes_matches_whole_words_only():
    mapping = {"Paul Roe": "Jane Doe", "Paul": "John"}
    restored = restore_text("Paul Roe and Paul met Pauline.", mapping)
    assert restored.text == "Jane Doe and John met Pauline."


def test_restore_round_trips_a_numbered_rewrite():
    result, mapping = apply_operator(_redacted(), OperatorConfig("numbered"))
    assert restore_text(result.output, mapping).text == TEXT.replace("JANE DOE", "Jane Doe")


# --- review ---------------------------------------------------------------------------


def test_final_spans_follow_decisions_then_the_threshold_and_merge_overlaps():
    low = Detection(0, 4, "location", "[LOCATION]", "spacy", 0.4)
    high = Detection(10, 14, "organization", "[ORG]", "presidio", 0.9)
    rejected = Detection(20, 24, "date", "[DATE]", "regex", 1.0)
    added = added_span(12, 18, "full person name")
    spans = final_spans([low, high, rejected], {2: REJECT}, [added], threshold=0.5)
    assert [(s.start, s.end, s.category) for s in spans] == [(10, 18, "full person name")]
    spans = final_spans([low, high, rejected], {0: ACCEPT}, [], threshold=0.5)
    assert [(s.start, s.end) for s in spans] == [(0, 4), (10, 14), (20, 24)]


def test_the_summary_quotes_kept_strings_but_never_added_ones():
    text = "Landlord Jane Doe pays the Landlord in Manchester."
    candidates = [
        Detection(0, 8, "custom", "[REDACTED]", "deny-list"),
        Detection(27, 35, "custom", "[REDACTED]", "deny-list"),
    ]
    added = [added_span(39, 49, "location")]
    summary = summarise_review(
        text, candidates, {0: REJECT, 1: REJECT}, added, 0.3, reviewer="alice", detector="regex"
    )
    record = summary.to_dict()
    assert record["kept_strings"] == ["Landlord"] and record["kept_spans"] == 2
    assert record["added_by_category"] == {"location": 1} and "Manchester" not in str(record)


def test_a_reviewed_receipt_names_the_review_instead_of_the_gold_detector():
    text = "Write to jane@example.com."
    gold = _gold(text, ("jane@example.com", "email address"))
    settings = reviewed_settings(Settings(mechanism="redact", deny_list=("x",)))
    result = rewrite(text, settings, gold=gold)
    summary = summarise_review(text, gold, {}, [], 0.0, reviewer="alice", detector="combined")
    receipt = mark_reviewed(result.receipt, summary)
    assert receipt.detector == "combined, reviewed"
    assert not any("heuristic detector (gold)" in c for c in receipt.caveats)
    assert "reviewed by a person (alice)" in receipt.caveats[0]


# --- every mechanism honours the reviewed spans -----------------------------------------

REVIEWED_TEXT = "Manchester is where Jane Doe met the Landlord."


def _reviewed_gold() -> list[Detection]:
    return _gold(REVIEWED_TEXT, ("Manchester", "location"), ("Jane Doe", "full person name"))


@pytest.mark.parametrize(
    "mechanism", ["redact", "dp-embed-invert", "santext", "custext", "clusant"]
)
def test_every_mechanism_plans_with_exactly_the_reviewed_spans(mechanism):
    settings = reviewed_settings(Settings(mechanism=mechanism, detector="regex"))
    planned = plan(REVIEWED_TEXT, settings, gold=_reviewed_gold())
    pii = [(s.text, s.category) for s in planned.spans if s.is_pii]
    assert pii == [("Manchester", "location"), ("Jane Doe", "full person name")]


def test_redaction_rewrites_with_exactly_the_reviewed_spans():
    settings = reviewed_settings(Settings(mechanism="redact"))
    result = rewrite(REVIEWED_TEXT, settings, gold=_reviewed_gold())
    assert result.output == "[LOCATION] is where [PERSON] met the Landlord."
    assert [s.source for s in result.spans if s.is_pii] == ["review", "review"]


def test_the_cli_applies_the_operator(capsys):
    from anonymizer.cli import main

    main(
        [
            "--text",
            TEXT,
            "--mechanism",
            "redact",
            "--detector",
            "none",
            "--deny",
            "Jane Doe",
            "--operator",
            "mask",
            "--mask-fixed",
        ]
    )
    assert "**** met John Smith. Later **** wrote" in capsys.readouterr().out
