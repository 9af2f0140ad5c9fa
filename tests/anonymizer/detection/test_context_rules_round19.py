"""Round-19 rules: day ranges after a month, dates with a space after each dot, dates of birth
after 'born' in other languages, ages written as one word with their suffix, first names
after relatives and roles in several languages, logins after an action in a log, the second
value after a nationality or religion key, and door codes after their keyword in other
languages; school names with their level in lower case (École secondaire des Érables) or after
l', nurses' licences and French bar numbers (toque), a staff code in brackets after a name, one
GPS coordinate after its key, Taiwanese Minguo dates and Polish cities in a case ending.
Every example was written for this test; none comes from an evaluation set. Each
positive case fails on the rules of the last landed release (850d851), and each negative
case guards a reading the rule must not take."""

from __future__ import annotations

import pytest

from anonymizer.detection.regex import RegexDetector

DETECTOR = RegexDetector()


def _found(text: str, category: str) -> list[str]:
    return [text[d.start : d.end] for d in DETECTOR.detect(text) if d.category == category]


def _found_by_round_19(text: str, category: str) -> list[str]:
    return [
        text[d.start : d.end]
        for d in DETECTOR.detect(text)
        if d.category == category and d.rule_id in ROUND_19
    ]


ROUND_19 = {
    "date_month_day_range",
    "date_dotted_spaced",
    "date_of_birth_intl_key",
    "age_year_old_suffix",
    "person_after_kin_intl",
    "handle_by_in_log",
    "nationality_or_religion_intl_second",
    "access_code_intl",
    "internal_id_in_brackets_after_name",
    "medical_license",
    "organization_head_first",
    "gps_key_value",
    "date_taiwan_minguo",
    "location_polish_locative",
}


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        ("The audit runs November 4-6 at the depot.", "date", "November 4-6"),
        ("Closed Dec 24–26, 2025 for the holidays.", "date", "Dec 24–26, 2025"),
        ("Schůzka je 4. 11. 2025 v devět.", "date", "4. 11. 2025"),
        ("Pacientka, nar. 2. 3. 1971, přišla sama.", "date of birth", "2. 3. 1971"),
        ("Pacjent Jan Nowak, ur. 14.06.1958, zgłosił ból.", "date of birth", "14.06.1958"),
        ("Anna Berger, geb. 9.1.1966, wohnhaft in Graz", "date of birth", "9.1.1966"),
        ("Mannen, en 52-åring från Lund, greps.", "age", "52-åring"),
        ("Potilas on 79-vuotias ja asuu yksin.", "age", "79-vuotias"),
        ("Der 34-Jährige wurde festgenommen.", "age", "34-Jährige"),
        ("Die 81-jährige Patientin klagt über Schwindel.", "age", "81-jährige"),
        ("Sie wird im Mai 70-jährig.", "age", "70-jährig"),
        ("De 27-jarige vrouw werd gewond.", "age", "27-jarige"),
        ("Ring til min datter eller sønnen Frederik i aften.", "full person name", "Frederik"),
        ("Tytär Aino hakee hänet perjantaina.", "full person name", "Aino"),
        ("Szefowa Bożena podpisała wniosek.", "full person name", "Bożena"),
        ("Mon fils Théo a de la fièvre.", "full person name", "Théo"),
        ("Ask your broker Amr about the fee.", "full person name", "Amr"),
        ("PR 88 merged by tkaminski; tests green", "handle", "tkaminski"),
        ("job 7781 triggered by dnguyen on main", "handle", "dnguyen"),
        ("Staatsangehörigkeit: deutsch / kroatisch", "nationality or group", "kroatisch"),
        ("Ethnicity: Māori – Ngāi Tahu", "nationality or group", "Ngāi Tahu"),
        ("Porttikoodi: 5821, älä jaa sitä.", "secret", "5821"),
        ("Kod do domofonu: 1947 — nie podawaj nikomu.", "secret", "1947"),
        (
            "Il est inscrit à l'École primaire des Tilleuls.",
            "organization",
            "École primaire des Tilleuls",
        ),
        ("Sie besucht die Grundschule Am Park in Kassel.", "organization", "Grundschule Am Park"),
        ("NY RN license 71RN55031200 expired in 2019.", "medical license", "71RN55031200"),
        ("Maître Paul Girard, barreau de Paris, toque 2209.", "medical license", "2209"),
        ("Agent: Rosa Quintero (AQ2207)", "internal id", "AQ2207"),
        ('{"home": {"lat": 48.2082, "lng": 16.3738}}', "location", "16.3738"),
        ("zone:\n  latitude: 41.8827\n  longitude: -87.6233", "location", "-87.6233"),
        ("接種日期 112/09/14 第二劑", "date", "112/09/14"),
        ("Rozprawa odbyła się w Gdańsku, świadek przyjechał z Krakowa.", "location", "Gdańsku"),
        ("Świadek przyjechał z Krakowa pociągiem.", "location", "Krakowa"),
    ],
)
def test_round_19_values_are_found(text: str, category: str, value: str) -> None:
    assert value in _found(text, category)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("The 3-jährige Ausbildung beginnt im Herbst.", "age"),  # a duration
        ("Eine 5-jährige Garantie ist inklusive.", "age"),
        ("en 3-årig uddannelse i København", "age"),
        ("Mutter Erde braucht Schutz.", "full person name"),  # a common word, not a name
        ("Tochter Firma und Mutter Konzern", "full person name"),
        ("deployed by system on 2024-05-01", "handle"),  # a common word
        ("approved by admin, 2024-05-01", "handle"),
        ("Staatsangehörigkeit: brasilianisch, Reisepass-Nr. FX482163", "nationality or group"),
        ("Score 4-6 in October", "date"),
        ("Installed the Windows (KB5034441) update today.", "internal id"),
        ("Calibration accredited by SANAS (M0213), page 1 of 1", "internal id"),  # a body
        ("Religion: Islam (nach eigenen Angaben)", "nationality or group"),  # a preposition
        ("Flight via Boeing (BA0419) was late.", "internal id"),
        ("une toque blanche 2024 pour le chef", "medical license"),
        ("We met at the gymnasium on Friday.", "organization"),
        ("Sprawa w Sądzie Rejonowym, wyrok w Polsce.", "location"),  # not a city's stem
        ("long: 12.5 km, lat: 3.1", "location"),  # fewer than three decimals
    ],
)
def test_round_19_rules_leave_these_alone(text: str, category: str) -> None:
    assert _found_by_round_19(text, category) == []
