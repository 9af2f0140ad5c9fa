"""Round-20 rules: a Spanish floor and door (3ºB, bajo derecha), Hungarian dates without a
year, ages with their unit in Scandinavian, Polish, Greek and Arabic, an alarm or key-safe
code right after its keyword, Polish and Czech court file numbers, Brazilian invoice numbers,
Japanese and Korean names before a title (山田様, 佐藤課長), month/day dates after "through"
or "overnight", nationalities before "member", "guest" or "appearance", streets after "Av.",
Chinese road, lane and house numbers (和平東路二段96巷7號) after a Taiwanese district (區),
names with their nickname in brackets (Mere (goes by Mez), Tendai (Tee to all of us)), and
the speakers of KakaoTalk exports (한도윤 오후 9:20); nationality keys in ten more languages
and values in any script (Volkszugehörigkeit: Tatare, Citizenship: Ελληνική), and a keyword's
value after a full-width colon (Passport No.：).
Every example was written for this test; none comes from an evaluation set. Each positive
case fails on the rules of the last landed release (ef8afa4), and each negative case guards
a reading the rule must not take."""

from __future__ import annotations

import pytest

from anonymizer.detection.combined import trim_span
from anonymizer.detection.regex import RegexDetector
from anonymizer.types import Detection

DETECTOR = RegexDetector()


def _found(text: str, category: str) -> list[str]:
    return [text[d.start : d.end] for d in DETECTOR.detect(text) if d.category == category]


@pytest.mark.parametrize(
    ("text", "category", "value"),
    [
        ("Vivo en Gran Vía 40, 5ºC, Madrid.", "street address", "5ºC"),
        ("Soy Marta, la del 3º B, os dejo el número.", "street address", "3º B"),
        ("Entregar en el 1º izq. antes de las diez.", "street address", "1º izq."),
        ("El vecino del bajo derecha tiene la llave.", "street address", "bajo derecha"),
        ("A találkozó május 14. délután lesz.", "date", "május 14."),
        ("Október 3-án indulunk Győrbe.", "date", "Október 3-án"),
        ("Datteren er 12 år og går på skolen.", "age", "12 år"),
        ("Pasienten er 71 år gammel.", "age", "71 år gammel"),
        ("Sonen är 6 år och börjar skolan.", "age", "6 år"),
        ("Zmarł w wieku 84 lat w szpitalu.", "age", "84 lat"),
        ("Ο ασθενής, 58 ετών, προσήλθε με πόνο.", "age", "58 ετών"),
        ("المريضة، العمر: 42 سنة، وصلت صباحا", "age", "42 سنة"),
        ("جدي عمره ٩١ سنة", "age", "٩١ سنة"),
        ("Back door key | alarm 5930 | cat upstairs", "secret", "5930"),
        ("Keysafe 7714 by the garage.", "secret", "7714"),
        ("La caja de llaves para la entrada: 3391.", "secret", "3391"),
        ("Sygn. akt II C 731/23 — wyrok zaoczny", "reference id", "II C 731/23"),
        ("apelacja w sprawie I ACa 1502/2022 oddalona", "reference id", "I ACa 1502/2022"),
        ("FIR No. 88/2023 was lodged at the station.", "reference id", "88/2023"),
        ("Segue a nota fiscal 012.774 para pagamento.", "reference id", "012.774"),
        ("Cancelamos a NF-e 3381 emitida ontem.", "reference id", "3381"),
        ("田中様、ご予約ありがとうございます。", "full person name", "田中"),
        ("営業部の渡辺部長に確認します。", "full person name", "渡辺"),
        ("The excuse covers 3/9 through 3/13 only.", "date", "3/13"),
        ("Car parked on Elm overnight 7/22 was towed.", "date", "7/22"),
        ("Oficina en Av. Libertador 2210, piso 4.", "street address", "Av. Libertador 2210"),
        ("Kontor: Andrássy sugárút 12. III/4", "street address", "Andrássy sugárút 12."),
        ("地址：新北市板橋區文化路一段188巷3號5樓", "street address", "文化路一段188巷3號5樓"),
        ("寄到 南京西路1266号 谢谢", "street address", "南京西路1266号"),
        ("地址：新北市板橋區文化路一段188巷3號5樓", "location", "新北市板橋區"),
        ("Intake: Rose (goes by Ro) came in alone.", "full person name", "Rose"),
        ("Intake: Dot (nicknamed Dottie) came in alone.", "full person name", "Dottie"),
        ("Our cousin Babajide (Jide to the family) flies in.", "full person name", "Jide"),
        ("Giuseppe (detto Peppe) ha chiamato.", "full person name", "Giuseppe"),
        ("박서준 오후 3:05\n내일 봬요\n김하늘 오후 3:07\n네", "full person name", "박서준"),
        ("護照號碼 Passport No.：K20931847", "passport number", "K20931847"),
        ("Volkszugehörigkeit: Tscherkessin", "nationality or group", "Tscherkessin"),
        ("Национальность: чеченка", "nationality or group", "чеченка"),
        ("Nemzetiség: cigány", "nationality or group", "cigány"),
        ("Citizenship: Κυπριακή", "nationality or group", "Κυπριακή"),
        ("國籍 Nationality：泰國", "nationality or group", "泰國"),
        (
            "[이지은] [오전 11:40] 네\n[최유리] [오전 11:41] 감사합니다",
            "full person name",
            "이지은",
        ),
        ("민재 엄마 오후 8:01\n감사합니다\n담임 오후 8:03\n네", "full person name", "민재"),
    ],
)
def test_round_20_values_are_found(text: str, category: str, value: str) -> None:
    assert value in _found(text, category)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("She is the kenyan member of the choir.", "kenyan"),
        ("A Ghanaian guest checked in late.", "Ghanaian"),
        ("Suspect two: slim, asian appearance, black cap.", "asian"),
    ],
)
def test_a_nationality_before_member_guest_or_appearance_is_said_of_a_person(
    text: str, value: str
) -> None:
    """The list word alone scores below the threshold (`nationality_word`); said of a person
    it is kept."""
    found = [d for d in DETECTOR.detect(text) if d.rule_id == "nationality_before_person"]
    assert [text[d.start : d.end] for d in found] == [value]


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Ganó el 1º premio en 2º grado.", "street address"),  # ordinals, no door
        ("Tenía un 3ºAB de media.", "street address"),
        ("The meeting is in November 2024.", "date"),  # no day after the month
        ("Vi bodde der i 9 år.", "age"),  # a duration after a preposition
        ("Han er født for 40 år siden.", "age"),  # 'ago'
        ("w 2 roku studiów", "age"),  # the year of a course
        ("The alarm 2024 model is louder.", "secret"),  # a year, not a code
        ("World War II ended in 1945/46 for some.", "reference id"),
        ("Chapter IV Part 3/4 is missing.", "reference id"),
        ("O NF cobra 1.500 reais?", "reference id"),  # 'NF' needs the number next to it
        ("お客様へ、皆様にお知らせします。", "full person name"),  # 'customer', 'everyone'
        ("고객님 안녕하세요, 사장님께 전달했습니다.", "full person name"),  # role words
        ("Add 3/4 cup through 1/2 in the bowl.", "date"),  # a measure
        ("Card good thru 09/28, keep it safe.", "date"),  # a card's expiry
        ("EU member states and the European member states agreed.", "nationality or group"),
        ("我住在3号楼，第5号房间", "street address"),  # a building and a room, no road
        ("See Table (called T1 below) and Apple (known as AAPL).", "full person name"),
        ("Meta (aka Facebook) settled.", "full person name"),
        ("Sent it (Thanks to everyone) yesterday.", "full person name"),
        ("회의는 오후 3:05\n시작합니다", "full person name"),  # a time in a sentence
        ("Národnost: neuvedeno, viz níže", "nationality or group"),  # 'not given'
    ],
)
def test_round_20_rules_leave_these_alone(text: str, category: str) -> None:
    round_20 = {
        "floor_and_door",
        "date_vietnamese_hungarian",
        "age_have_years",
        "age_greek",
        "age_arabic",
        "access_code",
        "court_case_signature",
        "invoice_number_br",
        "reference_id",
        "person_cjk_job_title",
        "date_month_day_in_context",
        "nationality_before_person",
        "street_address_chinese",
        "person_before_nickname",
        "person_nickname_in_brackets",
        "person_kakaotalk_speaker",
        "nationality_or_religion",
        "nationality_or_religion_intl",
    }
    found = [d for d in DETECTOR.detect(text) if d.category == category]
    assert [text[d.start : d.end] for d in found if d.rule_id in round_20] == []


def test_a_chat_line_time_word_is_cut_from_a_name() -> None:
    text = "한도윤 오후 9:20"
    span = Detection(0, 6, "full person name", "[PERSON]", "ner", 0.8, "ner:PERSON")
    assert [text[d.start : d.end] for d in trim_span(text, span)] == ["한도윤"]
