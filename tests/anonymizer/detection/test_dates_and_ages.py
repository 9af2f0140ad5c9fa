"""Dates and ages as the annotation guideline marks them (bench/frozen/README.md).

Every day-precise date is a date (date part only, its weekday included; not times, weekdays
alone, months, years or month/year expiries); an age keeps its attached unit inside the span
("61-year-old") and its leading words outside ("just turned 29"). Every example here was
written for this test; none comes from an evaluation set.
"""

from __future__ import annotations

import pytest

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.combined import combine, with_age_unit
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.detection.regex import RegexDetector
from anonymizer.types import Detection

DETECTOR = RegexDetector()


def found(text: str) -> dict[str, str]:
    return {text[d.start : d.end]: d.category for d in resolve_overlaps(DETECTOR.detect(text))}


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("Boiler service booked for 9 October.", "9 October"),
        ("The hearing moved to Nov 21st.", "Nov 21st"),
        ("We signed on the 2nd of April in her kitchen.", "2nd of April"),
        ("See you on Thursday, 5 March then.", "Thursday, 5 March"),
        ("Arrived Sat 17 August 2019 late at night.", "Sat 17 August 2019"),
        ("Payment is due by the 28th, no later.", "the 28th"),
        ("Last seen 07-Feb-21 near the docks.", "07-Feb-21"),
        ("Exported 2019/11/30 from the old system.", "2019/11/30"),
        ("Stichtag 2021.06.15 laut Vertrag.", "2021.06.15"),
        ("Termin am 4. Februar 2022 bestätigt.", "4. Februar 2022"),
        ("Le contrat prend fin le 1er juillet.", "1er juillet"),
        ("Firmado el 9 de enero de 2020 en Cádiz.", "9 de enero de 2020"),
        ("Consegna prevista il 23 settembre.", "23 settembre"),
        ("Ze verhuist op 12 maart naar Gent.", "12 maart"),
    ],
)
def test_day_precise_dates_are_found(text: str, surface: str) -> None:
    assert found(text).get(surface) == "date", found(text)


@pytest.mark.parametrize(
    "text",
    [
        "The flat was let in May 2021 for a year.",
        "Card valid thru 08/27, keep it safe.",
        "We may 3 times a week go swimming.",
        "Her office is on the 4th floor now.",
        "It was his 3rd attempt at the exam.",
        "Release 2022.4.1 fixed the export bug.",
        "Open Monday to Friday, 9 to 5.",
        "Rooms 3 May-June are being painted.",
        "The 3rd of every month is bin day.",
        "Interest is 4.5 per cent from March.",
    ],
)
def test_months_years_expiries_versions_and_ordinals_are_not_dates(text: str) -> None:
    assert "date" not in found(text).values(), found(text)


def test_an_iso_time_stamp_gives_its_date_part() -> None:
    text = "2023-11-08T07:15:42Z WARN disk almost full"
    assert found(text).get("2023-11-08") == "date"


def test_a_date_that_starts_a_log_line_is_kept_by_the_combiner() -> None:
    text = "[2023-11-08 07:15] backup finished\n14/02/2022 09:30 user logged out"
    rules = DETECTOR.detect(text)
    kept = {text[d.start : d.end] for d in combine(text, rules, []) if d.category == "date"}
    assert kept == {"2023-11-08", "14/02/2022"}


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("Our neighbour, a 58-year-old pilot, saw it.", "58-year-old"),
        ("My grandad is 91 years old today.", "91 years old"),
        ("Pt is a 33 yo female with asthma.", "33 yo"),
        ("A five-year-old girl was found safe.", "five-year-old"),
        ("She is forty-two years old and retired.", "forty-two years old"),
        ("The deceased, 77 years of age, lived alone.", "77 years of age"),
        ("He died peacefully in his 96th year.", "96th year"),
        ("Her son, aged seven, was at school.", "seven"),
        ("Kemal just turned 40 and had a party.", "40"),
        ("Ines married at the age of 19.", "19"),
        ("Aged 52 years, non-smoker.", "52 years"),
    ],
)
def test_ages_keep_their_unit_and_leave_leading_words_outside(text: str, surface: str) -> None:
    assert found(text).get(surface) == "age", found(text)


@pytest.mark.parametrize(
    "text",
    [
        "It took 6 years to rebuild the church.",
        "The bridge reopened 20 years later.",
        "She turned three pages and stopped.",
        "Over 80s get the vaccine first.",
        "We waited 3 years ago for that.",
    ],
)
def test_durations_and_thresholds_are_not_ages(text: str) -> None:
    assert "age" not in found(text).values(), found(text)


def _age_at(text: str, surface: str) -> Detection:
    start = text.index(surface)
    return Detection(start, start + len(surface), "age", placeholder_for("age"), "ner", 0.8, "x")


@pytest.mark.parametrize(
    ("text", "number", "expected"),
    [
        ("a 64-year-old teacher", "64", "64-year-old"),
        ("he is 64 years old", "64", "64 years old"),
        ("Pt, 64yo, stable", "64", "64yo"),
        ("she is 64, and well", "64", "64"),
        ("64 years later it fell", "64", "64"),
    ],
)
def test_a_model_age_span_is_extended_over_its_attached_unit(
    text: str, number: str, expected: str
) -> None:
    d = with_age_unit(text, _age_at(text, number))
    assert text[d.start : d.end] == expected


def _person(text: str, surface: str) -> Detection:
    start = text.index(surface)
    return Detection(
        start, start + len(surface), "full person name", "[PERSON]", "ner", 0.9, "ner:PERSON"
    )


@pytest.mark.parametrize(
    ("text", "name", "age"),
    [
        ("Her daughter, Ama, 9, plays chess.", "Ama", "9"),
        ("Our son Tobias (16) stays home.", "Tobias", "16"),
        ("NOWAK, Jan (age forty) in custody.", "NOWAK, Jan", "forty"),
        ("Visited Lena Park, 33.", "Lena Park", "33"),
    ],
)
def test_an_age_right_after_a_name_is_found(text: str, name: str, age: str) -> None:
    kept = combine(text, [], [_person(text, name)])
    assert age in {text[d.start : d.end] for d in kept if d.category == "age"}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Morag Reid, 12, Comely Lane, Leith", "Morag Reid"),
        ("Report by Lena Park (2019) on housing.", "Lena Park"),
        ("Ama, 9 Church Street is her address.", "Ama"),
    ],
)
def test_house_numbers_and_years_after_a_name_are_not_ages(text: str, name: str) -> None:
    kept = combine(text, [], [_person(text, name)])
    assert not [d for d in kept if d.category == "age"]


def test_an_ordinal_day_heading_a_line_or_filling_a_table_cell_is_a_date() -> None:
    from anonymizer.detection.regex import RegexDetector

    detector = RegexDetector()
    for text, day in [
        ("Notes\n\nthe 19th – Declan interviewed. Denies the remark.", "the 19th"),
        ("220   the 23rd          Van 14 / CX 77 QL    (as above)", "the 23rd"),
        ("  the 4th: call the landlord back", "the 4th"),
    ]:
        dates = [text[d.start : d.end] for d in detector.detect(text) if d.category == "date"]
        assert dates == [day], text
    for text in ("the 21st century was kind", "It was the 2nd time", "on the 3rd floor"):
        assert not [d for d in detector.detect(text) if d.category == "date"], text


@pytest.mark.parametrize(
    ("text", "name", "age"),
    [
        ("Re: Ailsa Grant, 77, 14 Harbour Row, Oban", "Ailsa Grant", "77"),
        ("Attendees: Tomas Berg, 41\nVenue: hall B", "Tomas Berg", "41"),
        ("Ines Moreau, 38 · Lyon · nurse", "Ines Moreau", "38"),
        ("Tariq Aziz - 52 - Bradford", "Tariq Aziz", "52"),
    ],
)
def test_an_age_after_a_name_before_an_address_a_dot_or_the_line_end(
    text: str, name: str, age: str
) -> None:
    kept = combine(text, [], [_person(text, name)])
    assert age in {text[d.start : d.end] for d in kept if d.category == "age"}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Ailsa Grant, 14 Harbour Row, Oban", "Ailsa Grant"),
        ("Ailsa Grant, 14, Harbour Row", "Ailsa Grant"),  # a house number, then the street
        ("Tariq Aziz - 52 Bradford Road", "Tariq Aziz"),
    ],
)
def test_a_house_number_after_a_name_is_still_no_age(text: str, name: str) -> None:
    kept = combine(text, [], [_person(text, name)])
    assert not [d for d in kept if d.category == "age"]
