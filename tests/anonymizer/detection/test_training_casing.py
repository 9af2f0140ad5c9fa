"""Casing augmentation of hand-written training documents keeps every gold offset exact."""

from __future__ import annotations

from typing import Any

import pytest

from anonymizer.detection.training.casing import (
    CASING_MODES,
    casing_copies,
    recased,
    same_length_case,
)

TEXT = (
    "Patient: Jürgen Straße, age 41\n"
    "Employer: Velo Mobile GmbH, Köln\n"
    "Notes: call back tomorrow\n"
    "Contact kev on j.strasse@example.org"
)


def span(text: str, value: str, label: str) -> dict[str, Any]:
    start = text.index(value)
    return {"start": start, "end": start + len(value), "label": label}


@pytest.fixture
def doc() -> dict[str, Any]:
    spans = [
        span(TEXT, "Jürgen Straße", "full person name"),
        span(TEXT, "41", "age"),
        span(TEXT, "Velo Mobile GmbH", "organization"),
        span(TEXT, "Köln", "location"),
        span(TEXT, "kev", "full person name"),
        span(TEXT, "j.strasse@example.org", "email address"),
    ]
    return {"id": "trna-001", "genre": "form", "text": TEXT, "spans": spans}


def values(doc: dict[str, Any]) -> list[str]:
    return [doc["text"][s["start"] : s["end"]] for s in doc["spans"]]


def test_characters_whose_case_change_is_longer_are_kept() -> None:
    assert "ß".upper() == "SS"
    assert same_length_case("Straße", str.upper) == "STRAßE"
    assert same_length_case("İstanbul", str.lower) == "İstanbul"  # "i̇" is two characters


@pytest.mark.parametrize("mode", CASING_MODES)
def test_every_gold_span_still_covers_the_same_string_up_to_case(
    doc: dict[str, Any], mode: str
) -> None:
    copy = recased(doc, mode)
    assert len(copy["text"]) == len(doc["text"])
    assert copy["spans"] == doc["spans"]
    assert [v.casefold() for v in values(copy)] == [v.casefold() for v in values(doc)]
    assert copy["text"].casefold() == doc["text"].casefold()


def test_upper_lines_capitalises_the_lines_holding_a_name_or_place_only(
    doc: dict[str, Any],
) -> None:
    lines = recased(doc, "upper-lines")["text"].split("\n")
    assert lines[0] == "PATIENT: JÜRGEN STRAßE, AGE 41"
    assert lines[1] == "EMPLOYER: VELO MOBILE GMBH, KÖLN"
    assert lines[2] == "Notes: call back tomorrow"  # no span of the NER's categories
    assert lines[3] == "CONTACT KEV ON J.STRASSE@EXAMPLE.ORG"


def test_lower_names_lowers_people_and_organisations_only(doc: dict[str, Any]) -> None:
    copy = recased(doc, "lower-names")
    assert values(copy)[:4] == ["jürgen straße", "41", "velo mobile gmbh", "Köln"]
    assert copy["text"].startswith("Patient: jürgen straße, age 41\nEmployer: velo")


def test_an_unknown_mode_is_refused(doc: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="casing mode"):
        recased(doc, "title")


def test_copies_are_a_seeded_share_of_the_documents_holding_a_recased_span(
    doc: dict[str, Any],
) -> None:
    docs = [{**doc, "id": f"trna-{n:03d}"} for n in range(10)]
    docs.append({"id": "trna-999", "text": "ref 1234", "spans": [span("ref 1234", "1234", "age")]})
    copies = casing_copies(docs, 0.5, seed=3)
    assert len(copies) == 5
    assert copies == casing_copies(docs, 0.5, seed=3)
    assert {c["id"].split("~")[1] for c in copies} == set(CASING_MODES)
    assert all(not c["id"].startswith("trna-999") for c in copies)
    assert casing_copies(docs, 0.0, seed=3) == []
    with pytest.raises(ValueError, match="share"):
        casing_copies(docs, 1.5, seed=3)


def test_recased_copies_become_examples_with_the_same_entity_tokens(doc: dict[str, Any]) -> None:
    spacy = pytest.importorskip("spacy")
    from anonymizer.detection.training.handwritten import hand_examples

    nlp = spacy.blank("en")
    original, upper = hand_examples(nlp, [doc, recased(doc, "upper-lines")])
    assert [(e.start_char, e.end_char, e.label_) for e in upper.reference.ents] == [
        (e.start_char, e.end_char, e.label_) for e in original.reference.ents
    ]
    assert [e.text for e in upper.reference.ents] == [
        "JÜRGEN STRAßE",
        "VELO MOBILE GMBH",
        "KÖLN",
        "KEV",
    ]
