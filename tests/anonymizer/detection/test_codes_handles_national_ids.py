"""Checksum-validated national ids (codice fiscale, CPF, Aadhaar), access codes, chat user
names, more reference-id keywords and day/month dates. Every example was written for this
test; the valid numbers are computed test values, not anyone's."""

from __future__ import annotations

import pytest

from anonymizer.detection.checksums import aadhaar_valid, codice_fiscale_valid, cpf_valid
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.detection.regex import RegexDetector

DETECTOR = RegexDetector()


def found(text: str) -> dict[str, str]:
    return {text[d.start : d.end]: d.category for d in resolve_overlaps(DETECTOR.detect(text))}


def test_checksums_accept_valid_numbers_and_reject_one_changed_character() -> None:
    assert codice_fiscale_valid("RSSMRA85T10A562S")
    assert not codice_fiscale_valid("RSSMRA85T10A562T")
    assert cpf_valid("529.982.247-25")
    assert not cpf_valid("529.982.247-26")
    assert not cpf_valid("111.111.111-11")
    assert aadhaar_valid("2341 2341 2346")
    assert not aadhaar_valid("2341 2341 2347")
    assert not aadhaar_valid("1341 2341 2346")  # never starts with 0 or 1


@pytest.mark.parametrize(
    ("text", "surface", "category"),
    [
        ("Intestatario RSSMRA85T10A562S, residente a Roma.", "RSSMRA85T10A562S", "national id"),
        ("a chave PIX é 529.982.247-25, obrigado", "529.982.247-25", "national id"),
        ("my card no is 2341 2341 2346 i think", "2341 2341 2346", "national id"),
        ("the keysafe code is 3081, back door", "3081", "secret"),
        ("Your one-time code is 447 120 (valid 10 min)", "447 120", "secret"),
        ("sms sent otp=551903 to user", "551903", "secret"),
        ("[19:02] night_owl.77: who took the van?", "night_owl.77", "handle"),
        ("gardenfan1988 · Member since 2020", "gardenfan1988", "handle"),
        ("Your login is t.berger_5 for the portal.", "t.berger_5", "handle"),
        ("ticket opened by agent=l.moyo today", "l.moyo", "handle"),
        ("Please quote ref. LT/KW/2214 in replies.", "LT/KW/2214", "reference id"),
        ("Senior Analyst (req. R-30418)", "R-30418", "reference id"),
        ("stuck orders: ORD-51190-ZQ and more", "ORD-51190-ZQ", "reference id"),
        ("Beleg-Nr. B-2024-55103 Kasse 1", "B-2024-55103", "reference id"),
        ("we said thursday the 9th at noon", "thursday the 9th", "date"),
        ("lift broken since 14 nov again", "14 nov", "date"),
        ("Entrada 03/04 Alquiler 650,00", "03/04", "date"),
    ],
)
def test_new_rules_find_their_value(text: str, surface: str, category: str) -> None:
    assert found(text).get(surface) == category, found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Intestatario RSSMRA85T10A562T, residente a Roma.",  # wrong check letter
        "the total was 529.982.247-26 reais",  # wrong CPF check digits
        "the total was 2341 2341 2347 rupees",  # wrong Verhoeff digit
        "the door code changes every month",
        "db_host: postgres.internal",
        "Available 24/7 and rated 4/5.",
        "It may 12 times, they say.",
        "A wire transfer request was sent.",
    ],
)
def test_near_misses_are_not_detected(text: str) -> None:
    cats = set(found(text).values())
    assert not cats & {"national id", "secret", "handle", "reference id", "date"}, found(text)


@pytest.mark.parametrize(
    ("text", "surface", "category"),
    [
        ('payout holder_name="Ines Várkonyi" email=x', "Ines Várkonyi", "full person name"),
        ('{"customer_name": "Tomas Ruud", "city": "x"}', "Tomas Ruud", "full person name"),
        (
            "Seen at Calderdale Royal Infirmary overnight.",
            "Calderdale Royal Infirmary",
            "organization",
        ),  # fmt: skip
        ("Her son attends Woodside Primary School.", "Woodside Primary School", "organization"),
        ("Repeat prescription from Elm Tree Surgery.", "Elm Tree Surgery", "organization"),
    ],
)
def test_quoted_names_in_logs_and_institutions_are_found(
    text: str, surface: str, category: str
) -> None:
    assert found(text).get(surface) == category, found(text)


@pytest.mark.parametrize(
    "text",
    [
        "The High School was closed on Friday.",
        "The Medical Centre opens at eight.",
        'log level="INFO" display_name="" done',
    ],
)
def test_bare_institution_words_and_empty_fields_are_not_found(text: str) -> None:
    assert not {"organization", "full person name"} & set(found(text).values()), found(text)
