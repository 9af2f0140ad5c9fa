"""Organisations found by what the text says about them (issue 12, session 8): a bank or
insurer right before the account or policy it holds, the initials a text defines for an
organisation, and institutions named head word first (Banco Estado, Clinique des Tilleuls).

The examples were written for this test; none comes from an evaluation set.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from anonymizer.detection import get_detector
from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.combined import defined_acronyms
from anonymizer.detection.regex import RegexDetector
from anonymizer.types import Detection

DETECTOR = RegexDetector()
ORG = "organization"


def rule_orgs(text: str, rule_id: str) -> list[str]:
    return [text[d.start : d.end] for d in DETECTOR.detect(text) if d.rule_id == rule_id]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("paid from my AIB account (IE12 AIBK 9311 5212 3456 78) today", ["AIB"]),
        ("Not on insurance (QBE policy MOT-44017823) at the time.", ["QBE"]),
        ("The Revolut account ending 4421 is frozen.", ["Revolut"]),
        ("Please pay into the Current account 12345678 by Friday.", []),
        ("Send it to the Joint Savings account 4455 6677 please.", []),
        ("My Netflix account was charged twice.", []),  # no account number: a tool
        ("the USD/EUR account 87654321 and the VAT account 1234 5678", []),
        ("our ISA account 12345678 and the AWS account 123456789012", []),
    ],
)
def test_a_bank_before_the_account_it_holds_is_an_organisation(
    text: str, expected: list[str]
) -> None:
    assert rule_orgs(text, "bank_holding_account") == expected


def test_a_short_bank_name_is_kept_by_the_default_detector() -> None:
    text = "I paid the balance from my AIB account IE18 AIBK 0240 1234 5678 90."
    found = get_detector("combined").detect(text)
    assert any(text[d.start : d.end] == "AIB" and d.category == ORG for d in found)


def org(text: str, surface: str) -> Detection:
    start = text.index(surface)
    return Detection(start, start + len(surface), ORG, placeholder_for(ORG), "ner", 0.8)


def test_initials_defined_for_an_organisation_are_found_at_their_other_mentions() -> None:
    text = "She banks with Allied Irish Banks (AIB). The AIB branch shut; AIB's app failed."
    found = defined_acronyms(text, [org(text, "Allied Irish Banks")])
    assert [(text[d.start : d.end], d.start) for d in found] == [
        ("AIB", text.index("AIB")),
        ("AIB", text.index("AIB branch")),
        ("AIB", text.index("AIB's")),
    ]
    assert {d.category for d in found} == {ORG}


def test_initials_that_do_not_match_the_name_or_follow_no_organisation_are_left() -> None:
    text = "Allied Irish Banks (BOI) and the Data Protection Officer (DPO). Ask the DPO; BOI."
    assert defined_acronyms(text, [org(text, "Allied Irish Banks")]) == []
    assert defined_acronyms(text, []) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Transfer from Banco Estado to my account.", ["Banco Estado"]),
        ("the Clinique Vétérinaire des Tilleuls on Monday", ["Clinique Vétérinaire des Tilleuls"]),
        ("The Paróquia Nossa Senhora do Brasil hosts it.", ["Paróquia Nossa Senhora do Brasil"]),
        ("dinner at Restaurante Casa Paco Mayor with", ["Restaurante Casa Paco Mayor"]),
        ("at the Universität Wien and", ["Universität Wien"]),
        ("Bank Holiday Monday at the Hospital Road gate", []),  # English heads come last
        ("Klinik für Kardiologie, Station 4", []),  # a department
        ("the farmacia was closed", []),
        ("figures from the Instituto Nacional de Estadística", []),  # a public body
    ],
)
def test_institutions_named_head_word_first(text: str, expected: list[str]) -> None:
    assert rule_orgs(text, "organization_head_first") == expected


def test_the_organisation_and_group_noun_rules_stay_linear_on_hostile_input() -> None:
    """100 kB runs of capitalised words before "account" and after a head word, and of
    demonym prefixes and letters (`test_group_nouns.py`), finish in a child process."""
    hostile = [
        "Aa " * 33_000 + "account 12345678",
        "Banco " + "De " * 33_000,
        " account 1234" * 8_000,
        "nigerian" * 12_500,
        "Somali-" * 14_000,
        "south " * 16_000 + "africans",
    ]
    script = (
        "import sys\n"
        "from anonymizer.detection.regex import RegexDetector\n"
        "detector = RegexDetector()\n"
        "for text in sys.argv[1:]: detector.detect(text)\n"
    )
    subprocess.run([sys.executable, "-c", script, *hostile], check=True, timeout=120)
