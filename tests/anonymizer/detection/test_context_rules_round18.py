"""Round-18 rules: month names of more languages, dates with CJK units, ages written the
ways other languages and informal English write them, Reddit users of up to 30 characters, a few
more keywords
(SRA ID, CNO registration, CRN, agent id, postal keys) and a list of banks and insurers.
Every example was written for this test; none comes from an evaluation set. Each positive
case fails on the rules of the last landed release (067bf91), and each negative case guards
a reading the rule must not take."""

from __future__ import annotations

import pytest

from anonymizer.detection.financial import FINANCIAL_INSTITUTIONS
from anonymizer.detection.regex import RegexDetector

DETECTOR = RegexDetector()


def _found(text: str, category: str) -> list[str]:
    return [text[d.start : d.end] for d in DETECTOR.detect(text) if d.category == category]


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("Wizyta 14 lutego 2024 r. w przychodni.", "14 lutego 2024"),
        ("Randevu 12 Mart 2025 saat 10'da.", "12 Mart 2025"),
        ("Приём назначен на 5 марта 2024 года.", "5 марта 2024"),
        ("Vi ses 3 augusti på stationen.", "3 augusti"),
        ("Programare pe 9 martie 2023.", "9 martie 2023"),
        ("Tarehe 5 Machi 2024 alifika.", "5 Machi 2024"),
        ("2024년 3월 5일 방문 예정", "2024년 3월 5일"),
        ("3月5号下午见", "3月5号"),
        ("Dated this 7th day of December, 2023.", "7th day of December, 2023"),
    ],
)
def test_dates_in_more_languages_are_found(text: str, date: str) -> None:
    assert date in _found(text, "date")


@pytest.mark.parametrize(
    "text",
    [
        "Room 13月 is closed.",  # no day after the month
        "version 2024年 release",
        "12月40日",  # no such day
    ],
)
def test_non_dates_stay_unmarked(text: str) -> None:
    assert _found(text, "date") == []


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("Il a 45 ans et vit seul.", "45 ans"),
        ("Mi hijo tiene 12 años.", "12 años"),
        ("La menor cuenta con 8 años de edad.", "8 años"),
        ("Mia madre ha 82 anni.", "82 anni"),
        ("Córka ma 19 lat.", "19 lat"),
        ("Ему 54 года.", "54 года"),
        ("Sie ist 32 Jahre alt.", "32 Jahre alt"),
        ("64 yaşındaki hasta", "64 yaşında"),
        ("Ông 72 tuổi rồi", "72 tuổi"),
        ("うちの子まだ8歳なのに", "8歳"),
        ("Edad: 45", "45"),
        ("Возраст: 61", "61"),
        ("she'll be 60 next month", "60"),
        ("the twins turn 18 in May", "18"),
        ("a lad of 15 was seen running", "15"),
        ("a 9-month-old baby", "9-month-old"),
        ("Happy 60th to Margaret!", "60th"),
    ],
)
def test_ages_are_found(text: str, age: str) -> None:
    assert any(age in found for found in _found(text, "age"))


@pytest.mark.parametrize(
    "text",
    [
        "Il y a 45 ans, la ville était petite.",
        "Tengo 10 años de experiencia en ventas.",
        "Lavoro qui da 20 anni.",
        "Ma 19 lat doświadczenia w branży.",
        "Seit 32 Jahren bei uns.",
        "The fee will be 60 next month.",
        "They will be 40 minutes late.",
        "Turn 2 on the left, then straight.",
        "turn 18 degrees to the left",
        "the son of 2 famous actors",
        "a patient of 3 years at the practice",
        "Happy 4th of July everyone",
    ],
)
def test_durations_and_counts_are_no_ages(text: str) -> None:
    assert _found(text, "age") == []


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        ("u/notalawyer_butlandlord · 6h", "handle", "notalawyer_butlandlord"),
        ("Senior Associate Solicitor, SRA ID 558217", "medical license", "558217"),
        ("CNO registration: 16049177", "medical license", "16049177"),
        ("Name: K. Mathias   CRN D482117", "reference id", "D482117"),
        ("Flagged as vulnerable. Agent id JH4471.", "internal id", "JH4471"),
        ("new.postal=419150 old.postal=460412", "postal code", "419150"),
        ('"postnr": "7013",', "postal code", "7013"),
        ("Pincode: 560034", "postal code", "560034"),
    ],
)
def test_keyword_values_are_found(text: str, category: str, value: str) -> None:
    assert value in _found(text, category)


def test_a_pin_code_stays_a_secret_not_a_postcode() -> None:
    assert _found("PIN code: 4821", "postal code") == []


@pytest.mark.parametrize(
    ("text", "org"),
    [
        ("my employer contribution to Scottish Widows is low", "Scottish Widows"),
        ("Insurer: Santam, he did not know his policy number", "Santam"),
        ("the Desjardins account was credited", "Desjardins"),
        ("przelew z PKO BP wczoraj", "PKO BP"),
        ("ゆうちょ銀行　記号 12340", "ゆうちょ銀行"),
    ],
)
def test_banks_and_insurers_are_organisations(text: str, org: str) -> None:
    assert org in _found(text, "organization")


@pytest.mark.parametrize(
    "text",
    [
        "We watched the game at the Barclays Center.",
        "Her DBS check came back clear.",
        "They chased the bus.",
    ],
)
def test_sponsored_venues_and_lookalikes_are_not_the_bank(text: str) -> None:
    assert not [d for d in DETECTOR.detect(text) if d.rule_id == "financial_institution"]


def test_the_list_leaves_out_everyday_words() -> None:
    assert not {"Chase", "Halifax", "Nationwide", "Zurich", "DBS"} & FINANCIAL_INSTITUTIONS


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        ("PTA会長の高橋さんから連絡です", "full person name", "高橋"),
        ("김민수 씨가 왔어요", "full person name", "김민수"),
        ("名義 タカハシ ケイコ（PTA会計）", "full person name", "タカハシ ケイコ"),
        ("〒223-0061 横浜市港北区日吉2-14-8", "location", "横浜市港北区"),
        ("주소: 부산 부산진구 중앙대로 691, 1204호", "location", "부산 부산진구"),
        ("주소: 부산 부산진구 중앙대로 691, 1204호", "street address", "중앙대로 691"),
    ],
)
def test_japanese_and_korean_names_and_addresses_are_found(
    text: str, category: str, value: str
) -> None:
    assert value in _found(text, category)


@pytest.mark.parametrize(
    "text",
    ["患者さんの容態", "고객 씨", "아저씨가 왔다", "마음씨가 좋다", "날씨가 좋다", "都市計画の話"],
)
def test_cjk_role_words_and_compounds_are_no_names_or_places(text: str) -> None:
    assert not [d for d in DETECTOR.detect(text) if d.rule_id.endswith("_cjk_honorific")]
    assert _found(text, "location") == []


def test_a_listed_bank_in_capitals_is_kept_by_the_combiner() -> None:
    from anonymizer.detection import get_detector

    text = "[15.05.2025, 09:14] Kasia W: to samo PKO tak."
    found = get_detector("combined").detect(text)
    assert ("PKO", "organization") in {(text[d.start : d.end], d.category) for d in found}


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        ("Enzo Ricard dit « Ziko », en fuite.", "full person name", "Ziko"),
        ('a man known as "Tiny" was seen', "full person name", "Tiny"),
        ("Anil ji ka beta handles IT now", "full person name", "Anil"),
        ("Samir can borrow from Rami's brother", "full person name", "Rami"),
        ("he took Maddie's phone", "full person name", "Maddie"),
        ("Bescheinigung Amtsgericht Tiergarten anbei.", "location", "Tiergarten"),
        ("Amtsgericht Frankfurt am Main, Az. 3 C 12/24", "location", "Frankfurt am Main"),
        ("Tribunale di Bologna, sezione lavoro", "location", "Bologna"),
        ("氏名：山田 太郎", "full person name", "山田 太郎"),
    ],
)
def test_nicknames_honorifics_relatives_and_court_places_are_found(
    text: str, category: str, value: str
) -> None:
    assert value in _found(text, category)


@pytest.mark.parametrize(
    "text",
    [
        "Google's phone support",
        "Mum's birthday",
        "Everyone's house",
        "Today's number",
        "Will's wife",
        "ゆうとの名前シールが貼って",
    ],
)
def test_everyday_words_before_s_and_after_labels_are_no_names(text: str) -> None:
    assert not [
        d
        for d in DETECTOR.detect(text)
        if d.rule_id in ("person_possessive_kin", "person_cjk_label")
    ]


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("od 19.05 do 23.05 byłam chora", ["19.05", "23.05"]),
        ("Urlaub 03.04–07.04, dann zurück", ["03.04", "07.04"]),
        ("ngày 5 tháng 3 năm 2024", ["ngày 5 tháng 3 năm 2024"]),
        ("2024. március 5. óta", ["2024. március 5."]),
    ],
)
def test_dotted_ranges_and_vietnamese_and_hungarian_dates_are_found(
    text: str, dates: list[str]
) -> None:
    assert set(dates) <= set(_found(text, "date"))


@pytest.mark.parametrize(
    "text", ["prices 19.05 - 23.05 EUR", "open from 10.05 to 12.00 daily", "v1.02 to 1.05"]
)
def test_amounts_and_times_in_a_range_are_no_dates(text: str) -> None:
    assert _found(text, "date") == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Matricola 884512", "884512"),
        ("Mitgliedsnummer M-20391", "M-20391"),
        ("nº de socio 00231", "00231"),
        ("Lidnummer: 4471902", "4471902"),
    ],
)
def test_member_and_staff_numbers_in_more_languages_are_internal_ids(text: str, value: str) -> None:
    assert value in _found(text, "internal id")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("security answer: Wieliczka", "Wieliczka"),
        ('memorable word is "pumpkin"', "pumpkin"),
        ("Mother's maiden name: Okafor", "Okafor"),
        ("Password – Summer2024!", "Summer2024"),
    ],
)
def test_security_answers_and_dashed_passwords_are_secrets(text: str, value: str) -> None:
    assert any(value in found for found in _found(text, "secret"))


@pytest.mark.parametrize(
    "text",
    [
        "My mother's maiden name is on file.",
        "the security answer is wrong",
        "password - please reset it",
    ],
)
def test_talk_about_security_answers_is_no_secret(text: str) -> None:
    assert _found(text, "secret") == []


def _combined_names(text: str) -> set[str]:
    from anonymizer.detection import get_detector

    found = get_detector("combined").detect(text)
    return {text[d.start : d.end] for d in found if d.category == "full person name"}


@pytest.mark.parametrize(
    ("text", "label"),
    [
        (
            "Geburtsdatum: 22.11.1989\nReligionsbekenntnis: römisch-katholisch",
            "Religionsbekenntnis",
        ),
        ("Estado civil: viúva\nProfissão: reformada", "Estado"),
        ("Odometer reading: 61,482 miles (stated)", "Odometer"),
        ("De: Mariela Quiroga <mquiroga@fibertel.com.ar>\nAsunto: reclamo", "De"),
    ],
)
def test_form_labels_and_mail_headers_are_no_chat_speakers(text: str, label: str) -> None:
    assert label not in _combined_names(text)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Nkechi wrote: hello\nAda: hi", "Nkechi"),
        ("trev noona: ok, tell seb to bring the keys", "trev"),
        ("kev: u coming\nsam: yeah\nkev: ok", "kev"),
    ],
)
def test_chat_speakers_stay_names(text: str, name: str) -> None:
    assert name in _combined_names(text)


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        ("Staatsbürgerschaft: österreichisch", "nationality or group", "österreichisch"),
        ("Religionsbekenntnis: islamisch (alevitisch)", "nationality or group", "islamisch"),
        ("— 14 листопада —", "date", "14 листопада"),
        ("Dato: 3. april 2025", "date", "3. april 2025"),
        ("حتى ٢ أبريل.", "date", "٢ أبريل"),
        ("il a eu 10 ans dimanche", "age", "10 ans"),
        ("elle aura 65 ans cet été", "age", "65 ans"),
        ("Le grand frère de Yasmine, Ilyas (15 ans), est déjà", "age", "15 ans"),
        ("• Ayaan Rahman (৮ বছর) — youngest", "age", "৮ বছর"),
        ("told her come back 4/17. her son", "date", "4/17"),
    ],
)
def test_round_18e_forms_are_found(text: str, category: str, value: str) -> None:
    assert value in _found(text, category)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Religionsbekenntnis: ohne Bekenntnis", "nationality or group"),
        ("Violations (3 yr): 1", "age"),
        ("——— Comments (3) ———", "age"),
        ("mix 1/2 cup flour", "date"),
        ("scored 4/5 on the test", "date"),
    ],
)
def test_round_18e_lookalikes_are_left(text: str, category: str) -> None:
    assert _found(text, category) == []


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        ("處方來源: 仁心內科診所 (0031), 國泰醫院 (0042)", "organization", "國泰醫院"),
        ("서울대학교병원에서 진료", "organization", "서울대학교병원"),
        ("值班藥師: 林志豪 (藥師證書字號 028745)", "full person name", "林志豪"),
        ("works for 黃先生's family", "full person name", "黃"),
        ("Le grand frère de Yasmine, Ilyas (15 ans), est", "full person name", "Ilyas"),
    ],
)
def test_round_18f_institutions_and_names_are_found(text: str, category: str, value: str) -> None:
    assert value in _found(text, category)


@pytest.mark.parametrize(
    "text", ["老先生說好", "各位先生女士", "the Acts (12 years) were", "Kids (3 yrs)"]
)
def test_round_18f_lookalikes_are_no_names(text: str) -> None:
    assert _found(text, "full person name") == []


def test_cjk_rules_have_their_own_ids_and_run_only_in_cjk_lines() -> None:
    from anonymizer.detection.regex import CJK_RULES, RULES, cjk_line_windows

    assert not {r.rule_id for r in CJK_RULES} & {r.rule_id for r in RULES}
    text = "Dear Ms Ito,\n担当: 山田 太郎\nThanks"
    assert cjk_line_windows(text) == [(13, 22)]
    assert "山田 太郎" in _found(text, "full person name")
    without = RegexDetector(cjk_rules=()).detect(text)
    assert not [d for d in without if d.rule_id == "person_cjk_label"]
