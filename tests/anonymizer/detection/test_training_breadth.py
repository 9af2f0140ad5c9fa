"""The generator's breadth genre: the name, organisation, place and group forms hand-written
text has (word-like, short, capitalised, honorific-marked names; associations; real towns)."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from anonymizer.detection.training import breadth, codeswitch
from anonymizer.detection.training.synth import generate


@pytest.fixture(scope="module")
def surfaces() -> dict[str, list[str]]:
    docs = [d for d in generate(500, seed=31) if d["genre"] == "breadth"]
    assert len(docs) >= 20
    found: dict[str, list[str]] = defaultdict(list)
    for doc in docs:
        for s in doc["spans"]:
            found[s["label"]].append(doc["text"][s["start"] : s["end"]])
    found["_text"] = [d["text"] for d in docs]
    return found


def test_word_like_short_initial_and_hyphenated_names_are_people(
    surfaces: dict[str, list[str]],
) -> None:
    people = set(surfaces["full person name"])
    assert people & set(breadth.WORDLIKE_FIRST)
    assert people & set(breadth.SHORT_FORMS)
    assert people & set(breadth.INITIALS)
    assert any(re.fullmatch(r"[A-ZÀ-Þ][\w']+-[A-ZÀ-Þ][\w']+", p) for p in people)
    assert any(p.isupper() and len(p.split()) >= 3 for p in people)  # PERIS ALANDETE, VICENT


def test_an_honorific_after_a_name_stays_outside_the_person(surfaces: dict[str, list[str]]) -> None:
    honorifics = {h.lower() for h in breadth.HONORIFICS_AFTER}
    for name in surfaces["full person name"]:
        assert name.lower().split()[-1] not in honorifics, name
        assert not re.search(r"-(san|kun|chan|sama|ji)$", name, re.IGNORECASE), name
    text = "\n".join(surfaces["_text"]).lower()
    assert sum(re.search(rf"\w[ -]{re.escape(h)}\b", text) is not None for h in honorifics) >= 5


def test_capitalised_organisations_keep_their_legal_suffix_whole(
    surfaces: dict[str, list[str]],
) -> None:
    orgs = surfaces["organization"]
    assert any(o.isupper() for o in orgs)
    assert any(o.endswith(("S.L.U.", "GmbH", "Sp. z o.o.", "S.A.", "LTD", "B.V.")) for o in orgs)
    assert not any(o.endswith((" z", " Sp.")) for o in orgs)


def test_towns_are_real_places_and_groups_are_lower_case(surfaces: dict[str, list[str]]) -> None:
    towns = set(breadth.real_towns())
    assert len(towns) > 10_000
    places = surfaces["location"]
    assert sum(p in towns for p in places) >= len(places) // 2
    assert any(g.islower() for g in surfaces["nationality or group"])


def test_a_name_that_is_also_a_street_word_is_no_tagalog_first_name() -> None:
    assert "Cherry" not in codeswitch.FIRST_NAMES["fil_PH"]
