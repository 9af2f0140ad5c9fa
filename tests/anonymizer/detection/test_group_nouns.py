"""Nationalities, peoples and faiths named as nouns (issue 12, session 8): plurals and nouns
of every country's demonym ("Nigerians", "somalis", "a Kurd"), the demonyms themselves taken
from `countryinfo`'s country data rather than a list fitted to our documents, and the
adjective that names a state's institution ("the Nigerian embassy") left alone.

The examples were written for this test; none comes from an evaluation set.
"""

from __future__ import annotations

import pytest

from anonymizer.detection import get_detector
from anonymizer.detection.regex import RegexDetector
from anonymizer.detection.wordlists import (
    NATIONALITY_WORDS,
    country_demonyms,
    plural_group_nouns,
)

DETECTOR = RegexDetector()
GROUP = "nationality or group"


def groups(text: str) -> list[str]:
    return sorted(
        text[d.start : d.end]
        for d in DETECTOR.detect(text)
        if d.category == GROUP and d.rule_id == "group_noun"
    )


def test_demonyms_come_from_the_country_data_split_and_without_territory_names() -> None:
    demonyms = country_demonyms()
    assert {"bahraini", "sierra leonean", "new zealander", "antiguan", "barbudan"} <= demonyms
    assert {"gibraltar", "christmas island", "djibouti"}.isdisjoint(demonyms)
    assert not [d for d in demonyms if " and " in d or "," in d or "/" in d]
    assert demonyms <= NATIONALITY_WORDS


def test_plurals_skip_demonyms_that_have_none() -> None:
    plurals = plural_group_nouns(frozenset({"nigerian", "somali", "czech", "swiss", "irish"}))
    assert plurals == {"nigerians", "somalis", "czechs"}
    assert plural_group_nouns(frozenset({"chinese", "french", "dutch"})) == frozenset()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Two Nigerians and a Ghanaian were on the list.", ["Nigerians"]),
        ("the eritreans at the shelter need interpreters", ["eritreans"]),
        (
            "There were three Somalis and two south africans in the class.",
            ["Somalis", "south africans"],
        ),
        ("The Hindus and Jews of the town met in the hall.", ["Hindus", "Jews"]),
        ("as a Kurd, he was afraid to go back; the Brits left", ["Brits", "Kurd"]),
        (
            "a Pole and a Dane; the Poles and wires, Great Danes, the Nordics; Muslims",
            ["Dane", "Muslims", "Pole"],
        ),
    ],
)
def test_nouns_for_a_nation_people_or_faith_are_found_in_any_case(
    text: str, expected: list[str]
) -> None:
    assert groups(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "We ate Thai food and sat by the French windows.",
        "The tent poles and the swede soup were left on the danes' table.",
        "The Nigerianness of the plot; Jewson sells poles.",
        "Hinduism and Judaism were on the syllabus.",
    ],
)
def test_adjectives_everyday_words_and_longer_words_are_not_group_nouns(text: str) -> None:
    assert groups(text) == []


def test_a_nationality_naming_a_state_institution_is_not_a_person_s_group() -> None:
    detector = get_detector("combined")
    for text in (
        "She went to the Nigerian embassy to renew it.",
        "The Polish authorities were informed on Monday.",
    ):
        assert not [d for d in detector.detect(text) if d.category == GROUP]
    said = "Her landlord is Nigerian and lives upstairs."
    assert any(d.category == GROUP for d in detector.detect(said))
