"""Internal and reference ids after more of the guideline's keywords, and model spans cut
back to the name they contain. Every example was written for this test."""

from __future__ import annotations

import pytest

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.combined import THRESHOLD, is_cased, score_candidate, trim_span
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.detection.regex import RegexDetector
from anonymizer.types import Detection

DETECTOR = RegexDetector()
PER = "full person name"


def found(text: str) -> dict[str, str]:
    return {text[d.start : d.end]: d.category for d in resolve_overlaps(DETECTOR.detect(text))}


@pytest.mark.parametrize(
    ("text", "surface", "category"),
    [
        ("Her loyalty number: LX-558120 was merged.", "LX-558120", "internal id"),
        ("Pupil number P7781204 moved class.", "P7781204", "internal id"),
        ("Arresting officer, collar number 4471, noted it.", "4471", "internal id"),
        ("The dog's microchip 981020004417765 is registered.", "981020004417765", "internal id"),
        ("VIN: WVWZZZ1JZXW386752 on the logbook.", "WVWZZZ1JZXW386752", "internal id"),
        ("Your PNR is K7QX2M, keep it.", "K7QX2M", "reference id"),
        ("Bag tag SK419203 went to Oslo.", "SK419203", "reference id"),
        ("Crime reference 43/118820/24 was issued.", "43/118820/24", "reference id"),
        ("Certificate no. CPC-2291-B attached.", "CPC-2291-B", "reference id"),
        ("Mandate reference MND0098127 confirmed.", "MND0098127", "reference id"),
        ("[#551907] printer jams again", "#551907", "reference id"),
    ],
)
def test_guideline_ids_after_their_keywords(text: str, surface: str, category: str) -> None:
    assert found(text).get(surface) == category, found(text)


@pytest.mark.parametrize(
    "text",
    [
        "The report 2023 was long.",
        "No matter 1998 or 2004, it stays.",
        "Item #12 and #1234 are fine.",
        "The colour is &#160; in HTML.",
        "A bug in version 4.2 crashed it.",
    ],
)
def test_years_short_numbers_and_versions_are_not_ids(text: str) -> None:
    cats = set(found(text).values())
    assert not cats & {"reference id", "internal id"}, found(text)


def _span(text: str, surface: str, category: str) -> Detection:
    start = text.index(surface)
    return Detection(
        start, start + len(surface), category, placeholder_for(category), "ner", 0.8, "x"
    )


@pytest.mark.parametrize(
    ("text", "surface", "category", "expected"),
    [
        ("Pt Ilse Voss, 70yo", "Pt Ilse Voss", "full person name", ["Ilse Voss"]),
        ("hey, it's tomas - new phone", "tomas - new", "full person name", ["tomas"]),
        (
            "Oskar joined Brandt today",
            "Oskar joined Brandt",
            "full person name",
            ["Oskar", "Brandt"],
        ),  # fmt: skip
        (
            "il nostro cliente, il sig. Paolo Neri",
            "nostro cliente, il sig. Paolo Neri",
            "full person name",
            ["Paolo Neri"],
        ),  # fmt: skip
        ("Invoice from Harlow is overdue", "Harlow is overdue", "organization", ["Harlow"]),
        ("Bank of Leeds called", "Bank of Leeds", "organization", ["Bank of Leeds"]),
        ("moved here from united states", "united states", "location", ["united states"]),
        (
            "Anna van der Berg left",
            "Anna van der Berg",
            "full person name",
            ["Anna van der Berg"],
        ),  # fmt: skip
    ],
)
def test_model_spans_lose_the_common_words_they_swallowed(
    text: str, surface: str, category: str, expected: list[str]
) -> None:
    pieces = trim_span(text, _span(text, surface, category))
    assert [text[d.start : d.end] for d in pieces] == expected


def test_honorifics_stay_outside_the_name() -> None:
    text = "[10:02] Arun Bhaiya: ok, I told Verma ji"
    assert [text[d.start : d.end] for d in trim_span(text, _span(text, "Arun Bhaiya", PER))] == [
        "Arun"
    ]
    assert [text[d.start : d.end] for d in trim_span(text, _span(text, "Verma ji", PER))] == [
        "Verma"
    ]


CASED = "Greta wrote to the landlord on Monday. She said the heating in Flat 2 was broken."


@pytest.mark.parametrize(
    ("surface", "category"),
    [
        ("wrote to the landlord", "organization"),
        ("said the heating", "street address"),
        ("landlord", "location"),
    ],
)
def test_a_lower_case_phrase_from_the_model_is_not_a_name_or_place(
    surface: str, category: str
) -> None:
    assert is_cased(CASED)
    d = _span(CASED, surface, category)
    assert score_candidate(CASED, d, [], [d], [], cased=True) < THRESHOLD


@pytest.mark.parametrize(
    ("text", "surface", "category"),
    [
        ("Ask for Greta. she moved here from latvia last year, greta says.", "greta", PER),
        ("Her partner is latvian and Catholic, like Greta.", "latvian", "nationality or group"),
        ("Post it to Flat 9 please, Greta asked, flat 9 not 6.", "flat 9", "street address"),
        ("i live in port elmsford with jonas and greta now", "port elmsford", "location"),
    ],
)
def test_lower_case_names_places_groups_and_flats_are_kept(
    text: str, surface: str, category: str
) -> None:
    d = _span(text, surface, category)
    assert score_candidate(text, d, [], [d], [], cased=is_cased(text)) >= THRESHOLD


@pytest.mark.parametrize(
    ("text", "surface", "expected"),
    [
        ("kal bola tha Ravi uncle aayega", "bola tha Ravi", ["Ravi"]),
        ("dann kommt meine schwester Anja mit", "schwester Anja mit", ["Anja"]),
        ("Patient: keiko mori    MRN: 55", "keiko mori    MRN", ["keiko mori    MRN"]),
    ],
)
def test_a_person_span_is_cut_at_foreign_lower_case_words_beside_a_capitalised_name(
    text: str, surface: str, expected: list[str]
) -> None:
    pieces = trim_span(text, _span(text, surface, PER))
    assert [text[d.start : d.end] for d in pieces] == expected


def test_a_user_name_found_once_is_found_everywhere_in_the_document() -> None:
    from anonymizer.detection.combined import propagate_identifiers

    text = "posted by mausi_87 · reply: thanks mausi_87! (not mausi_870 or x.mausi_87)"
    start = text.index("mausi_87")
    seed = Detection(start, start + 8, "handle", placeholder_for("handle"), "regex", 0.75, "h")
    again = propagate_identifiers(text, [seed])
    assert [(d.start, text[d.start : d.end]) for d in again] == [
        (text.index("mausi_87!"), "mausi_87")
    ]


def test_a_form_label_that_speaks_once_is_not_a_name_but_chat_speakers_are() -> None:
    from anonymizer.detection.combined import combine

    form = "Fiche animal\nPropriétaire: M. Karim Haddad\nRace: berger"
    chat = "Odile: on part à 8h?\nBasile: oui\nOdile: parfait"
    stamped = "[09:14] Wendelin: I'm outside"
    for text, label, expected in [
        (form, "Propriétaire", False),
        (chat, "Basile", True),
        (stamped, "Wendelin", True),
    ]:
        kept = combine(text, DETECTOR.detect(text), [])
        names = {text[d.start : d.end] for d in kept if d.category == PER}
        assert (label in names) is expected, (label, names)


@pytest.mark.parametrize(
    ("text", "surface", "kept"),
    [
        ("03/02      03/02      TRANSFER", "03/02      03/02", False),
        ("Flight 204  Oslo 06:10 → Riga 08:05", "Oslo 06:10 → Riga", False),
        ("Deliver to 14 Harbour Row, Cobh", "14 Harbour Row", True),
    ],
)
def test_a_model_address_without_letters_or_with_a_clock_time_is_dropped(
    text: str, surface: str, kept: bool
) -> None:
    d = _span(text, surface, "street address")
    assert (score_candidate(text, d, [], [d], []) >= THRESHOLD) is kept
