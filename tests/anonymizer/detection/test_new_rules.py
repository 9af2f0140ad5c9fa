"""Rules added for text written elsewhere (issue 12), and the false positives they fixed.

Every example here was written for this test; none comes from an evaluation set.
"""

from __future__ import annotations

import pytest

from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.detection.regex import RegexDetector

DETECTOR = RegexDetector()


def found(text: str) -> dict[str, str]:
    return {text[d.start : d.end]: d.category for d in resolve_overlaps(DETECTOR.detect(text))}


def raw(text: str) -> list[tuple[str, str, str | None]]:
    return [(text[d.start : d.end], d.category, d.rule_id) for d in DETECTOR.detect(text)]


@pytest.mark.parametrize(
    ("text", "surface", "category"),
    [
        ("Pop round to 12 rue des Capucins tomorrow.", "12 rue des Capucins", "street address"),
        ("Our office: 7 Kerkstraat, 2000 Antwerpen", "7 Kerkstraat", "street address"),
        ("Sent to 31 Lindenallee last week.", "31 Lindenallee", "street address"),
        ("PSC 2210, Box 4410\nAPO AE 09021", "PSC 2210, Box 4410", "street address"),
        ("Unit 4452 Box 0921\nDPO AP 96540", "DPO AP 96540", "street address"),
        ("Mail goes to USNS Mercy, FPO AP 96672", "USNS Mercy", "street address"),
        ("Via Nazionale 44\n00184 Roma", "Via Nazionale 44", "street address"),
        ("you can reach me at 561 499 051 after six", "561 499 051", "phone number"),
        ("whatsapp me: 612 77 40 19", "612 77 40 19", "phone number"),
        ("She has just turned 29 and loves it.", "29", "age"),
        ("He moved abroad at the age of 48.", "48", "age"),
        ("The man, 61 years of age, was treated.", "61 years of age", "age"),
        ("my mum is 73, still cycling", "73", "age"),
        ("Licence number JONES710238HJ9KL is valid.", "JONES710238HJ9KL", "driver's license"),
        ("Medicare ID 3TW7-HN4-KP21 on the card.", "3TW7-HN4-KP21", "medical record number"),
        ("Medicare ID 3TW7HN4KP21 on the card.", "3TW7HN4KP21", "medical record number"),
        ("A silver Astra, BD51 SMR, was seen.", "BD51 SMR", "license plate"),
        ("Supplier NL004495445B01 invoiced us.", "NL004495445B01", "national id"),
        ("Unsere USt-IdNr. DE 136 695 976 steht unten.", "DE 136 695 976", "national id"),
        ("VAT no: GB 980 7806 84", "GB 980 7806 84", "national id"),
        ("Laptop S/N: 5CD2418KQ7 returned", "5CD2418KQ7", "internal id"),
        ("IMEI 490154203237518 was blocked", "490154203237518", "internal id"),
        ("log in as mary-jo-22 please", "mary-jo-22", "handle"),
        ("ping @ana-lucia on the forum", "@ana-lucia", "handle"),
        ("Found at 52.52003, 13.40495 yesterday.", "52.52003, 13.40495", "location"),
        ("Meet at 41.38879, 2.15899.", "41.38879, 2.15899", "location"),
        ("Found at -33.86882, 151.20929 yesterday.", "-33.86882, 151.20929", "location"),
        ("Pin: 51°30′26″N 0°7′39″W", "51°30′26″N 0°7′39″W", "location"),
        ("Her nationality: Eritrean, faith: Coptic", "Eritrean", "nationality or group"),
        ("He is a devout muslim.", "muslim", "nationality or group"),
        ("my neighbours are portuguese", "portuguese", "nationality or group"),
    ],
)
def test_new_rules_find_their_identifier(text: str, surface: str, category: str) -> None:
    result = found(text)
    assert result.get(surface) == category, result


@pytest.mark.parametrize(
    "text",
    [
        "Desk: 14C\nZIP: 30301\nMAC: 3a:11:09:ff:20:cb\nGateway: 192.168.8.1",
        "Floor: 3\nStatus: Closed\nPriority: P2",
        "VLAN: 210\nHost: db-02",
    ],
)
def test_field_labels_are_not_chat_speakers(text: str) -> None:
    assert not [r for r in raw(text) if r[2] == "person_speaker"]


def test_a_chat_speaker_is_still_found() -> None:
    text = "[21:03] noor: running late\n[21:04] kasper: fine, we wait"
    speakers = {s for s, _, rule in raw(text) if rule == "person_speaker"}
    assert speakers == {"noor", "kasper"}


@pytest.mark.parametrize(
    "text",
    [
        "Please pay to GB33 BUKB 2020 1555 5555 55 by Friday.",
        "IBAN: FR14 2004 1010 0505 0001 3M02 606 thanks",
    ],
)
def test_digit_groups_inside_an_iban_are_not_phones_or_cards(text: str) -> None:
    categories = {c for _, c, _ in raw(text)}
    assert "phone number" not in categories and "card number" not in categories


def test_uk_licence_needs_a_plausible_birth_date() -> None:
    assert found("Licence JONES713238HJ9KL").get("JONES713238HJ9KL") is None  # month 13


def test_vat_numbers_must_fit_their_country_format() -> None:
    assert "national id" not in found("Part DE12345 arrived.").values()


def test_coordinates_must_be_in_range() -> None:
    assert "location" not in found("Ratio 97.12345, 200.55555 measured.").values()


@pytest.mark.parametrize(
    "text",
    [
        "The order is 29 dollars.",
        "It is 48 minutes away.",
        "Section 12 applies.",
    ],
)
def test_numbers_that_are_not_ages_are_left_alone(text: str) -> None:
    assert "age" not in found(text).values()


def test_typed_street_does_not_swallow_the_postcode() -> None:
    text = "12 rue de la Paix, 75002 Paris"
    result = found(text)
    assert result.get("75002") == "postal code"
    assert result.get("12 rue de la Paix") == "street address"
