"""Round-17 context rules: ages in a description or in shorthand, initials after a
title, and user names in logs, merge commits and chat group names. Every example was written
for this test; none comes from an evaluation set. Each positive case fails on the rules of
the last landed release (a706380), and each negative case guards a reading the rule must not
take."""

from __future__ import annotations

import pytest

from anonymizer.detection.combined import combine
from anonymizer.detection.regex import RegexDetector
from anonymizer.types import Detection

DETECTOR = RegexDetector()


def _found(text: str, category: str) -> list[str]:
    return [text[d.start : d.end] for d in DETECTOR.detect(text) if d.category == category]


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("The girl, aged about 11, was alone.", "11"),
        ("Suspect: a white male, about thirty, wearing a red cap.", "thirty"),
        ("a woman around 60 with a walking stick", "60"),
        ("Triage: M/47 with chest pain", "47"),
        ("At 17 she left home for Glasgow.", "17"),
        ("He moved twice. At 23, he joined the fire service.", "23"),
    ],
)
def test_ages_in_descriptions_and_shorthand_are_found(text: str, age: str) -> None:
    assert age in _found(text, "age")


@pytest.mark.parametrize(
    "text",
    [
        "a man about 6 feet tall",
        "We arrived about 30 minutes late.",
        "At 10 we closed the shop.",
        "size M/32 trousers",
        "a lens at F/4",
    ],
)
def test_heights_durations_times_and_sizes_are_not_ages(text: str) -> None:
    assert _found(text, "age") == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ricetta firmata da dr. Ferraro stamattina.", "Ferraro"),
        ("Before Sheriff J. K. Mowat today.", "J. K. Mowat"),
        ("Seen by Dr R. T. Adeyemi on the ward.", "R. T. Adeyemi"),
    ],
)
def test_a_lower_case_dr_and_two_initials_after_a_title_give_a_name(text: str, name: str) -> None:
    assert name in _found(text, "full person name")


def test_a_title_before_an_initial_and_a_common_word_gives_no_name() -> None:
    assert _found("Ask the dr. Then we go.", "full person name") == []
    assert _found("PC A. Then it stopped.", "full person name") == []


@pytest.mark.parametrize(
    ("text", "handle"),
    [
        ("Check the VPN logs for user bkastner before Monday.", "bkastner"),
        ('{"event":"role_change","admin":"it-lmorales","target":"u_1"}', "it-lmorales"),
        ("audit: actor=qpetrov action=delete", "qpetrov"),
        ("a1b2c3d Merge pull request #418 from noor-h/patch-1", "noor-h"),
        ('posted in the "night-shift-4" WhatsApp group', "night-shift-4"),
    ],
)
def test_user_names_in_logs_merges_and_chat_groups_are_handles(text: str, handle: str) -> None:
    assert handle in _found(text, "handle")


@pytest.mark.parametrize(
    "text",
    [
        "We care about the user experience above all.",
        '{"admin": "true", "actor": "system"}',
        'the "family" WhatsApp group',
        "Merge branch 'main' into release",
    ],
)
def test_words_flags_and_plain_group_names_are_no_handles(text: str) -> None:
    assert _found(text, "handle") == []


def test_a_relative_named_with_a_rarer_word_is_a_person() -> None:
    assert _found("her daughter Jolly works there", "full person name") == ["Jolly"]
    assert _found("I asked my son Could he drive?", "full person name") == []


def test_the_town_after_a_postcode_and_a_space_is_a_place() -> None:
    text = "Send the forms to Rua do Olival 9, 3770-203 Oiã (by Friday)."
    kept = combine(text, DETECTOR.detect(text), [_postcode(text, "3770-203")])
    assert "Oiã" in {text[d.start : d.end] for d in kept if d.category == "location"}
    text = "Edinburgh EH4 1DU Tel: 0131 496 0000"
    kept = combine(text, DETECTOR.detect(text), [_postcode(text, "EH4 1DU")])
    assert "Tel" not in {text[d.start : d.end] for d in kept}
    text = "Total: 7853 EUR"
    kept = combine(text, [], [_postcode(text, "7853")])
    assert "EUR" not in {text[d.start : d.end] for d in kept}


def _postcode(text: str, surface: str) -> Detection:
    start = text.index(surface)
    return Detection(
        start, start + len(surface), "postal code", "[POSTCODE]", "ner", 0.9, "ner:POSTCODE"
    )


def test_bank_statement_counterparties_are_found_in_capitals_only() -> None:
    text = (
        "Fecha      Concepto                                Importe\n"
        "04/03      NÓMINA TALLERES ARANDA SL                 +1.420,00\n"
        "09/03      RECIBO ENDESA ENERGIA – CONTRATO 88120      -54,20\n"
        "11/03      BIZUM A LUCIA PEREZ                         -15,00\n"
        "14 Mar  DIRECT DEBIT TO SEVERN TRENT   38.10\n"
        "RECIBO DE LA LUZ\n"
    )
    found = {(text[d.start : d.end], d.category) for d in DETECTOR.detect(text)}
    assert ("TALLERES ARANDA SL", "organization") in found
    assert ("ENDESA ENERGIA", "organization") in found
    assert ("LUCIA PEREZ", "full person name") in found
    assert ("SEVERN TRENT", "organization") in found
    assert not {s for s, _ in found if "LUZ" in s}
    assert not _found("05/03      RECIBO ALQUILER – PEDRO SANZ      -650,00", "organization")
    assert _found("Please set up a direct debit to pay the rent.", "organization") == []


def test_employers_and_schools_on_dated_cv_lines_are_organisations() -> None:
    from anonymizer.detection.cv_lines import cv_employers

    text = (
        "EXPERIENCE\n"
        "Brannock & Hale LLP — Trainee Solicitor (2020–present)\n"
        "Ulster Savings Bank, Belfast — Customer Adviser, 2017–2020\n"
        "• Data Analyst | Zentrix GmbH | Munich | Mar 2015 – Feb 2017\n"
        "2012–2014  Barista at Kettle & Crumb\n"
        "EDUCATION\n"
        "MSc Statistics, Kungliga Tekniska högskolan, 2016\n"
        "Brightwell Foods, Kilcullen — Buyer, 2012–2015\n"
        "Remote, Full-time, 2021\n"
        "London, UK, 2019\n"
        "The Civil Rights Act — passed in 1964\n"
        "Nurse, Orla Byrne, 2019\n"
        "Seen by the nurse at Harbour View Clinic on 3 May, 2024.\n"
    )
    found = [(text[d.start : d.end], d.category) for d in cv_employers(text)]
    assert found == [
        ("Brannock & Hale LLP", "organization"),
        ("Ulster Savings Bank", "organization"),
        ("Zentrix GmbH", "organization"),
        ("Kettle & Crumb", "organization"),
        ("Kungliga Tekniska högskolan", "organization"),
        ("Brightwell Foods", "organization"),
        ("Kilcullen", "location"),
    ]


def test_a_number_in_brackets_after_a_name_is_a_staff_number_but_a_year_is_not() -> None:
    text = "Line manager: Conor Daly (004417); report by Ruth Kane (2019)."
    ner = [
        Detection(
            text.index(name),
            text.index(name) + len(name),
            "full person name",
            "[PERSON]",
            "ner",
            0.9,
            "ner:PERSON",
        )  # fmt: skip
        for name in ("Conor Daly", "Ruth Kane")
    ]
    kept = combine(text, [], ner)
    assert {text[d.start : d.end] for d in kept if d.category == "internal id"} == {"004417"}


@pytest.mark.parametrize(
    ("text", "handle"),
    [
        ("Send the deposit to meera.iyer@okaxis today.", "meera.iyer@okaxis"),
        ("UPI: 9876543210@ybl", "9876543210@ybl"),
    ],
)
def test_upi_payment_addresses_are_handles(text: str, handle: str) -> None:
    assert handle in _found(text, "handle")


def test_an_address_at_a_real_domain_is_no_upi_id() -> None:
    assert _found("Write to ravi@paytm.com for refunds.", "handle") == []


def test_a_name_keys_value_in_json_is_a_person_in_any_script() -> None:
    text = '{"event":"mail","to_name":"佐々木 真央","template_name":"reset","first_name":"null"}'
    names = _found(text, "full person name")
    assert "佐々木 真央" in names
    assert "reset" not in names and "null" not in names


@pytest.mark.parametrize(
    ("text", "value", "category"),
    [
        ("Customer ID: KX 5521093", "KX 5521093", "internal id"),
        ("Member number MB 00412233 (gold tier)", "MB 00412233", "internal id"),
        ("Patient ID: HN 00093317", "HN 00093317", "medical record number"),
    ],
)
def test_a_keyword_id_written_as_letters_a_space_and_many_digits_is_whole(
    text: str, value: str, category: str
) -> None:
    assert value in _found(text, category)


def test_a_chat_speaker_may_end_in_an_initial_and_a_record_names_who_printed_it() -> None:
    text = "Ravinder K.: running late\nOla: fine\n"
    assert "Ravinder K" in _found(text, "full person name")
    text = "Dispensing log printed 03/02/2025 by okwarteng at POS-2."
    assert "okwarteng" in _found(text, "handle")
    assert _found("Reviewed by the committee on Monday.", "handle") == []
