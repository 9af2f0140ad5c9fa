"""The combiner: rule and model proposals are scored with agreement and context, not unioned."""

from __future__ import annotations

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.combined import THRESHOLD, combine, score_candidate
from anonymizer.detection.learned import NOT_PII_SOURCE
from anonymizer.types import Detection


def at(text: str, surface: str, category: str, source: str, score: float, rule: str = "r"):
    start = text.index(surface)
    return Detection(
        start, start + len(surface), category, placeholder_for(category), source, score, rule
    )


def kept(text: str, rules: list[Detection], ner: list[Detection]) -> set[tuple[str, str]]:
    return {(text[d.start : d.end], d.source) for d in combine(text, rules, ner)}


def test_a_weak_rule_alone_is_dropped_but_kept_when_the_model_agrees() -> None:
    text = "We spoke to Helga Brandt about it."
    rule = at(text, "Helga Brandt", "full person name", "regex", 0.6, "person_name")
    assert ("Helga Brandt", "regex") not in kept(text, [rule], [])
    ner = at(text, "Helga Brandt", "full person name", "ner", 0.8)
    both = kept(text, [rule], [ner])
    assert {("Helga Brandt", "regex"), ("Helga Brandt", "ner")} <= both
    assert score_candidate(text, rule, [rule], [ner], []) > 0.9  # noisy-or of the two


def test_a_title_case_phrase_the_model_reads_as_a_work_of_art_is_not_a_name() -> None:
    text = "We read Wuthering Heights in class."
    rule = at(text, "Wuthering Heights", "full person name", "regex", 0.75, "person_role")
    work = at(text, "Wuthering Heights", "custom", NOT_PII_SOURCE, 0.0, "ner:WORK_OF_ART")
    assert kept(text, [rule], [work]) == set()
    assert score_candidate(text, rule, [rule], [], []) >= THRESHOLD  # without the model: kept


def test_money_amounts_and_acronyms_are_not_organisations() -> None:
    text = "We paid EUR 48,500.00 to the NI fund via Brightwater Holdings."
    ner = [
        at(text, "EUR 48,500.00", "organization", "ner", 0.7),
        at(text, "NI", "organization", "ner", 0.7),
        at(text, "Brightwater Holdings", "organization", "ner", 0.7),
    ]
    assert kept(text, [], ner) == {("Brightwater Holdings", "ner")}


def test_a_field_label_before_a_colon_is_not_a_person() -> None:
    text = "Gateway: 10.0.0.1\nOwner: Lars"
    ner = [at(text, "Gateway", "full person name", "ner", 0.8)]
    assert kept(text, [], ner) == set()


def test_common_words_that_are_nobodys_name_are_not_names() -> None:
    text = "the salesperson said three of them were big"
    ner = [at(text, "salesperson", "full person name", "ner", 0.8)]
    assert kept(text, [], ner) == set()
    text = "Civil Rights Act"
    rule = at(text, "Civil Rights Act", "full person name", "regex", 0.75, "person_role")
    assert kept(text, [rule], []) == set()


def test_structured_identifiers_keep_their_rule_confidence() -> None:
    text = "IBAN DE89 3704 0044 0532 0130 00"
    rule = at(text, "DE89 3704 0044 0532 0130 00", "iban", "regex", 0.97, "iban")
    money = at(text, "DE89 3704 0044 0532 0130 00", "custom", NOT_PII_SOURCE, 0.0, "ner:MONEY")
    assert kept(text, [rule], [money]) == {("DE89 3704 0044 0532 0130 00", "regex")}


def test_names_kept_are_propagated_to_their_other_mentions() -> None:
    text = "Dear Oyelaran Bankole,\nthanks. oyelaran will call."
    ner = [at(text, "Oyelaran Bankole", "full person name", "ner", 0.8)]
    found = combine(text, [], ner)
    assert ("oyelaran", "propagation") in {(text[d.start : d.end], d.source) for d in found}


def test_a_name_cue_lifts_a_borderline_model_name() -> None:
    text = "Hi Ngozi, the keys are on the desk."
    ner = at(text, "Ngozi", "full person name", "ner", 0.45)
    assert score_candidate(text, ner, [], [ner], []) >= THRESHOLD
