"""Deterministic regex PII detector: each rule has an id, category, confidence and rationale.

Hand-written because the seed's sanitizer is not a maintained package; the rules cover its
categories and add secrets, IPv6, crypto wallets and international formats. Check digits
(`checksums.py`: Luhn, IBAN mod-97, ABA, Base58Check, Bech32) cut false positives on
number-like strings; capitalised-name heuristics are guarded by word lists (`wordlists.py`).

Speed: every pattern is compiled once; matches can only start at a token boundary and every
repeat is bounded, so no input makes a rule rescan quadratically; a rule with `anchors` is
tried only where one of its keywords occurs (all keywords found in one Hyperscan pass), and
every other rule only where the shared prefilter pass (`prefilter.py`) says a match can
start. A new rule must be one of these (tests/anonymizer/detection/test_prefilter.py).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.checksums import (
    aadhaar_valid,
    aba_routing_valid,
    base58check_valid,
    bech32_valid,
    codice_fiscale_valid,
    cpf_valid,
    digits_in_phone_range,
    dni_nie_valid,
    domestic_account_valid,
    eleven_digit_id_valid,
    iban_valid,
    ipv4_valid,
    ipv6_valid,
    looks_like_secret,
    luhn_checksum_ok,
    luhn_valid,
    national_id_by_shape_valid,
    personnummer_valid,
    phone_plausible,
    ssn_valid,
)
from anonymizer.detection.financial import FINANCIAL_INSTITUTIONS
from anonymizer.detection.gazetteer import city_names
from anonymizer.detection.line_language import (
    LANGUAGES,
    VERY_COMMON_ZIPF,
    line_language,
    word_in_any_language,
    word_zipf,
)
from anonymizer.detection.names import (
    is_common_non_name,
    is_known_name,
    known_names,
    romanised_given_name,
    zipf,
)
from anonymizer.detection.prefilter import (
    Gates,
    LiteralScanner,
    Prefilter,
    hyperscan_available,
    opens_with_word_boundary,
)
from anonymizer.detection.view import detection_view
from anonymizer.detection.wordlists import (
    CAPITALISED_GROUP_NOUNS,
    FIELD_LABELS,
    FOREIGN_GROUP_WORDS,
    GROUP_NOUNS,
    NATIONALITY_WORDS,
    NEVER_A_NAME_ALONE,
    NON_NAME,
    NOT_A_NAME,
    PLACES,
    RELIGION_WORDS,
    STARTERS,
    STOP_AFTER_NAME,
    plural_group_nouns,
)
from anonymizer.types import Detection

__all__ = [
    "HIGH",
    "LOW",
    "MEDIUM",
    "RULES",
    "RegexDetector",
    "Rule",
    "iter_matches",
    "lower_same_length",
    "luhn_valid",
    "rule_table",
    "unrestricted_rules",
]

HIGH, MEDIUM, LOW = 0.95, 0.75, 0.5

Refiner = Callable[[str, int, int], "tuple[int, int] | None"]
Span = tuple[int, int]


@dataclass(frozen=True)
class Trigger:
    """A cheap pattern for a part of every match; a match starts at most `before` characters
    before the trigger's start and ends at most `after` characters after its end."""

    pattern: re.Pattern[str]
    before: int
    after: int

    def windows(
        self, text: str, matches: Iterable[re.Match[str]] | None = None
    ) -> list[tuple[int, int]]:
        """Merged windows around the trigger's matches (`matches`: those of a full
        `finditer`, when they were found another way)."""
        merged: list[list[int]] = []
        for m in self.pattern.finditer(text) if matches is None else matches:
            low = max(0, m.start() - self.before)
            if merged and low <= merged[-1][1] and m.end() + self.after <= merged[-1][1]:
                continue
            high = _word_end(text, min(len(text), m.end() + self.after))
            if merged and low <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], high)
            else:
                merged.append([low, high])
        return [(low, high) for low, high in merged]


_WORD_REST = re.compile(r"\S{0,64}")


def _word_end(text: str, index: int) -> int:
    """`index` moved past the rest of a word (at most 64 characters), so that a window does
    not end inside one."""
    return _WORD_REST.match(text, index).end()


@dataclass(frozen=True)
class Rule:
    """One detection rule.

    `group` picks the capture group that is the PII (context words stay outside the span);
    `validate` checks the matched value; `refine` may move the span's ends or reject it
    (None); `requires` lists lower-case literals of which one must occur for the rule to run;
    `anchors` lists lower-case literals of which every match starts with one; `trigger`
    finds a rare part every match contains (an organisation's legal suffix, a state and ZIP),
    so the full pattern only runs in windows around it.
    """

    rule_id: str
    category: str
    pattern: re.Pattern[str]
    confidence: float
    rationale: str
    validate: Callable[[str], bool] | None = None
    group: int = 0
    refine: Refiner | None = None
    requires: tuple[str, ...] = ()
    anchors: tuple[str, ...] = ()
    trigger: Trigger | None = None

    @property
    def placeholder(self) -> str:
        return placeholder_for(self.category)


# --------------------------------------------------------------------------- value checks


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


# A word that says the number after it is only a masked number's end ("ending 8810").
_MASKED_END = re.compile(r"(?i:ending|ends|last|last4|finishing)[ ]")


def _id_value(value: str) -> bool:
    """An identifier value: contains a digit, is not a bare year and is not the end of a
    masked number ("account number ending 8810")."""
    return (
        _has_digit(value)
        and not re.fullmatch(r"(?:19|20)\d\d", value)
        and not _MASKED_END.match(value)
    )


def _plate_value(value: str) -> bool:
    compact = re.sub(r"[ -]", "", value)
    return 4 <= len(compact) <= 9 and _has_digit(compact) and any(c.isalpha() for c in compact)


# Words for a vehicle and common makes and models, in the languages of our documents: a
# national-format plate right after one of them is a registration.
VEHICLE_WORDS = frozenset(
    """
car vehicle truck lorry motorbike motorcycle moped scooter taxi minibus suv
hatchback saloon sedan campervan motorhome caravan
auto autos wagen fahrzeug pkw lkw transporter kombi voiture véhicule camionnette camion
coche vehículo furgoneta camión furgone macchina veicolo carro viatura samochód pojazd
bil fordon
vw volkswagen passat touran ford toyota corolla yaris prius
bmw audi mercedes benz renault clio megane peugeot citroën citroen fiat
skoda škoda octavia fabia opel vauxhall corsa astra nissan qashqai micra honda
hyundai kia volvo ibiza tesla mazda dacia sandero suzuki mitsubishi subaru
jeep porsche
""".split()
)
# Models whose name is also an ordinary word ("in focus this week", "in transit", "golf
# club"): a vehicle only written as a name, capitalised or in capitals ("a silver Golf",
# "FORD TRANSIT"); SEAT only in capitals ("Seat 14A" is on a boarding pass).
VEHICLE_MODEL_WORDS = ("Focus", "Transit", "Golf", "Polo", "Fiesta", "Panda", "Civic", "Leon")
VEHICLE_MODEL_WORDS_CAPS = ("SEAT", "SPRINTER", "DUSTER")
# Vehicle nouns that are also other words (the Dutch particle in "Jan van Dijk", a "cab"
# file, a film trailer, a pickup time): a vehicle after an article, a possessive or a
# colour or kind ("the van", "a white van", "delivery van", "black cab").
VEHICLE_NOUNS_AFTER_DETERMINER = ("van", "cab", "trailer", "pickup", "minivan")
_VEHICLE_DETERMINERS = (
    "the a an my his her our their your this that white silver black red blue grey gray green"
    " delivery hire rental removal transit work company camper tow horse"
).split()


def _vehicle_word_pattern() -> str:
    """The vehicle words of `plate_near_vehicle`: plain vehicle words and makes in any case,
    ambiguous model names only as names, ambiguous nouns only after a determiner."""
    determiners = "|".join(f"(?<=\\b{w}[ ])" for w in _VEHICLE_DETERMINERS)
    models = "|".join(
        [*VEHICLE_MODEL_WORDS, *(w.upper() for w in VEHICLE_MODEL_WORDS), *VEHICLE_MODEL_WORDS_CAPS]
    )
    nouns = "|".join(VEHICLE_NOUNS_AFTER_DETERMINER)
    return (
        rf"(?i:\b(?:{word_alternation(VEHICLE_WORDS)}))"
        rf"|\b(?:{models})"
        rf"|(?i:(?:{determiners})(?:{nouns}))"
    )


VEHICLE_ANCHORS = tuple(
    sorted(
        VEHICLE_WORDS
        | {w.lower() for w in (*VEHICLE_MODEL_WORDS, *VEHICLE_MODEL_WORDS_CAPS)}
        | set(VEHICLE_NOUNS_AFTER_DETERMINER)
    )
)
# National plate layouts, upper case (a UK plate also in lower case); each needs letters and
# digits, so that a year or a model name ("Golf GTI 2019", "BMW 320d") is not one.
PLATE_FORMATS = (
    r"("
    r"[A-HJ-PR-Y]{2}\d{2}[ ]?[A-HJ-PR-Z]{3}|(?i:[a-hj-pr-y]{2}\d{2}[ ]?[a-hj-pr-z]{3})"  # UK
    r"|[A-Z]{2}[ -]?\d{1,2}[ -]?[A-Z]{1,3}[ -]?\d{4}"  # IN
    r"|\d{2,3}-?[A-Z]{1,2}-?\d{1,6}"  # IE
    r"|[A-ZÄÖÜ]{1,3}[ -][A-Z]{1,2}[ -]?\d{1,4}[EH]?"  # DE
    r"|[A-Z]{1,2}[ -]\d{1,5}[ -]?[A-Z]{1,3}"  # AT
    r"|[A-Z]{2}[ -]?\d{3}[ -]?[A-Z]{2}"  # FR, IT
    r"|\d{4}[ -]?[B-DF-HJ-NP-TV-Z]{3}"  # ES
    r"|[A-Z0-9]{1,3}-[A-Z0-9]{2,3}-[A-Z0-9]{1,2}"  # NL, BE, PT
    r"|[A-Z]{2,3}[ ]?(?!(?:19|20)\d\d\b)[A-Z0-9]{4,5}"  # PL
    r"|[A-Z]{3}[ ]?\d{2}[A-Z0-9]"  # SE
    r"|(?:AG|AI|AR|BE|BL|BS|FR|GE|GL|GR|JU|LU|NE|NW|OW|SG|SH|SO|SZ|TG|TI|UR|VD|VS|ZG|ZH)"
    r"[ ]?\d{1,6}"  # CH
    r"|\d[A-Z]{3}\d{3}|[A-Z]{3}[ -]?\d{3}"  # AU, US
    r")(?![\w-])"
)


# Things with numbers of their own: between "licence" and "no." they own the number.
_OTHER_NUMBERED = (
    r"\b(?:fees?|invoices?|orders?|receipts?|payments?|accounts?|tickets?|bills?|ref"
    r"|reference|policy|contract|agreement|keys?|booking|case|customer|transaction|serial"
    r"|seat|product|subscription|purchase|renewal)\b"
)


def _plate_not_a_model(value: str) -> bool:
    """A plate has letters and at least two digits, 5-10 characters in all (Indian plates
    have ten), and is written in groups unless its letters and digits alternate as only a
    plate's do (AB12CDE, 7ABC123): a device or model name (FMC130) is one run."""
    compact = re.sub(r"[ -]", "", value)
    digits = sum(c.isdigit() for c in compact)
    if not (5 <= len(compact) <= 10 and 2 <= digits < len(compact)):
        return False
    return compact != value or bool(_UNGROUPED_PLATE.fullmatch(value))


_UNGROUPED_PLATE = re.compile(
    r"(?i:[a-z]{2}\d{2}[a-z]{3})|\d[A-Z]{3}\d{3}|\d{4}[A-Z]{3}|[A-Z]{2}\d{3}[A-Z]{2}"
)


# ISO 3166-1 alpha-2 codes, for the SWIFT/BIC shape check.
ISO_COUNTRIES = frozenset(
    """
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR
BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ
EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW
GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY
KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV
MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY
QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG
TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA
ZM ZW
""".split()
)


def _swift_shape(value: str) -> bool:
    """Strict BIC shape without context: a real country code and a digit or branch code, and
    not a word written in capitals ("DECLARATION")."""
    if value[4:6] not in ISO_COUNTRIES or zipf(value.lower()) > 0:
        return False
    return len(value) == 11 or any(c.isdigit() for c in value[6:])


def _date_valid(value: str) -> bool:
    numbers = [int(n) for n in re.findall(r"\d+", value)]
    if re.fullmatch(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}", value):
        return 1 <= numbers[1] <= 12 and 1 <= numbers[2] <= 31
    if re.fullmatch(r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}", value):
        a, b = numbers[0], numbers[1]
        return 1 <= a <= 31 and 1 <= b <= 31 and (a <= 12 or b <= 12)
    return True


def _day_of_month_valid(value: str) -> bool:
    day = re.search(r"\d+", value)
    return day is not None and 1 <= int(day.group()) <= 31


_NUMBER_WORDS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    " sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety"
).split()
NUMBER_WORD = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four"
    r"|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven"
    r"|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)"
)
# What follows an age as its unit, inside the span: "61-year-old", "62 years old", "74 yo".
AGE_UNIT = (
    r"(?:[ -]?(?:years?|yrs?)[ -]old\b|-year-old|[ ]?y/o\b|[ ]?y\.o\.|[ ]?yo\b"
    r"|[ ]years?[ ]of[ ]age\b|[ -](?:months?|weeks?)[ -]old\b)"
)


def _age_valid(value: str) -> bool:
    numbers = re.findall(r"\d+", value)
    if numbers:
        return 0 < int(numbers[0]) <= 120
    return value.lower().replace("-", " ").split(" ")[0] in _NUMBER_WORDS


def _uk_licence_valid(value: str) -> bool:
    """UK driving licence: 5 surname characters (9-padded), then YMMDDY with month +50 for
    women, initials and check characters (DVLA layout), also written in spaced parts."""
    digits = value.replace(" ", "")[5:11]
    month = int(digits[1:3]) % 50
    day = int(digits[3:5])
    return 1 <= month <= 12 and 1 <= day <= 31


def _coordinates_valid(value: str) -> bool:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", value)[:2]]
    return len(numbers) == 2 and abs(numbers[0]) <= 90 and abs(numbers[1]) <= 180


def _vat_shape(value: str) -> bool:
    compact = re.sub(r"[ .-]", "", value).upper()
    return bool(_VAT_FORMATS.fullmatch(compact))


def _iban_shape(value: str) -> bool:
    """An IBAN's layout (country code, two digits, 11-30 more letters or digits), without
    its check digits: after the word IBAN a hand-typed account number still counts."""
    compact = re.sub(r"[\s.-]", "", value).upper()
    return compact[:2] in ISO_COUNTRIES and 15 <= len(compact) <= 34


def _four_digits(value: str) -> bool:
    return sum(c.isdigit() for c in value) >= 4


# EU (and UK, Swiss, Norwegian) VAT numbers by country, from the EU VIES formats.
_VAT_FORMATS = re.compile(
    r"ATU\d{8}|BE[01]\d{9}|BG\d{9,10}|CY\d{8}[A-Z]|CZ\d{8,10}|DE\d{9}|DK\d{8}|EE\d{9}"
    r"|EL\d{9}|GR\d{9}|ES[A-Z0-9]\d{7}[A-Z0-9]|FI\d{8}|FR[A-HJ-NP-Z0-9]{2}\d{9}"
    r"|GB(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})|XI\d{9}|HR\d{11}|HU\d{8}|IE\d{7}[A-W][A-I]?"
    r"|IE\d[A-Z+*]\d{5}[A-W]|IT\d{11}|LT(?:\d{9}|\d{12})|LU\d{8}|LV\d{11}|MT\d{8}"
    r"|NL\d{9}B\d{2}|PL\d{10}|PT\d{9}|RO\d{2,10}|SE\d{12}|SI\d{8}|SK\d{10}"
    r"|CHE\d{9}(?:MWST|TVA|IVA)?|NO\d{9}(?:MVA)?"
)


# --------------------------------------------------------------------------- building blocks


def _char_class(predicate: Callable[[str], bool]) -> str:
    """A regex class body of the letters (Latin, Greek, Cyrillic) that satisfy predicate."""
    blocks = (
        (0x41, 0x5A),
        (0x61, 0x7A),
        (0xC0, 0x24F),
        (0x370, 0x3FF),
        (0x400, 0x4FF),
        (0x1E00, 0x1EFF),
    )
    points = [c for lo, hi in blocks for c in range(lo, hi + 1) if predicate(chr(c))]
    ranges: list[str] = []
    start = prev = points[0]
    for point in [*points[1:], -1]:
        if point == prev + 1:
            prev = point
            continue
        ranges.append(chr(start) if start == prev else f"{chr(start)}-{chr(prev)}")
        start = prev = point
    return "".join(ranges)


U = _char_class(lambda c: c.isupper())
L = _char_class(lambda c: c.islower())
# A capitalised name token: Ana, Müller, O'Neil, McDonald, Jean-Luc, Łukasz, Иван.
NAME_REST = rf"(?:['’][{U}])?[{L}]{{1,30}}(?:[{U}][{L}]{{1,30}})?(?:-[{U}][{L}]{{1,30}})?"
NAME = rf"[{U}]{NAME_REST}"
# A name token in any case, for strong contexts ("patient: jose alvarez").
NAME_ANY = rf"[{U}{L}](?:[{U}{L}]|['’-](?=[{U}{L}])){{1,30}}"
INITIAL = rf"[{U}]\.?"
PARTICLES = frozenset(
    "van von der den de del della di da do dos das du la le ten ter bin ibn al el zu y".split()
)
PARTICLE = "(?:" + "|".join(sorted(PARTICLES, key=len, reverse=True)) + ")"
_NEXT_NAME = rf"[ \t]+(?:{INITIAL}[ \t]+)?(?:{PARTICLE}[ \t]+){{0,2}}{NAME}"
NAME_REST_RUN = rf"{NAME_REST}(?:{_NEXT_NAME}){{1,3}}"
TITLED_RUN = rf"(?:{INITIAL}[ \t]+(?:[{U}]\.[ \t]+)?)?{NAME}(?:{_NEXT_NAME}){{0,2}}"
NAME_END = r"(?![\w@]|-\w)"
CAP_REST = r"(?:[\w'’-]|\.(?=\w)){0,40}"
CAP_WORD = rf"[{U}]{CAP_REST}"


def _first(char_class: str, not_before: str) -> str:
    """The first character of a match, which must not follow a `not_before` character.

    Written as a class plus a two-character look-behind rather than a leading look-behind,
    so that the regex engine can jump straight to candidate characters.
    """
    return f"{char_class}(?<!{not_before}.)"


CAP_FIRST = _first(f"[{U}]", r"[\w&'’.-]")
CJK = "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\u3040-\u30ff"
# Scripts without letter case (CJK, Hangul, Kana, Devanagari, Arabic, Hebrew, Thai): the
# capitalisation heuristics cannot see names written in them.
CASELESS = CJK + "\u0900-\u097f\u0600-\u06ff\u0590-\u05ff\u0e00-\u0e7f"
_CASELESS_WORD_REST = rf"[{CASELESS}’'\u200c\u200d]{{0,20}}"
CASELESS_RUN_REST = rf"{_CASELESS_WORD_REST}(?:[ ][{CASELESS}]{_CASELESS_WORD_REST}){{0,2}}"
CASELESS_RUN = rf"[{CASELESS}]{CASELESS_RUN_REST}"
# An any-case name, or a name in a caseless script, after a strong context word.
CONTEXT_NAME = rf"(?:{NAME_ANY}(?:[ \t]+{NAME_ANY}){{0,2}}|{CASELESS_RUN})"
MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
DATE_TEXT = (
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?[ ]+(?:of[ ]+)?{MONTH}\.?,?[ ]+\d{{4}}"
    rf"|{MONTH}\.?[ ]+\d{{1,2}}(?:st|nd|rd|th)?,?[ ]+\d{{4}})"
)
DATE_NUM = r"(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2}))"
ORG_SUFFIX = (
    r"(?:Inc\.?|Incorporated|Corp\.?|Corporation|Co\.,?[ ]?Ltd\.?|CO\.,?[ ]?LTD\.?|Co\.|Company|LLC"
    r"|L\.L\.C\.|LLP|L\.P\.|Ltd\.?|LTD\.?(?!-)|INC\.|CORP\."
    r"|Limited|PLC|plc|GmbH(?:[ ]&[ ]Co\.[ ]KG)?|AG|KG|KGaA|OHG|e\.V\.|S\.A\.S\.|S\.A\.|SAS|SARL"
    r"|S\.à[ ]r\.l\.|SA|S\.L\.|SL|S\.r\.l\.|Srl|S\.p\.A\.|SpA|SPA|S\.Coop\.|B\.V\.|BV|N\.V\.|NV"
    r"|A/S|ApS|AB|ASA|Oy|Oyj|K\.K\.|Pty(?:[ ]Ltd\.?)?|Pvt\.?[ ]Ltd\.?|sp\.[ ]z[ ]o\.o\.|s\.r\.o\."
    r"|a\.s\.|k\.s\.|Kft\.?|Zrt\.?|Bt\.?|Kkt\.?|(?:&|and)[ ]Sons|Group|Holdings?|Partners"
    r"|Associates|Foundation|Bank|University|Hospital|Clinic|Institute|Labs|Technologies"
    r"|(?:Building[ ])?Society|College|Trust|Authority|Agency|Commission|Association|Cooperative"
    r"|Solutions|Systems|Consulting|Industries|Ltda\.?|EIRELI|[-–][ ]ME|S\.A\.R\.L\.|o\.s\."
    r"|v\.o\.s\.|spol\.[ ]s[ ]r\.o\.|A\.Ş\.|Α\.Ε\.|Ο\.Ε\.|Ε\.Π\.Ε\.|ΙΚΕ)"
)
# Institutions that treat or teach a person: a capitalised name before these is an
# organisation even where the model reads part of it as a person ("Leeds General Infirmary").
INSTITUTION_SUFFIX = (
    r"(?:Infirmary|(?:Primary|Secondary|High|Grammar|Junior|Infant)[ ]School|Academy|Surgery"
    r"|Pharmacy|Parish|(?:Medical|Health)[ ]Cent(?:re|er))"
)
STREET_SUFFIX = (  # USPS Publication 28 street suffixes (common subset) and UK types
    r"(?:Street|St|Road|Rd|Avenue|Ave|Av|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Way|Place|Pl"
    r"|Terrace|Ter|Square|Sq|Parkway|Pkwy|Highway|Hwy|Close|Crescent|Cres|Row|Mews|Gardens"
    r"|Gdns|Grove|Hill|Circle|Cir|Trail|Trl|Alley|Plaza|Quay|Walk|Park|Path|Pike|Loop"
    r"|Expressway|Freeway|Turnpike|Crossing|Bridge|Brook|Burgs?|Bypass|Canyon|Causeway|Center"
    r"|Centre|Cliffs?|Common|Corner|Cove|Creek|Crest|Dale|Estates?|Falls?|Ferry|Fields?|Flats?"
    r"|Ford|Forest|Forge|Fork|Fort|Garden|Gateway|Glen|Green|Harbor|Harbour|Haven|Heights"
    r"|Hollow|Island|Isle|Junction|Knolls?|Lakes?|Landing|Lodge|Manor|Meadows?|Mill|Mission"
    r"|Motorway|Mount|Mountain|Orchard|Oval|Pass|Pines?|Plains?|Point|Port|Prairie|Ranch|Rapids"
    r"|Ridge|River|Route|Shoals?|Shore|Spring|Springs|Station|Stream|Summit|Trace|Track"
    r"|Tunnel|Union|Valley|Via|View|Village|Ville|Vista|Wells?)"
)
# The word before a flat, suite or room number in an address line.
# Abbreviated words inside a street's name: a saint, a title or an initial of the person it
# is named after ("27 Sto. Niño St.", "Gen. Luna St.", "P. Burgos Ave", "Dr. M. L. King Jr. Blvd").
STREET_NAME_ABBREVIATION = r"(?:Sto|Sta|Ste|St|Mt|Ft|Gen|Sen|Pres|Dr|Msgr|Jr|[A-Z])\."
UNIT_WORD = r"(?:Apt\.?|Apartment|Suite|Ste\.?|Unit|Flat|Floor|Fl\.?|Room|Rm\.?)"
US_STATES = (
    r"(?:AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV"
    r"|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|PR|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY)"
)
# A phone line's label written right after its number: "(office)", "-Fax", " / mobile".
PHONE_LABELS = ("office", "fax", "mobile", "cell", "home", "work", "landline", "direct", "tel")
_PHONE_LABEL_AFTER = rf"[ ]?(?:[-–/][ ]?|\()(?i:{'|'.join(PHONE_LABELS)})\b"
# Between a keyword and its value: "Badge n° 0044", "Nr.: 5512", "(PNR): K7Q2XM",
# "'nie': 'Y2484036G'", "mi DNI es 26477377F".
KEY_SEP = (  # a full-width colon too, as Chinese and Japanese forms write it ("ID No.：")
    r"[\"']?[ \t]*\)?[ \t]*(?:(?:n[º°]|(?i:nr)|no(?=\.))\.?[ \t]*)?"
    r"(?:[:#=：]|is|was|ist|es|est|-)?[ \t]*[(\"']?"
)

# An identifier after its keyword, also written in groups: "RMT 77120 4458", "0044 1873",
# "RR 6148 2291 077-4" (letters, then digit groups; a digit group never runs into a decimal).
_GROUP = r"(?:[ ]\d{2,6}(?:-\d{1,2})?(?![\w-]|[.,]\d)){1,3}"
ID_VALUE = (  # "CU 4471209", "AB 12 34 56", "0412 5567", "KD-4471-X"
    rf"#?([A-Z]{{1,4}}[ ]\d{{7,12}}(?![\w-]|[.,]\d)|[A-Z]{{1,4}}{_GROUP}|\d{{2,6}}{_GROUP}"
    rf"|[A-Za-z0-9][A-Za-z0-9_/-]{{{{min}},24}}(?:{_GROUP})?)(?![\w-])"
)

# --------------------------------------------------------------------------- refiners

_TOKEN = re.compile(r"\S+")
_NOT_NAME_START = STARTERS | NON_NAME
_NOT_NAME_ANYWHERE = NON_NAME | PLACES
_NOT_AFTER_TITLE = STARTERS | NON_NAME | PLACES
_ENDS_CONTEXT_NAME = STOP_AFTER_NAME | NOT_A_NAME
# Words that open what a speaker says ("Customer: good afternoon"), never a name after a label.
_SPEECH_OPENERS = frozenset(
    "good hello hi hey hiya morning afternoon evening thanks thank yes yeah no ok okay please"
    " sorry sure welcome bye".split()
)
_POSSESSIVE_ENDS = ("'s", "’s")


def _tokens(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text, start, end)]


def _bare(token: str) -> str:
    bare = token.strip(".,;:!?")
    return (bare[:-2] if bare.endswith(_POSSESSIVE_ENDS) else bare).lower()


def _is_name_token(token: str) -> bool:
    bare = token.rstrip(".")
    return len(bare) > 1 and bare.lower() not in PARTICLES


def _bare_words(words: list[str]) -> list[str]:
    """`_bare` of each word (inlined: the refiners below run on every name-like match)."""
    bares = []
    for word in words:
        bare = word.strip(".,;:!?")
        bares.append((bare[:-2] if bare.endswith(_POSSESSIVE_ENDS) else bare).lower())
    return bares


def _words_span(text: str, start: int, words: list[str], first: int, last: int) -> Span:
    """Where `words[first]` starts and `words[last - 1]` ends, for `words` the whitespace-split
    `text[start:...]`: each word is the first occurrence of itself after the previous one, as
    only whitespace lies between (`str.split` and `re`'s `\\s` agree on what whitespace is)."""
    position = low = start
    for index in range(last):
        position = text.find(words[index], position)
        if index == first:
            low = position
        position += len(words[index])
    return low, position


def refine_name_run(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Trim common words off a capitalised run; keep it only if two name-like words remain."""
    words = text[start:end].split()
    bares = _bare_words(words)
    first, last = 0, len(words)
    while first < last and bares[first] in _NOT_NAME_START:
        first += 1
    while first < last and (
        bares[last - 1] in _NOT_NAME_START or not _is_name_token(words[last - 1])
    ):
        last -= 1
    if first == last or not _is_name_token(words[first]):
        return None
    if not any(_is_name_token(word) for word in words[first + 1 : last]):
        return None  # one name-like word only
    if any(bare in _NOT_NAME_ANYWHERE for bare in bares[first:last]):
        return None
    return _words_span(text, start, words, first, last)


_DOTTED_INITIAL = re.compile(r"[^\W\d_]\.")


def refine_cjk_titled_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The name at the end of a CJK run written before a title ("人事部佐藤" before 課長 gives
    佐藤): its longest tail of two to four characters that is a known name and no frequent
    word, or a known surname and given name; None when no tail is."""
    from anonymizer.detection.cjk_names import cjk_full_name, cjk_name_like

    names = known_names()
    for offset in range(max(start, end - 4), end - 1):
        tail = text[offset:end]
        if (tail in names and cjk_name_like(tail)) or cjk_full_name(tail):
            return offset, end
    return None


_NICKNAME = re.compile(r"[A-Z][a-z][\w'’-]{0,19}")
NICKNAME_CUE = r"(?:goes[ ]by|nicknamed)[ ]+"  # what opens a bracket that gives a nickname
_NICKNAME_CUE = re.compile(NICKNAME_CUE)
NICKNAME_MAX_ZIPF = 4.5  # "tee" 3.8 is a nickname before "to all of us"; "thanks" 5.4 is not


def _nickname_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The nickname inside a bracketed match of `person_nickname_in_brackets` (its first
    capitalised word after the cue, or the word before "to all of us")."""
    inner = text[start + 1 : end]
    cue = _NICKNAME_CUE.match(inner)
    name = _NICKNAME.search(inner, cue.end() if cue else 0)
    if name is None or (not cue and zipf(name.group().casefold()) >= NICKNAME_MAX_ZIPF):
        return None  # "(Thanks to everyone)"
    return start + 1 + name.start(), start + 1 + name.end()


# Korean words for a relation or role written after a name ("서윤 어머님", Seoyun's mother).
_KOREAN_ROLE_AFTER = re.compile(r"[ ](?:어머님|아버님|어머니|아버지|엄마|아빠|선생님|쌤|님)$")


_KAKAOTALK_TURN = re.compile(
    r"^\[?[가-힣]{2,4}(?:[ ][가-힣]{1,4})?\]?[ ]\[?(?:오전|오후)[ ]\d{1,2}:\d{2}", re.MULTILINE
)


@lru_cache(maxsize=8)
def _is_kakaotalk_export(text: str) -> bool:
    """Two turns or more in KakaoTalk's layout: one line of that shape is a sentence."""
    turns = _KAKAOTALK_TURN.finditer(text)
    return next(turns, None) is not None and next(turns, None) is not None


def refine_korean_speaker(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The speaker's name without a role word after it; None when only the role is left or
    the text is no chat export ("회의는 오후 3:05" alone is "the meeting is at 3:05 pm")."""
    if not _is_kakaotalk_export(text):
        return None
    role = _KOREAN_ROLE_AFTER.search(text, start, end)
    if role is not None:
        end = role.start()
    return (start, end) if end - start >= 2 else None


def refine_titled_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A name after a title or role word: drop trailing non-name words; reject a non-name."""
    tokens = _tokens(text, start, end)
    named = [t for t in tokens if not _DOTTED_INITIAL.fullmatch(t[2])]  # "A. M. Dunlop"
    if not named or _bare(named[0][2]) in _NOT_AFTER_TITLE:
        return None
    while len(tokens) > 1 and _bare(tokens[-1][2]) in _NOT_AFTER_TITLE:
        tokens.pop()
    return tokens[0][0], tokens[-1][1]


def refine_context_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """An any-case name after a label or greeting: stop at the first common word."""
    words = text[start:end].split()
    if not words:
        return None
    bares = _bare_words(words)
    if bares[0] in NOT_A_NAME or bares[0] in _SPEECH_OPENERS:
        return None
    kept = 1
    while kept < len(words) and bares[kept] not in _ENDS_CONTEXT_NAME:
        kept += 1
    while kept > 1 and bares[kept - 1] in PARTICLES:
        kept -= 1
    if any(bare in _NOT_NAME_ANYWHERE for bare in bares[:kept]):
        return None
    first_start, last_end = _words_span(text, start, words, 0, kept)
    while last_end > first_start and text[last_end - 1] in ".,;:!?":
        last_end -= 1
    return first_start, last_end


# Words between the person called and "on" a number that are no part of the name.
_AFTER_CALLEE = r"(?i:back|again|now|later|today|tomorrow|tonight|first|asap|too|also|direct)"
# Who the person called is to the writer, between the word for calling and the name ("call my
# brother Tomasz on ...", "contact our property manager Rajesh at ...").
_CALLEE_ROLE = (
    r"(?i:(?:my|our|the|your|his|her)[ ](?:(?:property|site|office|account|case|project)[ ])?"
    r"(?:manager|landlord|landlady|agent|neighbou?r|colleague|son|daughter|wife|husband"
    r"|brother|sister|mum|mom|dad|friend|partner|supervisor|coordinator|caseworker|nurse"
    r"|driver|technician|rep|representative|contact|assistant|secretary|accountant|lawyer"
    r"|solicitor|broker|caretaker|cousin|uncle|aunt(?:ie|y)?))"
)
SIGNOFF_CONTEXT = 300  # characters before a name read for the text's language
_NUMBER_AFTER_ON = re.compile(
    r"(?:[ ]+\w{2,8})?[ ]+(?i:on|at)[ ]+(\+?\(?\d[\d ()-]{6,20}\d)", re.ASCII
)
_LINE_BELOW = re.compile(
    r"[ \t]*\n[ \t]*(?i:(?:m|t|tel|mob|mobile|phone|cell|ph|whatsapp)\.?:?[ \t]*)?([^\n]{1,80})"
)


def refine_uncommon_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A name in a strong but wordless context (below a sign-off, above a phone number,
    before "on" a number), not a team ("Equipo de soporte"): each word is a known name or
    common neither in English nor in the language of the text before it ("mele" is a
    Romanian word, but a name below a Māori sign-off in English mail); with too little text
    to tell the language, common in none we read."""
    span = refine_context_name(text, start, end)
    if span is None:
        return None
    before = " ".join(text[max(0, start - SIGNOFF_CONTEXT) : start].split())
    language = line_language(before)
    for word in _bare_words(text[span[0] : span[1]].split()):
        folded = word.casefold()
        if is_known_name(folded):
            continue
        if is_common_non_name(folded) or (
            word_in_any_language(folded)
            if language is None
            else word_zipf(folded, language) >= VERY_COMMON_ZIPF
        ):
            return None
    return span


def refine_called_person(text: str, start: int, end: int) -> tuple[int, int] | None:
    """`refine_uncommon_name`, and the number after "on" is laid out as a phone number (not
    a date: "and Wellington on 2025-03-12")."""
    number = _NUMBER_AFTER_ON.match(text, end)
    if number is None or not phone_plausible(number.group(1).strip()):
        return None
    return refine_uncommon_name(text, start, end)


def refine_signature_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """`refine_uncommon_name`, and the line below is an e-mail address or laid out as a phone
    number (not a date: "Changelog\n2024-01-15")."""
    line = _LINE_BELOW.match(text, end)
    if line is None:
        return None
    value = line.group(1).strip()
    if "@" not in value and not phone_plausible(value):
        return None
    return refine_uncommon_name(text, start, end)


_DATA_VALUE = re.compile(r"[ \t]*:[ \t]*(\S+)[ \t]*$", re.MULTILINE)
_DATA_LIKE = re.compile(r"[\d@/\\=]|^[A-Z0-9._:-]+$")


# The time stamp a WhatsApp export puts before each message's speaker: "13/05/2024, 08:30 - "
# (Android) or "[13/05/2024, 08:30:12] " (iOS), 12- or 24-hour, any date order.
CHAT_EXPORT_STAMP = (
    r"\[?\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4},?[ \t]+\d{1,2}:\d{2}(?::\d{2})?"
    r"(?:[ \t\u202f]?[AaPp]\.?[Mm]\.?)?(?:\][ \t]*|[ \t]+[-–][ \t]+)"
)


def refine_speaker(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A chat speaker, not a form field: "Desk: 4B", "ZIP: 10115", "MAC: 00:1a:..." and
    "Gateway: 10.0.0.1" start with a field label, an acronym, or carry one data-like value."""
    words = text[start:end].split()
    if any(w.lower() in FIELD_LABELS for w in words):
        return None
    if len(words) == 1 and words[0].isupper() and len(words[0]) <= 5 and words[0].isascii():
        return None
    value = _DATA_VALUE.match(text, end)
    if value is not None and _DATA_LIKE.search(value.group(1)):
        return None
    line_end = text.find("\n", end)
    rest = text[end : line_end if line_end >= 0 else len(text)]
    if len(rest) < 30 and _DIGIT.search(rest) and not is_known_name(text[start:end]):
        return None  # "Gesamtbetrag: 2.380,00 €", "Floor: 3 (east)"
    return refine_context_name(text, start, end)


_DIGIT = re.compile(r"\d")


def refine_org(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Trim sentence words off the front of 'X Y Corp'; one name word must remain."""
    tokens = _tokens(text, start, end)
    while len(tokens) > 1 and _bare(tokens[0][2]) in STARTERS:
        tokens.pop(0)
    if len(tokens) < 2:
        return None
    return tokens[0][0], end


def refine_institution(text: str, start: int, end: int) -> tuple[int, int] | None:
    """As `refine_org`, but a bare "High School" or "Medical Centre" names no one."""
    refined = refine_org(text, start, end)
    if refined is None or re.fullmatch(INSTITUTION_SUFFIX, text[refined[0] : refined[1]]):
        return None
    return refined


_CAPITALISED_WORD_BEFORE = re.compile(rf"{CAP_WORD}[ ]$")


def refine_institution_of(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Take in one capitalised word before 'Bank of ...' (Royal Bank of Scotland)."""
    before = _CAPITALISED_WORD_BEFORE.search(text, max(0, start - 42), start)
    if before is not None and _bare(before.group().strip()) not in STARTERS:
        start = before.start()
    return start, end


_ACRONYM = re.compile(r"[A-Z]{2,}")


def refine_preposition_place(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A place after 'in', 'from', ...: as `refine_capitalised_place`, minus acronyms (LLMs)
    and languages ("drawn up in Maltese")."""
    if _ACRONYM.search(text, start, end) and text[start:end].lower() not in PLACES:
        return None
    if text[start:end].lower() in NATIONALITY_WORDS:
        return None
    return refine_capitalised_place(text, start, end)


def refine_capitalised_place(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Trim sentence words off a capitalised place; reject runs of only common words."""
    tokens = _tokens(text, start, end)
    while tokens and _bare(tokens[0][2]) in STARTERS:
        tokens.pop(0)
    while tokens and _bare(tokens[-1][2]) in STARTERS:
        tokens.pop()
    words = {_bare(t[2]) for t in tokens}
    if not tokens or (words <= NON_NAME and not words & PLACES):
        return None
    return tokens[0][0], tokens[-1][1]


_HOUSE_NUMBER_BEFORE = re.compile(r"(?<![\w-])\d{1,4}(?:[ ]?(?:bis|ter))?,?[ ]+$")
_ENDS_WITH_CAPITALISED_WORD = re.compile(rf"[{U}][\w'’.-]*[ ]$")
_AMBIGUOUS_STREET_TYPE = re.compile(r"(?i)(?:via|avenue|place|largo|route|boulevard|bd|cours)\b")


def refine_typed_street(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Take in a house number written before the street type (12, rue de la Paix) unless it
    ends the previous address; English-looking types (via, place, route) need a number."""
    before = _HOUSE_NUMBER_BEFORE.search(text, max(0, start - 12), start)
    # "Schlosserallee 7, rue ...": that 7 ends the previous address, it is not this one's.
    if before is not None and not _ENDS_WITH_CAPITALISED_WORD.search(
        text, max(0, before.start() - 42), before.start()
    ):
        start = before.start()
    if not _has_digit(text[start:end]) and _AMBIGUOUS_STREET_TYPE.match(text, start):
        return None
    return start, end


def refine_street_tail(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Trim sentence words that a number-first street swallowed ("5 rue Cler and then")."""
    tokens = _tokens(text, start, end)
    while len(tokens) > 2 and _bare(tokens[-1][2]) in STARTERS:
        tokens.pop()
    return start, tokens[-1][1] if tokens else end


_LAST_SEPARATOR = re.compile(r"[ .\n-][^ .\n-]*$")


def refine_iban(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The longest prefix, in whole groups, that is a valid IBAN: a short upper-case word
    after the number ("... 0130 00 OK", a code on the next line) can be swallowed by the
    shape and must go again."""
    return _longest_valid_prefix(text, start, end, iban_valid)


def refine_domestic_account(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The longest prefix, in whole groups, that is a valid CCC, NRB or IBAN."""
    return _longest_valid_prefix(text, start, end, domestic_account_valid)


def _longest_valid_prefix(
    text: str, start: int, end: int, valid: Callable[[str], bool]
) -> tuple[int, int] | None:
    for _ in range(3):
        if valid(text[start:end]):
            return start, end
        cut = _LAST_SEPARATOR.search(text, start, end)
        if cut is None or cut.start() <= start:
            return None
        end = cut.start()
        while end > start and text[end - 1] in " .\n-":
            end -= 1
    return None


def refine_iban_after_keyword(text: str, start: int, end: int) -> tuple[int, int] | None:
    """After the word IBAN: the longest valid IBAN in the match, or, when none is valid (a
    typo), the match up to a line break, so that a code on the next line is not taken."""
    valid = refine_iban(text, start, end)
    if valid is not None:
        return valid
    line_end = text.find("\n", start, end)
    if line_end >= 0:
        end = line_end
    return (start, end) if _iban_shape(text[start:end]) else None


_URL_CREDENTIALS = re.compile(r"[a-z][a-z0-9+.-]{1,20}://[^\s/@]{1,200}@", re.IGNORECASE)


def refine_url(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Drop trailing sentence punctuation, keeping a ')' that closes a '(' inside the URL; a
    URL that carries credentials (scheme://user:password@host, a key as its user) is a
    service's address, and its secret is found on its own."""
    if _URL_CREDENTIALS.match(text, start, end):
        return None
    while end > start:
        last = text[end - 1]
        if last in ".,;:!?'\"]}>" or (
            last == ")" and text.count("(", start, end) < text.count(")", start, end)
        ):
            end -= 1
            continue
        break
    return (start, end) if end - start > 4 else None


_IBAN_PREFIX_BEFORE = re.compile(r"[A-Z]{2}\d{2}(?:[ -]?[A-Z0-9]{4}){0,7}[ -]?$")
_GROUP_AFTER = re.compile(r"[ -]?[A-Z0-9]{1,4}\b")


def refine_shop_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """`refine_capitalised_place`, and not one word that is a place or a people (the cuisine of
    "warung Padang", "toko Cina")."""
    span = refine_capitalised_place(text, start, end)
    if span is None:
        return None
    words = text[span[0] : span[1]].split()
    word = words[0]
    if len(words) == 1 and (word in city_names() or word.lower() in PLACES | NATIONALITY_WORDS):
        return None
    return span


def refine_greeted_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """`refine_uncommon_name`, and every word a known name: the greeting's language may be one
    whose common words we cannot tell ("Tisztelt Uram", "Kia ora Whānau")."""
    span = refine_uncommon_name(text, start, end)
    if span is None or not is_known_name(text[span[0] : span[1]]):
        return None
    if any(w.lower() in NEVER_A_NAME_ALONE for w in text[span[0] : span[1]].split()):
        return None  # "Tisztelt Uram", "Kedves Anyu"
    return span


def refine_not_a_ci_run(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Not the number of a CI pipeline, build or job ("Pipeline #19384 passed")."""
    if _CI_RUN_BEFORE.search(text, max(0, start - 12), start):
        return None
    return start, end


_CI_RUN_BEFORE = re.compile(r"(?i:\b(?:pipeline|build|job|workflow[ ]run|run))[ ]$")


def refine_card_number(text: str, start: int, end: int) -> tuple[int, int] | None:
    """`refine_not_in_iban`, and not a company's register number after its key (a French
    SIRET passes the Luhn check too: "SIRET 834 215 907 00025")."""
    if _COMPANY_NUMBER_BEFORE.search(text, max(0, start - 20), start):
        return None
    return refine_not_in_iban(text, start, end)


_COMPANY_NUMBER_BEFORE = re.compile(r"(?i:\b(?:SIRET|SIREN|SIRENE)\b)[ \t]*(?:n[°º o.]*)?:?[ \t]*$")


def refine_not_in_iban(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Reject digit groups that continue an IBAN ("DE89 3704 0044 ..."): they are its body,
    not a phone or card number."""
    if _IBAN_PREFIX_BEFORE.search(text, max(0, start - 40), start):
        return None
    return start, end


_URL_USER_BEFORE = re.compile(r"://[^\s:/@]{1,64}:$")


_REMOTE_PATH = re.compile(r":[A-Za-z0-9][\w.-]{0,38}/")


def refine_not_url_credentials(text: str, start: int, end: int) -> tuple[int, int] | None:
    if _URL_USER_BEFORE.search(text, max(0, start - 80), start):
        return None
    if text.startswith("git@", start) and _REMOTE_PATH.match(text, end):
        return None  # an SSH remote (git@github.com:owner/repo.git): its owner is the handle
    return start, end


def refine_phone(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Drop an unbalanced bracket at either end ("(080-4412-9931)" in running text), then
    check the layout and that the digits are not an IBAN's body."""
    value = text[start:end]
    if value[:1] == "(" and value[-1:] == ")" and value.count("(") == 1 == value.count(")"):
        start, end = start + 1, end - 1  # a whole number in brackets
    elif value.endswith(")") and value.count("(") < value.count(")"):
        end -= 1
    elif value.startswith("(") and value.count("(") > value.count(")"):
        start += 1
    if not phone_plausible(text[start:end]):
        return None
    return refine_not_in_iban(text, start, end)


def refine_secret_value(text: str, start: int, end: int) -> tuple[int, int] | None:
    while end > start and text[end - 1] in ".,;:!?)'\"`":
        end -= 1
    return (start, end) if end - start >= 4 else None


_CASELESS_CHAR = re.compile(f"[{CASELESS}]")
CASELESS_SHARE_MAX = 0.6


def refine_caseless_run(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Only runs embedded in mostly cased (Latin, Greek, Cyrillic) text: in a document written
    in the caseless script itself this rule would flag every word, so it says nothing."""
    window = text[max(0, start - 40) : end + 40]
    letters = sum(map(str.isalpha, window))
    share = len(_CASELESS_CHAR.findall(window)) / letters if letters else 1.0
    return (start, end) if share < CASELESS_SHARE_MAX else None


def refine_street_and_number(text: str, start: int, end: int) -> tuple[int, int] | None:
    tokens = _tokens(text, start, end)
    if not tokens or _bare(tokens[0][2]) in _NOT_NAME_START:
        return None
    return start, end


def _not_a_common_word(value: str) -> bool:
    return value.lower() not in NOT_A_NAME


_CLOCK_TIME = re.compile(r"(?i)\d{1,2}(?:[:.]\d{2})?(?:am|pm|h)")


def _login_not_word(value: str) -> bool:
    """A login, not a word of some language ("kbrown", not "draft" or "urgent")."""
    return zipf(value.lower()) < 3 and not word_in_any_language(value)


def _identifier_like(value: str) -> bool:
    """A user name rather than a word: has a digit, a dot, an underscore or an inner dash,
    and is not a time ("4pm") nor a hyphenated everyday word ("e-mail", "on-call")."""
    if _CLOCK_TIME.fullmatch(value) or _DOTTED_NUMBER.fullmatch(value):
        return False
    if _hyphenated_common_word(value):
        return False
    return any(c.isdigit() or c in "._" for c in value) or "-" in value.strip("-")


_DOTTED_NUMBER = re.compile(r"\d+\.\d+")  # a time or an amount ("by 7.15"), not a user name


_RECORDED = (
    "printed|created|generated|modified|updated|entered|dispensed|checked|approved|edited"
    "|uploaded|submitted|closed|opened|assigned|reviewed|signed|logged"
)


def _unknown_lower_word(value: str) -> bool:
    """A lower-case login no dictionary knows ("dfurlong"), not a word of English or of
    another language we read ("experience", "gesperrt")."""
    return zipf(value) == 0 and value not in known_names() and not word_in_any_language(value)


def _hyphenated_common_word(value: str) -> bool:
    """Every part of a hyphenated word is a common English word and none is a name."""
    parts = value.lower().split("-")
    return len(parts) > 1 and all(
        p.isalpha() and zipf(p) >= 4 and not is_known_name(p) for p in parts
    )


# Public resolvers' addresses, written in configs and network logs: no one's.
PUBLIC_SERVICE_ADDRESSES = frozenset(
    "1.1.1.1 1.0.0.1 8.8.8.8 8.8.4.4 9.9.9.9 149.112.112.112 208.67.222.222 208.67.220.220"
    " 4.2.2.2 4.2.2.1".split()
)
# Addresses that stand for no machine of anyone's: any, broadcast, this host.
NOBODYS_ADDRESSES = frozenset(("0.0.0.0", "255.255.255.255", "127.0.0.1"))
_FINGERPRINT_BEFORE = re.compile(r"(?i:SHA(?:1|224|256|384|512)|MD5)[:-]$")


RARE_COMPANY_WORD_ZIPF = 3.0  # "Wattle" 2.6, "Backly" 0; not "Customer", "Technical", "Apple"
_WORD_AT = re.compile(r"[A-Za-z]+")


def _rare_company_word(word: str) -> bool:
    folded = word.casefold()
    return (
        folded not in NON_NAME
        and folded not in NEVER_A_NAME_ALONE
        and zipf(folded) < RARE_COMPANY_WORD_ZIPF
    )


def refine_support_company(text: str, start: int, end: int) -> tuple[int, int] | None:
    """From the first word that is rare in English and no greeting or team word ("Contact
    Wattle" -> "Wattle"; not "Customer", "Technical", "Bonjour")."""
    for word in _WORD_AT.finditer(text, start, end):
        if _rare_company_word(word.group()):
            return word.start(), end
    return None


def _ipv4_of_someone(value: str) -> bool:
    """A valid address that is not a public resolver's (with or without a /prefix)."""
    address = value.split("/", 1)[0]
    if address in PUBLIC_SERVICE_ADDRESSES or address in NOBODYS_ADDRESSES:
        return False
    return ipv4_valid(value)


def refine_not_fingerprint(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Not the fingerprint of a public key (ED25519 SHA256:q3Vv...), which any server shows."""
    if _FINGERPRINT_BEFORE.search(text, max(0, start - 8), start):
        return None
    return start, end


def _user_value(value: str) -> bool:
    """A user name after user= / User:, not a full name's first word or a placeholder."""
    return value.lower() not in NOT_A_NAME and value.lower() not in ("none", "null", "root")


# Bank statement lines: a transaction word, then the counterparty in capitals up to a column
# gap, a dash, a bracket, a reference or an amount.
STATEMENT_WORDS = (
    "recibo",
    "nómina",
    "nomina",
    "transferencia",
    "bizum",
    "direct debit",
    "card payment",
    "faster payment",
    "standing order",
    "bill payment",
    "lastschrift",
    "gutschrift",
    "überweisung",
    "prélèvement",
    "virement",
    "addebito",
    "bonifico",
)
_STATEMENT_WORD = (
    r"(?:RECIBO|N[ÓO]MINA|TRANSFERENCIA(?:[ ](?:A|DE))?|BIZUM(?:[ ](?:A|DE))?"
    r"|DIRECT[ ]DEBIT(?:[ ]TO)?|CARD[ ]PAYMENT(?:[ ]TO)?|FASTER[ ]PAYMENT(?:[ ](?:TO|FROM))?"
    r"|STANDING[ ]ORDER(?:[ ]TO)?|BILL[ ]PAYMENT(?:[ ]TO)?|LASTSCHRIFT|GUTSCHRIFT"
    r"|[ÜU]BERWEISUNG(?:[ ](?:AN|VON))?|PR[ÉE]L[ÈE]VEMENT|VIREMENT(?:[ ](?:DE|[ÀA]))?"
    r"|ADDEBITO|BONIFICO(?:[ ](?:A|DA))?)"
)
_UPPER_WORD = r"[A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ&'’.-]*"
_STATEMENT_STOP = r"(?:REF|REFERENCE|ON|VIA|CARD|FROM|TO|EN|CON)\b"
_STATEMENT_ARTICLE = r"(?:DE|DEL|LA|EL|LOS|LAS|DU|LE|LES|DES|AL|A|THE)\b"  # RECIBO DE LA LUZ
_STATEMENT_COUNTERPARTY = re.compile(
    rf"(?<![\w]){_STATEMENT_WORD}[ ]+((?!{_STATEMENT_STOP}|{_STATEMENT_ARTICLE}){_UPPER_WORD}"
    rf"(?:[ ](?!{_STATEMENT_STOP}){_UPPER_WORD}){{0,5}})"
    r"(?=[ ]{2,}|[ ]+[–—(-]|[ ]+(?:REF|REFERENCE|ON)\b|[ ]*\n|[ ]*$|[ ]+[+-]?\d|\t)"
)


# The payment apps' and banks' UPI handles (NPCI's published list, the common ones).
_UPI_HANDLES = (
    r"ok(?:hdfc|icici|sbi|axis)(?:bank)?|ybl|ibl|axl|paytm|upi|apl|yapl|pt(?:yes|axis|hdfc|sbi)"
    r"|icici|sbi|hdfcbank|axisbank|kotak|indus|federal|rbl|idfcbank|aubank|jupiteraxis"
    r"|freecharge|airtel|jio|barodampay|pnb|boi|cnrb|ikwik|wa(?:axis|hdfcbank|sbi|icici)"
)


def _not_a_placeholder_value(value: str) -> bool:
    """A value, not a template slot or an empty marker ("{{name}}", "null", "N/A")."""
    stripped = value.strip()
    return (
        bool(stripped)
        and stripped.casefold() not in ("null", "none", "n/a", "unknown")
        and not any(c in stripped for c in "{}<>$%[]")
    )


def _known_name_with_initials(value: str) -> bool:
    """Known given names or surnames, initials aside ("J SMITH", "MARTA SOLER")."""
    words = [w for w in value.replace(".", " ").split() if len(w) > 1]
    return bool(words) and is_known_name(" ".join(words))


RARE_WORD_ZIPF = 3.5
COMMON_WORD_ZIPF_FOR_NAMES = 4.5


def _name_not_word(value: str) -> bool:
    """A known name that is no everyday word, or a word too rare to be one ("Maddie", "Rami";
    not "Google", "Everyone", "Mum")."""
    if value.lower() in NOT_A_NAME:
        return False
    frequency = zipf(value.lower())
    return frequency < RARE_WORD_ZIPF or (
        is_known_name(value) and frequency < COMMON_WORD_ZIPF_FOR_NAMES
    )


FUNCTION_WORD_ZIPF = 5.7  # "nach" 6.6, "ohne" 6.0; "islam" 5.6, "española" 5.0


def _not_a_function_word(value: str) -> bool:
    """Not a common word, nor a preposition, conjunction or article of some language ("nach"
    in "Islam (nach eigenen Angaben)")."""
    first = value.split()[0].casefold()
    return _not_a_common_word(value) and all(
        word_zipf(first, language) < FUNCTION_WORD_ZIPF for language in LANGUAGES
    )


def _polish_stem(value: str) -> str:
    """The nominative a Polish city's genitive or locative comes from by dropping its last
    vowel (Gdańsku -> Gdańsk, Krakowa -> Kraków, Wrocławia -> Wrocław)."""
    stem = value[:-1]
    return stem[:-2] + "ów" if stem.endswith("ow") else stem


def _not_a_known_name(value: str) -> bool:
    """Not a person ("J SMITH"), nor one everyday word of some language (RECIBO ALQUILER)."""
    if " " not in value.strip() and word_in_any_language(value.strip(" .")):
        return False
    return not _known_name_with_initials(value)


def _actor_value(value: str) -> bool:
    """A user name as a log's actor, not a flag ("admin": "true")."""
    return _user_value(value) and value.lower() not in ("true", "false", "yes", "no", "system")


def _secret_value(value: str) -> bool:
    """A password or key rather than a word: a digit, a symbol, or mixed case inside."""
    core = value.rstrip(".,;:!?)")
    return len(core) >= 4 and (any(not c.isalpha() for c in core) or (core[1:] != core[1:].lower()))


_NOT_A_CODE_BEFORE = re.compile(
    r"(?i)\b(?:postal|post|zip|area|country|dial(?:ling)?|error|status|exit|return|tariff|hs"
    r"|sort|swift|bank|branch|iata|airport|product|item|discount|promo|coupon|voucher|course"
    r"|module|dress|source|qr|bar|colou?r|style|class|tax|building|fault|reason|response"
    r"|cost|nace|sic|naics|icd|cpt|billing|booking|confirmation|reference|ref)[ -]?$"
)


def refine_code_value(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A one-time / backup / access code, not a postal, error, product or booking code."""
    keyword = re.search(
        r"(?i)\b(?:codes?|otp|pin|passcode|tan)\b", text[max(0, start - 60) : start]
    )
    if keyword is None:
        return start, end
    before = text[max(0, start - 60) : start][: keyword.start()]
    return (
        None
        if _NOT_A_CODE_BEFORE.search(before.rstrip())
        or before.rstrip().endswith(tuple("0123456789"))
        else (start, end)
    )


_SYSTEM_ACCOUNTS = frozenset(
    "root admin administrator postgres mysql app user deploy ubuntu ec2-user centos debian"
    " git www-data nobody guest test service svc system sa oracle jenkins runner ci pi ftp"
    " ftpuser daemon support operator sysadmin backup mail".split()
)


_SERVICE_SUFFIXES = tuple(
    sep + word
    for sep in "_-"
    for word in ("svc", "rw", "ro", "worker", "bot", "app", "service", "api", "admin", "user")
)


def _not_a_system_account(value: str) -> bool:
    """Not an account every host has, which scanners try by name (root, admin, oracle); a
    bot's or a person's login otherwise ("deploy-bot" logs in as someone's key)."""
    return value.casefold() not in _SYSTEM_ACCOUNTS


def _personal_account(value: str) -> bool:
    """A person's login, not a system or service account (root, postgres, checkout_svc)."""
    folded = value.casefold()
    return folded not in _SYSTEM_ACCOUNTS and not folded.endswith(_SERVICE_SUFFIXES)


_MBI = re.compile(
    r"[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d"
    r"[AC-HJKMNP-RT-Y]{2}\d{2}"
)


# Values after an id keyword that are something else: an amount ("131.66", "1,250.00") or a
# UK PAYE tax code ("1257L", "K475", "BR" has no digit).
_NOT_AN_ID_VALUE = re.compile(r"\d{1,3}(?:,\d{3})*\.\d{2}|K?\d{1,4}[LMNTX]")


def _national_id_value(value: str) -> bool:
    """Has a digit, is not an amount or a tax code, and is not a US Medicare MBI (a record
    number of its own rule)."""
    return (
        _has_digit(value)
        and not _NOT_AN_ID_VALUE.fullmatch(value)
        and not _MBI.fullmatch(value.replace("-", ""))
        and not _MASKED_START.match(value)
    )


_MASKED_START = re.compile(r"[Xx*•]{3}")  # a masked number ("XXXX XXXX 3810") shows no id


_NAME_BEFORE = re.compile(r"([A-Z][\w'’-]{1,30})[ ](?:\(|is[ ](?:now[ ]|only[ ]|just[ ])?)$")


def refine_age_after_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """An age right after a capitalised word that is a name, not a common word ("Piotr
    (44)", "Alphy is nine"; not "Chapter (12)", "Total is nine")."""
    m = _NAME_BEFORE.search(text, max(0, start - 48), start)
    parts = m.group(1).rstrip("'’").split("-") if m else []
    if not parts or all(map(is_common_non_name, parts)):
        return None
    return start, end


_PROFESSIONAL_BEFORE = re.compile(
    r"(?i)\b(?:dr|doctor|mbbs|md|frcs|mrcp|mrcgp|gp|consultant|physician|surgeon|nurse|rn|rgn"
    r"|midwife|pharmacist|physio(?:therapist)?|paramedic|dentist|vet|veterinary|psychologist"
    r"|therapist|solicitor|barrister|lawyer|attorney|advocate|avv|notary|notaire|architect"
    r"|engineer|optometrist|radiographer|counsellor|counselor|clinician|prescriber)\b"
)


def refine_professional_registration(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A registration number in a professional's signature or listing (Dr ..., MBBS, Reg.
    No. ...), not a vehicle's or a company's."""
    before = text[max(0, start - 90) : start]
    if re.search(r"(?i)\b(?:vehicle|car|company|companies|charity|vat|trade|business)\b", before):
        return None
    return (start, end) if _PROFESSIONAL_BEFORE.search(before) else None


def _titled_name_of_rarer_words(
    text: str, start: int, end: int, common_zipf: float
) -> tuple[int, int] | None:
    """`refine_titled_name`, and not every word of the name is a non-name at least as
    frequent as `common_zipf` (initials aside)."""
    refined = refine_titled_name(text, start, end)
    if refined is None:
        return None
    words = re.findall(r"[^\W\d_]{2,}", text[refined[0] : refined[1]])
    common = [w for w in words if zipf(w.casefold()) >= common_zipf and not is_known_name(w)]
    return None if len(common) == len(words) else refined


def refine_ranked_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """As `refine_titled_name`, and the name is not only common words (PC Gamer, DC Comics,
    Nurse Practitioner)."""
    return _titled_name_of_rarer_words(text, start, end, COMMON_AFTER_RANK_ZIPF)


COMMON_AFTER_RANK_ZIPF = 3.3
COMMON_AFTER_RELATIVE_ZIPF = (
    4.5  # "said", "can", "told": no name after "my son" ("Abi" 3.3, "Paddy" 3.6)
)


def refine_relative_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """As `refine_titled_name`, and the name is not only very common words (her son Said)."""
    return _titled_name_of_rarer_words(text, start, end, COMMON_AFTER_RELATIVE_ZIPF)


def refine_role_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """As `refine_ranked_name`; after my/her <relative> a rarer word is a name too (her
    daughter Jolly, her union rep Paddy), only a very common one is not."""
    if _RELATIVE_BEFORE.search(text, max(0, start - 48), start):
        return refine_relative_name(text, start, end)
    return refine_ranked_name(text, start, end)


_NEXT_WORD = re.compile(r"[ ]+([A-Z][A-Za-z'’-]+)")


def refine_before_a_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The value is followed by a name, not by a common word ("Edition", "Series"): a rare
    word, or a known surname written in capitals as statements write it ("HUGHES")."""
    m = _NEXT_WORD.match(text, end)
    if m is None:
        return None
    word = m.group(1)
    if word.isupper() and len(word) > 1 and is_known_name(word) and zipf(word.casefold()) < 4.3:
        return start, end  # a surname ("HUGHES" 4.1), not "MAX", "BLACK", "GREY" 4.4
    return None if zipf(word.casefold()) >= 3.3 else (start, end)


_WORD_BEFORE_BRACKET = re.compile(r"([^\W\d_][\w'’-]*)[ ]\([ ]?$")


def refine_after_a_name(
    text: str, start: int, end: int, acronyms: bool = True
) -> tuple[int, int] | None:
    """The value follows a name in brackets ("Ilyas (15 ans)"), not a common word
    ("Passports (4)", "Violations (3 yr)"), nor an acronym, which names a body ("SANAS
    (M0213)"), unless `acronyms`."""
    m = _WORD_BEFORE_BRACKET.search(text, max(0, start - 40), start)
    if m is None:
        return None
    word = m.group(1)
    if not acronyms and word.isupper():
        return None
    if not word.isascii():
        return (start, end)
    frequency = zipf(word.casefold())
    known = is_known_name(word) and frequency < 4.5
    return (start, end) if known or frequency < 3.0 else None


# --------------------------------------------------------------------------- rules


def _c(pattern: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(pattern, flags)


# After a date: no word character, except the "T" of an ISO time stamp (2024-05-02T11:42Z).
_DATE_END = r"(?:(?![\w/-]|\.\d)|(?=T\d))"
_DATE_DIGIT_FIRST = _c(
    _first(r"\d", r"[\w/.-]") + rf"(?:\d?(?:st|nd|rd|th)?[ ]+(?:of[ ]+)?{MONTH}\.?,?[ ]+\d{{4}}"
    rf"|\d?-{MONTH}-(?:\d{{4}}|\d{{2}})|\d?/{MONTH}/\d{{4}}"
    rf"|\d{{3}}([-/])\d{{1,2}}\1\d{{1,2}}|\d{{3}}\.\d\d\.\d\d"
    rf"|\d?[/.-]\d{{1,2}}[/.-](?:\d{{4}}|\d{{2}})){_DATE_END}",
    re.IGNORECASE,
)
_DATE_MONTH_FIRST = _c(
    rf"(?<![\w/.-]){MONTH}\.?[ ]+\d{{1,2}}(?:st|nd|rd|th)?,?[ ]+\d{{4}}{_DATE_END}",
    re.IGNORECASE,
)
# Day and month without a year ("14 June", "June 14th", "the 3rd of May"): the month must be
# capitalised ("may" is a verb) and the day must not run on into a quantity or a year.
_DAY = r"(?:3[01]|[12]\d|0?[1-9])"
_NOT_A_QUANTITY = (
    r"(?![\w/.,:-]?\d|[\w%]|[ ]?(?:%|percent|per|am|pm|a\.m\.|p\.m\.|h|hrs?|hours?|min"
    r"|minutes?|days?|weeks?|months?|years?|people|persons|times|pages?|items?|units?)\b)"
)
CAP_MONTH = (
    r"(?:J(?:an(?:uary)?|AN(?:UARY)?|une?|UNE?|uly?|ULY?)|F(?:eb(?:ruary)?|EB(?:RUARY)?)"
    r"|M(?:ar(?:ch)?|AR(?:CH)?|ay|AY)|A(?:pr(?:il)?|PR(?:IL)?|ug(?:ust)?|UG(?:UST)?)"
    r"|S(?:ep(?:t(?:ember)?)?|EP(?:T(?:EMBER)?)?)|O(?:ct(?:ober)?|CT(?:OBER)?)"
    r"|N(?:ov(?:ember)?|OV(?:EMBER)?)|D(?:ec(?:ember)?|EC(?:EMBER)?))"
)
# A month in lower case too (chat: "9 july", "28 dec"), but not the verb "may".
ANY_CASE_MONTH = rf"(?:{CAP_MONTH}|(?i:(?!may\b){MONTH}))"
_DATE_DAY_MONTH = _c(
    _first(r"\d", r"[\w/.,-]")
    + rf"(?:(?<=[12])\d|(?<=3)[01]|(?<=0)[1-9])?(?:st|nd|rd|th)?[ ]+(?:of[ ]+)?{ANY_CASE_MONTH}\b"
    r"(?!,?[ ]+\d{4}\b|[.-]\w)"
)
_DATE_MONTH_DAY = _c(
    rf"(?<![\w/.-]){CAP_MONTH}\.?[ ]+(?:the[ ]+)?{_DAY}(?:st|nd|rd|th)?{_NOT_A_QUANTITY}"
    r"(?!,?[ ]+\d{4}\b)"
)
# "on the 14th", "by the 3rd": a day of the current month, not "the 3rd floor".
_DATE_WEEKDAY_ORDINAL = _c(
    r"(?i:\b(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?"
    rf"|sat(?:urday)?|sun(?:day)?)\.?,?[ ]+(?:the[ ]+)?{_DAY}(?:st|nd|rd|th))\b"
)
# A day and month without a year, both written with two digits ("01/02", "26/11"), as in
# statement columns and "until 15/09"; not scores ("24/7") or fractions.
_DATE_DAY_MONTH_NUMERIC = _c(
    r"(?<![\w/.,:-])(?:0[1-9]|[12]\d|3[01])/(?:0[1-9]|1[0-2])(?![\w/-]|[.,]\d)"
)
_DATE_ORDINAL_DAY = _c(
    rf"(?i:\b(?:on|by|until|till|before|after|since|from|for|due|dated)[ ]+)(the[ ]+{_DAY}"
    r"(?:st|nd|rd|th))\b(?![ ]+(?i:floor|time|place|row|century|edition|grade|year|round"
    r"|generation|attempt|one|item|page|door|lap|level|step|stage|quarter|minute|house|street"
    r"|avenue|person|child|son|daughter|largest|biggest|best|most|of[ ]the|percentile|amendment"
    r"|anniversary|birthday|of)\b|-\w)"
)
# "the 19th – Declan interviewed": a day of the month heading a diary line or filling a
# table cell (at a line start or after a column gap, before a dash, colon or column gap).
_DATE_ORDINAL_DAY_CELL = _c(
    rf"(?:^[ \t]*|(?<=[ ]{{2}})|(?<=\t))(?i:(the[ ]+{_DAY}(?:st|nd|rd|th)))\b"
    r"(?=[ ]?[–—:-][ ]|[ ]{2}|\t|[ ]*$)",
    re.MULTILINE,
)
# Month names of other languages, after a day number ("3. März 2024", "le 3 mars", "3 de marzo
# de 2024", "3 maart", "14 lutego 2024", "12 Mart 2025", "5 марта", "3 augusti", "5 Machi"):
# German, French, Spanish, Italian, Portuguese, Dutch, the Scandinavian languages, Polish,
# Czech, Romanian, Turkish, Indonesian, Tagalog, Swahili, Russian, Ukrainian and Greek, as
# written after a day (the genitive in the Slavic languages and Greek).
MONTH_INTL = (
    r"(?:januar|jänner|februar|märz|mai|juni|juli|oktober|dezember|janvier|février|fevrier"
    r"|mars|avril|juin|juillet|août|aout|septembre|octobre|novembre|décembre|enero|febrero"
    r"|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre"
    r"|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|janeiro"
    r"|fevereiro|março|maio|junho|julho|setembro|outubro|dezembro|januari|februari|maart|mei"
    r"|augustus|augusti|maj|marts|desember|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca"
    r"|sierpnia|września|wrzesnia|października|pazdziernika|listopada|grudnia|ledna|února"
    r"|března|dubna|května|června|července|srpna|září|října|listopadu|prosince|ianuarie"
    r"|februarie|martie|aprilie|iunie|iulie|septembrie|octombrie|noiembrie|decembrie|ocak"
    r"|şubat|mart|nisan|mayıs|haziran|temmuz|ağustos|eylül|ekim|kasım|aralık|maret|agustus"
    r"|pebrero|marso|hunyo|hulyo|setyembre|oktubre|nobyembre|disyembre|machi|aprili|julai"
    r"|agosti|septemba|oktoba|novemba|desemba|января|февраля|марта|апреля|мая|июня|июля"
    r"|августа|сентября|октября|ноября|декабря|січня|лютого|березня|квітня|травня|червня"
    r"|липня|серпня|вересня|жовтня|листопада|грудня|april|august|september|november"
    r"|december|يناير|فبراير|مارس|أبريل|ابريل|مايو|يونيو|يوليو|أغسطس|اغسطس|سبتمبر"
    r"|أكتوبر|اكتوبر|نوفمبر|ديسمبر|ιανουαρίου|φεβρουαρίου|μαρτίου|απριλίου|μαΐου"
    r"|ιουνίου|ιουλίου|αυγούστου|σεπτεμβρίου|οκτωβρίου|νοεμβρίου|δεκεμβρίου)"
)
_DATE_INTL = _c(
    _first(r"\d", r"[\w/.,-]")
    + rf"\d?(?:\.|er|º)?[ ]+(?:de[ ]+)?{MONTH_INTL}(?:[ ]+(?:de[ ]+)?\d{{4}})?(?![\w])",
    re.IGNORECASE,
)
# A day, a month abbreviated in another language and a year, as mail clients date quoted and
# forwarded messages ("wt., 8 kwi 2025", "8 avr. 2025", "3 de abr. de 2025", "8 mrt 2025");
# the year is required: alone, several abbreviations are words ("mar", "sie", "lis").
MONTH_INTL_ABBREV = (
    r"(?:sty|lut|kwi|cze|lip|sie|wrz|paź|paz|lis|gru|janv|févr|fevr|fév|avr|juil|déc|ene|abr"
    r"|ago|dic|mär|okt|dez|mrt|gen|mag|giu|lug|set|ott|fev|out|mar|mai|jun|jul|sept?|nov|feb)"
)
_DATE_INTL_ABBREV = _c(
    rf"(?<![\w/.,-]){_DAY}\.?[ ]+(?:de[ ]+)?{MONTH_INTL_ABBREV}\.?[ ]+(?:de[ ]+)?(?:19|20)\d\d"
    r"(?![\w])",
    re.IGNORECASE,
)
# A month in lower case before a day written as an ordinal ("nov. 3rd", "june 14th"): the
# ordinal makes it a date where "may 3" alone would not be one.
_DATE_MONTH_DAY_LOWER = _c(
    rf"(?<![\w/.-])(?:(?!may\b){MONTH.lower()})\.?[ ]+{_DAY}(?:st|nd|rd|th)\b(?![-\w])"
)
# Sign-offs of other languages before a name on the next line (French, German, Dutch, Spanish,
# Italian, Portuguese, Polish, Czech, the Scandinavian languages, Finnish, Turkish, Hungarian,
# Russian, Māori, Tagalog, Swahili, Hawaiian).
# Greetings of other languages before a name ("Hallo Andi,", "Caro Marco,", "Kedves Gábor!").
GREETING_INTL = (
    r"hallo|hola|ol[áa]|bonjour|bonsoir|salut|coucou|ciao|buongiorno|buonasera|hej|hei|hoi"
    r"|moin|servus|witam|cze[śs][ćc]|ahoj|szia|szervusz|merhaba|selam|halo|kia[ ]ora|talofa"
    r"|habari|jambo|marhaba|zdravo|здравствуйте|привет|привіт|estimad[oa]|querid[oa]|caro"
    r"|cara|liebe|lieber|beste|geachte|drog[ai]|sehr[ ]geehrte[rs]?|kedves|tisztelt|bom[ ]dia"
    r"|boa[ ]tarde|buenos[ ]d[íi]as|buenas[ ]tardes|god[ ]morgen|goedemorgen|dzie[ńn][ ]dobry"
)
SIGNOFF_INTL = (
    r"cordialement|bien[ ]à[ ]vous|bisous|amitiés|bien[ ]amicalement|(?:mit[ ])?freundlichen"
    r"[ ]grüßen|freundliche[ ]grüße|viele[ ]grüße|liebe[ ]grüße|beste[ ]grüße|lg|mfg|vg"
    r"|met[ ]vriendelijke[ ]groet(?:en)?|vriendelijke[ ]groet(?:en)?|groetjes|groeten"
    r"|hartelijke[ ]groet(?:en)?|saludos(?:[ ]cordiales)?|un[ ]saludo|atentamente|abrazos"
    r"|un[ ]abrazo|besos|cordiali[ ]saluti|distinti[ ]saluti|saluti|un[ ]abbraccio"
    r"|atenciosamente|abraços|beijos|cumprimentos|pozdrawiam|z[ ]poważaniem|pozdrav(?:y|em)?"
    r"|s[ ]pozdravem|(?:med[ ])?vänliga?[ ]hälsningar?|hälsningar|mvh|(?:med[ ])?venlig[ ]hilsen"
    r"|vennlig[ ]hilsen|hilsen|ystävällisin[ ]terveisin|terveisin|saygılarımla|üdvözlettel"
    r"|с[ ]уважением|ng[aā][ ]mihi|m[aā][ ]te[ ]w[aā]|noho[ ]ora[ ]mai|salamat|asante|mahalo"
    r"|pfiat[ ](?:eich|enk|di)|servus|tschüss|puszi|üdv|srdačno|ahoj"
)
# Two day.month dates joined as a range ("od 19.05 do 23.05", "03.04–07.04"): alone, "19.05"
# may be a price or a time; the range word and a second valid date make it a date.
_DOTTED_DAY_MONTH = r"(?<![\d.,])(?:0[1-9]|[12]\d|3[01])\.(?:0[1-9]|1[0-2])"
_RANGE_WORD = r"(?:-|–|—|do|to|bis|al|au|till|until|tot|a|až|–)"
_NOT_AN_AMOUNT = r"(?![ ]?(?i:eur|€|\$|£|zł|pln|kr|chf|usd|gbp|%|kg|km|h\b|uhr|godz))"
_DOTTED_RANGE = Trigger(
    _c(r"\d\d\.\d\d\.?[ ]?(?:-|–|—|do|to|bis|al|au|till|until|tot|a|až)[ ]?\d\d\.\d\d"), 0, 4
)
# A date written with Chinese, Japanese or Korean unit characters, with or without the year
# ("2024年3月5日", "3月5号", "2024년 3월 5일").
_DATE_CJK = _c(r"(?<!\d)(?:\d{4}[ ]?[年년][ ]?)?\d{1,2}[ ]?[月월][ ]?\d{1,2}[ ]?[日일号號](?!\d)")


# Age units of the languages we read, for an age in brackets: "(15 ans)", "(৮ বছর)", "(71y)".
_AGE_UNITS_INTL = (
    r"y|yo|yrs?|years?|ans|años|anos|anni|jahre|j\.|jaar|år|lat|лет|года?|років|роки|rokov"
    r"|let|vuotta|éves|yaş|tahun|tuổi|বছর|साल|سنة|سنوات|歳|岁|살"
)


def _cjk_day_valid(value: str) -> bool:
    month, day = (int(n) for n in re.findall(r"\d+", value)[-2:])
    return 1 <= month <= 12 and 1 <= day <= 31


# Weekday names in English, German, Spanish, French, Italian and Portuguese.
WEEKDAY_NAMES = (
    r"mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?"
    r"|sat(?:urday)?|sun(?:day)?|montag|dienstag|mittwoch|donnerstag|freitag|samstag"
    r"|sonntag|lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo|lundi|mardi"
    r"|mercredi|jeudi|vendredi|samedi|dimanche|luned[ìi]|marted[ìi]|mercoled[ìi]"
    r"|gioved[ìi]|venerd[ìi]|sabato|domenica|segunda|ter[çc]a|quarta|quinta|sexta"
)
WEEKDAY_ANCHORS = (
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
    "montag",
    "dienstag",
    "mittwoch",
    "donnerstag",
    "freitag",
    "samstag",
    "sonntag",
    "lunes",
    "martes",
    "miércoles",
    "miercoles",
    "jueves",
    "viernes",
    "sábado",
    "sabado",
    "domingo",
    "lundi",
    "mardi",
    "mercredi",
    "jeudi",
    "vendredi",
    "samedi",
    "dimanche",
    "luned",
    "marted",
    "mercoled",
    "gioved",
    "venerd",
    "sabato",
    "domenica",
    "segunda",
    "terça",
    "terca",
    "quarta",
    "quinta",
    "sexta",
    "mo",
    "di",
    "mi",
    "do",
    "fr",
    "sa",
    "so",
)
_MONTH_ANCHORS = tuple("jan feb mar apr may jun jul aug sep oct nov dec".split())
_WEEKDAY_BEFORE = re.compile(
    r"(?i)\b(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?"
    r"|sat(?:urday)?|sun(?:day)?)\.?,?[ ]+(?:the[ ]+)?$"
)


_DAY_SLASH_MONTH = r"(?<![\w/.,:-])(?:3[01]|[12]\d|0?[1-9])/(?:1[0-2]|0?[1-9])(?![\w/-]|[.,]\d)"
_LIST_GAP = r"(?:,[ ]?|[ ](?:and|&|y|et|und|e)[ ]|[ ]{1,3})"
_LISTED_BEFORE = re.compile(_DAY_SLASH_MONTH + _LIST_GAP + r"$")
_LISTED_AFTER = re.compile(_LIST_GAP + _DAY_SLASH_MONTH)


# Words that make a/b lists fractions, scores or quantities, not dates ("1/2 and 1/4 cup",
# "ratings were 4/5, 3/5", "split 1/3 and 2/3").
_FRACTION_CONTEXT = re.compile(
    r"(?i)\b(?:cups?|tsp|tbsp|teaspoons?|tablespoons?|inch(?:es)?|mm|cm|km|kg|oz|lbs?|ml"
    r"|miles?|litres?|liters?|grams?|scor(?:e|es|ed|ing)|rat(?:ed|ings?)|stars?|marks?"
    r"|points?|pts|out[ ]of|split|ratio|shares?|mix(?:ed|ture)?|weight|portions?|fractions?"
    r"|odds|parts?|recipe|percent)\b"
)
FRACTION_CONTEXT_CHARS = 40


def refine_listed_day_month(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Keep a day/month only when another stands right before or after it in a list, and
    nothing around says fractions, scores or quantities."""
    if text[start:end] == _ROUND_THE_CLOCK:
        return None
    around = text[max(0, start - FRACTION_CONTEXT_CHARS) : end + FRACTION_CONTEXT_CHARS]
    if _FRACTION_CONTEXT.search(around):
        return None
    after = _LISTED_AFTER.match(text, end)
    before = _LISTED_BEFORE.search(text, max(0, start - 12), start)
    neighbours = [m.group().strip(" ,&") for m in (after, before) if m is not None]
    if any(_ROUND_THE_CLOCK not in n for n in neighbours):
        return start, end
    return None


_ROUND_THE_CLOCK = "24/7"


def refine_date(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A date with the weekday written in the same phrase ("Monday, 3 June") starts at it."""
    m = _WEEKDAY_BEFORE.search(text, max(0, start - 16), start)
    return (m.start(), end) if m else (start, end)


_POSTCODE_CITY = _c(  # a postal code that starts an address line (or follows ", "), then a town
    r"(\d(?:(?<=, .)|(?<=: .)|(?<=\n.)|(?<![\s\S]{2})|(?<=\s[A-Z]-.)|(?<=\s[A-Z]{2}-.))"
    r"(?:\d-\d{3}|\d{2}[ ]\d{2}|\d{4}-\d{3}|\d{3}[ ]?[A-Z]{2}|\d{3,5}))"
    rf"[ ]+({CAP_WORD}(?:[ ](?:{CAP_WORD}|am|an[ ]der|sur|en|de|del|nad|pod|im|bei)){{0,3}}"
    rf"|[{CASELESS}]{{1,12}})(?=[ \t]*(?:$|[\n,.;)]))",
    re.MULTILINE,
)
_STREET_NUMBER_CITY = _c(
    rf"({CAP_FIRST}{CAP_REST}[ ]\d{{1,4}}[a-z]?(?:/\d{{1,4}})?),[ ]"
    rf"({CAP_WORD}(?:[ -]{CAP_WORD}){{0,2}})"
    r"(?=[ \t]*(?:$|[\n.;)]))",
    re.MULTILINE,
)
_CITY_STATE_ZIP = _c(
    rf"({CAP_FIRST}{CAP_REST}(?:[ ]{CAP_WORD}){{0,2}}),?[ ]+({US_STATES})[ ]+(\d{{5}}(?:-\d{{4}})?)"
    r"(?![\w-])"
)
_HU_MONTH = (
    "(?:január|február|március|április|május|június|július|augusztus|szeptember|október"
    "|november|december)"
)
# What follows a number that is an age limit, not someone's age ("26 or over", "18+").
_AGE_THRESHOLD = (
    r"[ ]?\+|[ ](?i:or[ ](?:over|older|above|under|younger|more|less)"
    r"|and[ ](?:over|older|above|under|up)|plus)\b"
)
_SPELLED_ORDINAL_DAY = (
    r"thirty[ -]first|(?:twenty[ -])?(?:first|second|third|fourth|fifth|sixth|seventh|eighth"
    r"|ninth)"
    r"|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth"
    r"|eighteenth|nineteenth|twentieth|thirtieth"
)
_HU_MONTH_ABBREV = r"(?:jan|febr?|márc|ápr|máj|jún|júl|aug|szept?|okt|nov|dec)\."
_HU_WEEKDAY = "(?:hétfő|kedd|szerda|csütörtök|péntek|szombat|vasárnap)"
_TYPED_STREET = _c(
    rf"(?<![\w])(?i:rue|calle|c/|avenida|avda\.|av\.|paseo|carrer|camino|ronda|travesía|glorieta"
    rf"|viale|piazza|corso|vicolo|contrada|strada|rua|praça|travessa|alameda|estrada|ulica|ul\."
    rf"|aleja|plac|ул\.|улица|пр\.|просп\.|проспект|пер\.|переулок|ш\.|шоссе|наб\.|бул\.|пл\."
    rf"|вул\.|вулиця|шосе|площа|провулок|бульвар|проспект"
    rf"|boulevard|bd|chemin|allée|impasse|quai|cours|via|avenue|place|largo|route)[ ]+"
    rf"(?:(?:de|del|de[ ]la|de[ ]l'|des|du|da|do|dos|das|di|della|dei|degli|le|la|les|el|los"
    rf"|las)[ ]+)?[{U}][\w'’-]{{0,40}}"
    rf"(?:[ ]+(?:(?:de|del|la|da|do|di|y|e)[ ]+)?[{U}][\w'’-]{{0,40}}){{0,3}}"
    rf"(?:,?[ ]+(?:(?:n[º°o]\.?|д\.|буд\.)[ ]*)?\d{{1,4}}[a-zA-Z]?(?:[-/]\d{{1,4}})?(?!\d)"
    rf"(?:,?[ ](?:кв|к|стр)\.[ ]?\d{{1,4}})?)?"
)


# Longer strings are joined flat, longest first (same matches): the prefix tree nests one group
# per character, and Python's regex compiler recurses once per nesting level.
ALTERNATION_TREE_MAX_CHARS = 200


def word_alternation(words: frozenset[str]) -> str:
    """A regex alternation of these strings factored by shared prefixes (much faster than a
    flat one; a longer string still wins over its prefix)."""
    if any(len(word) > ALTERNATION_TREE_MAX_CHARS for word in words):
        return (
            "(?:" + "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w))) + ")"
        )
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(c) + emit(child) for c, child in sorted(node.items()) if c]
        optional = "" in node
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if optional:
            return "(?:" + body + ")?"
        return body

    return emit(tree)


NATIONALITY = word_alternation(NATIONALITY_WORDS)
_NATIONALITY_WORD = _c(
    rf"(?<![\w'’-])(?:{NATIONALITY})(?:-(?:{NATIONALITY}))?(?![\w'’-])", re.IGNORECASE
)
_URL_SCHEME_TRIGGER = Trigger(_c("://"), 21, 200)
# A religion, not inside an institution's name ("Catholic University") nor a given name
# ("Christian Weber").
_RELIGION_WORD = _c(
    r"(?<![\w'’-])(?i:" + word_alternation(RELIGION_WORDS) + r")(?![\w'’]|-(?!ish\b))"
    r"(?![ ](?i:church|university|school|college|hospital|cathedral|chapel|mission|society"
    r"|charity|union|community|cent(?:re|er)|association|council|diocese|parish)\b)"
    r"(?![ ][A-Z][a-z])"
)
# A nationality said of a person: "she is Ghanaian", "as a Polish national", "(Portuguese)".
# The match starts at the nationality word (fixed-width look-behinds for the context), so
# the rule shares the nationality words' anchor positions.
_SAID_OF_PERSON = "|".join(
    f"(?<={before})"
    for before in (
        r"\bis ",
        r"\bam ",
        r"\bare ",
        r"\bwas ",
        r"\bwere ",
        r"\bto be ",
        r"\bbeing ",
        r"\bas ",
        r"\bborn ",
        r"\braised ",
        r"\bis a ",
        r"\bis an ",
        r"\bas a ",
        r"\bas an ",
        r"'s a ",
        r"'m a ",
        r"\bhalf ",
        r"\bproud ",
        r"\bfellow ",
        r"naturalised ",
        r"naturalized ",
        r"nationality: ",
        r"nationality ",
        r"citizenship: ",
        r"\(",
    )
)
_NATIONALITY_OF_PERSON = _c(
    rf"(?i:{_SAID_OF_PERSON})"
    rf"((?i:{NATIONALITY})(?:-(?i:{NATIONALITY}))?)"
    r"(?=[ ]?(?:[,.;!?)]|$|[ ](?i:national|citizen|man|woman|male|female|guy|girl|boy|lady"
    r"|gentleman|person|family|couple|too|by[ ]birth|origin|descent|background|heritage)\b))",
    re.MULTILINE,
)
# Role words written before a Japanese or Korean honorific that are no names (患者さん, 고객 씨).
CJK_ROLE_WORDS = (
    "患者|利用者|担当者|会員|保護者|関係者|社長|部長|課長|店長|運転手|家族|住民|生徒|学生|選手|先生"
    "|皆|お客|彼女|彼氏|友達|奥|旦那|고객|선생|사장|기사|손님|환자|학생|아저|아가|마음"
)
_FINANCIAL_INSTITUTION = _c(
    r"(?<![\w&'’.-])"
    + word_alternation(FINANCIAL_INSTITUTIONS)
    + r"(?![\w&'’]|-\w|[ ](?:Arena|Stadium|Park|Centre|Center|Tower|Building|Premier[ ]League"
    r"|Open|Cup|Championship|Pavilion|Field|Stage|Theatre|Theater)\b)"
)

_PERSON_NOUNS = (
    "man|men|woman|women|male|female|guy|girl|boy|lady|ladies|gentleman|person|people|national"
    "|citizen|resident|family|couple|student|doctor|nurse|driver|worker|engineer|architect"
    "|colleague|friend|neighbou?r|patient|client|customer|boyfriend|girlfriend|partner|husband"
    "|wife|mother|father|mum|dad|son|daughter|grandmother|grandfather|parents?|immigrant"
    "|migrant|refugee|asylum[ ]seeker|tourist|visitor|national|lad|youth|teenager|child|kid"
    "|member(?![ ](?:states?|countr(?:y|ies)|nations?|banks?|firms?|organi[sz]ations?))|guest"
    "|passenger|employee|convert|appearance|complexion"
    "|baby|pensioner|community|descent|heritage|origin|background|ancestry"
)
# Words that end the nationality's phrase ("he prefers English but his wife ...").
_NOT_BETWEEN = (
    "(?:but|and|or|nor|his|her|their|my|your|our|its|the|a|an|to|for|with|of|in|on|at|by|from"
    "|who|that|which|is|was|are|were|be|has|have|had|as|than|so|if|when|while|because|like)"
)
_NATIONALITY_BEFORE_PERSON = _c(
    rf"(?<![\w'’-])((?i:{NATIONALITY})(?:-(?i:{NATIONALITY}))?)"
    rf"(?=(?:[ ](?!{_NOT_BETWEEN}\b)[a-z][a-z-]{{1,20}}){{0,2}}[ ](?:{_PERSON_NOUNS})s?\b)"
)
GROUP_NOUN_WORDS = GROUP_NOUNS | plural_group_nouns(NATIONALITY_WORDS)
_GROUP_NOUN = _c(
    r"(?<![\w'’-])(?:(?i:" + word_alternation(GROUP_NOUN_WORDS) + r")"
    r"|" + word_alternation(CAPITALISED_GROUP_NOUNS) + r")(?![\w'’-])"
)
_FOREIGN_GROUP_WORD = _c(
    r"(?<![\w'’-])(?i:" + word_alternation(FOREIGN_GROUP_WORDS) + r")(?![\w'’-])"
    r"(?![ ][A-Z][a-z])"
)
# Nouns after which a nationality adjective describes a thing, not a person.
_THING_BEFORE_FOREIGN_GROUP = re.compile(
    r"(?i)\b(?:cocina|comida|cozinha|comida|cucina|cuisine|küche|keuken|kuchnia|langue|lengua"
    r"|língua|lingua|idioma|sprache|taal|język|república|république|repubblica|republik"
    r"|embajada|ambassade|ambasciata|botschaft|consulado|consulat|selección|seleção|nazionale"
    r"|équipe|mannschaft|liga|ligue|cerveza|vino|vin|wein|música|musique|musica|musik)"
    r"[ ]+(?:de[ ]la[ ]|de[ ]|del[ ])?$"
)


def refine_foreign_group(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A foreign nationality after a word for a cuisine, language, state or team describes
    that thing ("cocina mexicana", "langue française"): not a person's."""
    if _THING_BEFORE_FOREIGN_GROUP.search(text, max(0, start - 30), start):
        return None
    return start, end


_STATE_ZIP_TRIGGER = Trigger(_c(rf"(?<![\w]){US_STATES}[ ]+\d{{5}}"), 140, 12)
_STREET_NUMBER_TRIGGER = Trigger(_c(r"[ ]\d{1,4}[a-z]?(?:/\d{1,4})?,[ ]"), 45, 130)

_ROLE_WORDS = (
    r"patient|client|employee|candidate|applicant|tenant|landlord|plaintiff|defendant|witness"
    r"|claimant|respondent|petitioner|beneficiary|caller|resident|guardian|decedent|insured"
    r"|policyholder|debtor|creditor|buyer|seller|lessee|lessor|employer|contractor|physician"
    r"|nurse|surgeon|agent|representative|interviewer|interviewee|student|pupil|member|user"
    r"|customer"
)
_ROLE_ANCHORS = (
    "patient",
    "client",
    "employ",
    "candidate",
    "applicant",
    "tenant",
    "landlord",
    "plaintiff",
    "defendant",
    "witness",
    "claimant",
    "respondent",
    "petitioner",
    "beneficiary",
    "caller",
    "resident",
    "guardian",
    "decedent",
    "insured",
    "policyholder",
    "debtor",
    "creditor",
    "buyer",
    "seller",
    "lessee",
    "lessor",
    "contractor",
    "physician",
    "nurse",
    "surgeon",
    "agent",
    "representative",
    "interview",
    "student",
    "pupil",
    "member",
    "user",
    "customer",
)
_MY_RELATIVE = (
    r"(?:my|our|her|his|their|your)[ ]"
    r"(?:(?:eldest|youngest|older|younger|little|big|late|twin)[ ])?"
    r"(?:(?:son|daughter|mother|father|brother|sister)-in-law|step(?:mother|father|son|daughter)"
    r"|god(?:mother|father|son|daughter)|grandson|granddaughter|union[ ]rep|support[ ]worker"
    r"|social[ ]worker|key[ ]worker|carer|wife|husband|partner|spouse|son|daughter|mother|mom"
    r"|mum|father|dad|brother|sister"
    r"|friend|best[ ]friend|boss|manager|colleague|coworker|co-worker|neighbou?r|girlfriend"
    r"|boyfriend|fianc[ée]e?|roommate|flatmate|doctor|therapist|lawyer|attorney|cousin|uncle"
    r"|aunt|grandmother|grandma|grandfather|grandpa|nephew|niece|child|kid|baby|landlord|tenant"
    r"|teacher|coach|ex|stepson|stepdaughter|caregiver|carer)"
)
_RELATIVE_BEFORE = re.compile(
    rf"(?i:\b{_MY_RELATIVE})[ \t]*,?[ \t]*(?:(?:is[ ])?(?:named|called)[ \t]+)?$"
)
_LABEL_WORDS = (
    r"patient|client|employee|candidate|applicant|tenant|plaintiff|defendant|witness|claimant"
    r"|respondent|caller|customer|member|student|guardian|resident|emergency[ ]contact"
    r"|next[ ]of[ ]kin|full[ ]name|(?:first|last|sur|given|family|maiden)[ ]?name|name|contact"
    r"|attn|attention|signed|signature|prepared[ ]by|reviewed[ ]by|approved[ ]by|submitted[ ]by"
    r"|requested[ ]by|assigned[ ]to|owner|reporter|assignee|author|from|to|cc|bcc|spouse"
    r"|physician|provider|referring[ ]physician|pcp|agent|rep|interviewer|nurse|doctor|dr"
)
_LABEL_ANCHORS = (
    "patient",
    "client",
    "employee",
    "candidate",
    "applicant",
    "tenant",
    "plaintiff",
    "defendant",
    "witness",
    "claimant",
    "respondent",
    "caller",
    "customer",
    "member",
    "student",
    "guardian",
    "resident",
    "emergency",
    "next",
    "full",
    "first",
    "last",
    "sur",
    "given",
    "family",
    "maiden",
    "name",
    "contact",
    "attn",
    "attention",
    "sign",
    "prepared",
    "reviewed",
    "approved",
    "submitted",
    "requested",
    "assigned",
    "owner",
    "reporter",
    "assignee",
    "author",
    "from",
    "to",
    "cc",
    "bcc",
    "spouse",
    "physician",
    "provider",
    "referring",
    "pcp",
    "agent",
    "rep",
    "interviewer",
    "nurse",
    "doctor",
    "dr",
)
_INTRO_WORDS = (
    r"this[ ]is|it's|it[ ]is|i'm|i[ ]am|spoke[ ](?:to|with)|speaking[ ](?:to|with)"
    r"|talked[ ](?:to|with)|met[ ]with|meeting[ ]with|named|called|with|cc|told|asked|ask"
    r"|email|emailed|call|contact|ping|invite|invited|introduce|introducing|welcome|visited|saw"
    r"|see|meet|met|thank|thanks"
)
_INTRO_ANCHORS = (
    "this",
    "it",
    "i'm",
    "i am",
    "spoke",
    "speaking",
    "talked",
    "met",
    "meet",
    "named",
    "called",
    "with",
    "cc",
    "told",
    "ask",
    "email",
    "call",
    "contact",
    "ping",
    "invite",
    "introduc",
    "welcome",
    "visited",
    "saw",
    "see",
    "thank",
)
_RANKS = (
    r"PC|DC|DS|DI|DCI|DSU|Sgt|Insp|PCSO|Cllr|Sheriff|Judge|Officer|Constable|Detective|Sergeant"
    r"|Inspector|Fr|Sister|Brother|Agent|Coach|Nurse|Councillor|Capt|Lt|Col|Maj|Cpl|Pte"
)
_TITLES = r"Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Dame|Rev|Herr|Frau|Mme|Mlle|Sr|Sra|Srta|Dott|Sig|Pan|Pani"

_HEAD_FIRST_ANCHORS = frozenset(
    """
banco banca banque clínica clinica clinique klinik klinikum policlínica policlinico
farmacia farmácia pharmacie apotheke paróquia parroquia parrocchia paroisse colegio colégio
collège lycée escola escuela scuola liceo universidad universidade università
université universität hochschule restaurante ristorante trattoria cooperativa coopérative
genossenschaft associação asociación associazione fundación fundação fondazione
fondation stiftung instituto istituto institut hôpital ospedale krankenhaus
consultorio ambulatorio école ecole gymnasium grundschule realschule gesamtschule mittelschule
""".split()
)
# A school's level written in lower case between its head word and its name (École secondaire
# des Érables).
_SCHOOL_LEVEL = (
    r"(?:secondaire|primaire|élémentaire|maternelle|privée|publique|secundaria|primaria"
    r"|secundária|primária|básica|elementare|media|superiore|statale)"
)
_HEAD_FIRST_INSTITUTION = "|".join(
    sorted((w[0].upper() + w[1:] for w in _HEAD_FIRST_ANCHORS), key=len, reverse=True)
)
_HEAD_PARTICLE = r"(?:de|del|de[ ]la|da|do|dos|das|di|della|delle|degli|des|du|der|am|an)"
_PUBLIC_BODY_WORD = re.compile(r"\b(?:Nacional|Nazionale|National|Nationale|Federal|Municipal)\b")


def refine_not_public_body(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A state's institute or agency ("Instituto Nacional de Estadística") is a public
    authority named as such, not gold (the annotation guideline)."""
    return None if _PUBLIC_BODY_WORD.search(text, start, end) else (start, end)


# "AIB account (IE12 ...", "QBE policy MOT-44017823": the number within 40 characters.
# (The trigger is the bare word: a literal the prefilter finds at no cost.)
_ACCOUNT_WORD = _c(r"[ ](?:account|acct|a/c|policy)\b")
_HOLDER_WORD = r"(?:[A-Z][A-Za-z&'’-]{1,19}|[A-Z0-9&]{2,8})"
_BANK_BEFORE_ACCOUNT = _c(
    rf"(?<![\w&'’-])({_HOLDER_WORD}(?:[ ]{_HOLDER_WORD}){{0,2}})"
    r"[ ](?:account|acct|a/c|policy)\b(?=[^\n]{0,40}?\d{4})"
)


def refine_holder(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The holder's name without a leading "The", "Your" ... ("The Revolut account")."""
    while True:
        space = text.find(" ", start, end)
        if space < 0 or text[start:space].casefold() not in STARTERS:
            return start, end
        start = space + 1


# Capitals before "account" that name a currency, a tax, a scheme or a platform, not a bank.
_NOT_HOLDERS = frozenset(
    "EUR USD GBP CHF JPY SEK NOK DKK PLN CZK HUF RON CAD AUD NZD INR CNY HKD SGD ZAR BRL MXN"
    " TRY ISA VAT PAYE NHS HMRC AWS GCP SEPA ACH BACS CHAPS SWIFT IBAN BIC PIN ID UK US EU"
    " API IT HR".split()
)


def _holder_name(value: str) -> bool:
    """A bank's or insurer's name, not a sort of account ("Current", "Joint Savings",
    "Your", "EUR", "VAT"): a word in capitals ("AIB") or one that is not a common English
    word."""
    words = value.split()
    if any(w in _NOT_HOLDERS or "/" in w for w in words):
        return False
    return any(
        (w.isupper() and any(c.isalpha() for c in w))
        or (zipf(w.casefold()) < 3.3 and w.casefold() not in NOT_A_NAME)
        for w in words
    )


# The relatives and roles before a first name in `person_after_kin_intl`, and the log actions
# before a login in `handle_by_in_log`: each rule's alternation and its anchors.
_KIN_WORDS = tuple(
    """
ehemann ehefrau sohn tochter bruder schwester freundin enkelin schwager schwägerin kollegin
kollege kæreste kæresten hustru manden konen sønnen datteren søster sønn dotter syster sambo
pojkvän flickvän kjæreste tytär poika veli sisko sisar vaimo puoliso poikaystävä tyttöystävä
esimies kierownik kierowniczka brat siostra córka mąż żona szef szefowa koleżanka zoon dochter
broer zus echtgenoot echtgenote vriendin hijo hija hermano hermana marido esposo esposa novio
novia figlio figlia fratello sorella marito moglie filho filha irmão irmã namorado namorada fils
fille frère sœur soeur mari épouse copain copine broker landlord landlady neighbour neighbor
flatmate roommate housemate stepson stepdaughter stepdad stepmum stepmom grandson granddaughter
brother-in-law sister-in-law
""".split()
)
_LOG_ACTIONS = tuple(
    """
triggered requested approved initiated started merged pushed deployed committed authored
created deleted modified updated revoked granted executed reviewed locked unlocked reset opened
closed assigned
""".split()
)

# The keys after which `nationality_or_religion_intl_second` takes a second value.
_SECOND_VALUE_KEYS = tuple(
    """
staatsbürgerschaft staatsangehörigkeit nationalität religionsbekenntnis konfession nacionalidad
nationalité nazionalità nacionalidade nationaliteit narodowość obywatelstwo wyznanie citizenship
nationality religion ethnicity kansalaisuus uskonto
""".split()
)


RULES: tuple[Rule, ...] = (
    # --- secrets (first: their spans contain text other rules would split up)
    Rule(
        "pem_private_key",
        "secret",
        _c(
            r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]{0,12000}?"
            r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----"
        ),
        HIGH,
        "PEM private-key block",
        anchors=("-----begin",),
    ),
    Rule(
        "jwt",
        "secret",
        _c(r"(?<![\w-])eyJ[A-Za-z0-9_-]{5,4000}\.eyJ[A-Za-z0-9_-]{5,4000}\.[A-Za-z0-9_-]{10,4000}"),
        HIGH,
        "JSON Web Token: base64url header.payload.signature",
        anchors=("eyj",),
    ),
    Rule(
        "api_key_prefixed",
        "secret",
        _c(
            r"(?<![\w-])(?:sk-(?:proj-|ant-(?:api\d\d-)?|live-)?[A-Za-z0-9_-]{20,200}"
            r"|gh[pousr]_[A-Za-z0-9]{36,200}|github_pat_[A-Za-z0-9_]{22,200}"
            r"|xox[baprs]-[A-Za-z0-9-]{10,200}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}"
            r"|glpat-[0-9A-Za-z_-]{20,200}|(?:sk|pk|rk)_(?:live|test)_[0-9A-Za-z]{16,200}"
            r"|hf_[A-Za-z0-9]{30,200}|npm_[A-Za-z0-9]{36}|SG\.[\w-]{22}\.[\w-]{43})(?![\w-])"
        ),
        HIGH,
        "API key or token with a vendor prefix (sk-, ghp_, github_pat_, xox?-, AKIA, "
        "AIza, glpat-, sk_live_, hf_, npm_, SG.)",
        anchors=(
            "sk",
            "gh",
            "github_pat_",
            "xox",
            "akia",
            "asia",
            "aiza",
            "glpat-",
            "pk_",
            "rk_",
            "hf_",
            "npm_",
            "sg.",
        ),
    ),
    Rule(
        "secret_security_answer",
        "secret",
        _c(
            r"(?i:\b(?:security[ ]answer|secret[ ]answer|memorable[ ](?:word|information|name)"
            r"|mother['’]?s[ ]maiden[ ]name|answer[ ]to[ ](?:the|my|your)[ ]security[ ]question)"
            r"(?:[ ](?:is|was))?(?:[ \t]*[:=][ \t]*[\"“']?|[ ][\"“']|[ ](?=(?-i:[A-Z0-9]))))"
            r"([^\s\"”'.,;:]{2,40})"
        ),
        MEDIUM,
        "the answer after security answer / memorable word / mother's maiden name",
        group=1,
        anchors=("security answer", "secret answer", "memorable", "mother", "answer to"),
    ),
    Rule(
        "secret_assignment",
        "secret",
        _c(
            r"(?i:\b(?:password|passwd|pwd|pw|passcode|passphrase|pin|api[_ -]?key|secret|token"
            r"|access[_ -]?key|client[_ -]?secret|auth[_ -]?token|senha|contrase(?:ñ|n)a|mot[ ]de"
            r"[ ]passe|mdp|passwort|kennwort|wachtwoord|has(?:ł|l)o|l(?:ö|o)senord|salasana|heslo"
            r"|(?:ş|s)ifre|parola)\b)(?:[^\n.:=]{0,40}?\b(?:is|was|ist|es|est|è|er|är|jest"
            r"|(?:set|changed|reset)[ ]to)\b(?:[ ](?:still|now|currently|noch))?"
            r"[ \t]*[:=]?|[\"']?[ \t]*[:=]|(?:[ ][^\s:=]{1,15}){1,3}[ \t]*:|[ ](?=[\"“'])"
            r"|[ \t]+[-–—](?=[ \t]))"
            r"[ \t]*[\"“']?"
            r"([^\s\"'`]{4,80})"
        ),
        MEDIUM,
        "value with a digit, symbol or mixed case after password/secret/token/api key "
        "(is, :, =, set to)",
        group=1,
        validate=_secret_value,
        refine=refine_secret_value,
        anchors=(
            "pass",
            "pwd",
            "pw",
            "pin",
            "api",
            "secret",
            "token",
            "access",
            "client",
            "auth",
            "senha",
            "contrase",
            "mot de passe",
            "mdp",
            "passwort",
            "kennwort",
            "wachtwoord",
            "hasło",
            "haslo",
            "lösenord",
            "losenord",
            "salasana",
            "heslo",
            "şifre",
            "sifre",
            "parola",
        ),
    ),
    Rule(
        "high_entropy_token",
        "secret",
        _c(_first(r"[A-Za-z0-9_+/=-]", r"[\w/+=.-]") + r"[A-Za-z0-9_+/=-]{19,199}+(?![\w/+=-])"),
        LOW,
        "token of 20+ characters with letters and digits, no word-like letter runs, "
        "Shannon entropy ≥ 3.5 bits/char (3.0 for hex); not a public key's fingerprint "
        "(SHA256:...)",
        validate=looks_like_secret,
        refine=refine_not_fingerprint,
    ),
    # --- contact and network identifiers
    Rule(
        "email",
        "email address",
        _c(
            _first(r"[\w.%+-]", r"[\w.%+-]") + r"[\w.%+-]{0,63}+@(?:[\w-]{1,63}+\.){1,8}"
            r"[^\W\d_]{2,24}(?![\w-])"
        ),
        HIGH,
        "local@domain.tld shape (not the password@host of a URL's credentials)",
        refine=refine_not_url_credentials,
        requires=("@",),
        trigger=Trigger(_c("@"), 64, 600),
    ),
    Rule(
        "url",
        "url",
        _c(r"(?<![\w@])(?:(?:https?|ftp)://|www\.)[^\s<>\"'`]{2,2000}", re.IGNORECASE),
        HIGH,
        "scheme or www. prefix",
        refine=refine_url,
        anchors=("http", "ftp", "www."),
    ),
    Rule(
        "domain",
        "url",
        _c(
            _first("[a-z0-9]", r"[\w@./-]") + r"[a-z0-9-]{0,62}+\.(?:[a-z0-9-]{1,63}+\.){0,5}"
            r"(?:com|org|net|io|co|uk|de|fr|es|it|nl|eu|info|biz|app|dev|me|us|ca|au|ru|jp"
            r"|cn|br|in|ch|se|no|pl|be|at|dk|fi|cz|pt|gr|ie|nz|za|mx|tv|xyz|ai|edu|gov)"
            r"(?:/[^\s<>\"'`]{0,2000})?(?![\w@-])",
            re.IGNORECASE,
        ),
        MEDIUM,
        "bare domain with a common top-level domain",
        refine=refine_url,
        requires=(".",),
        trigger=Trigger(
            _c(
                r"\.(?:com|org|net|io|co|uk|de|fr|es|it|nl|eu|info|biz|app|dev|me|us|ca|au|ru|jp"
                r"|cn|br|in|ch|se|no|pl|be|at|dk|fi|cz|pt|gr|ie|nz|za|mx|tv|xyz|ai|edu|gov)"
                r"(?![a-z0-9-])",
                re.IGNORECASE,
            ),
            400,
            2010,
        ),
    ),
    Rule(
        "handle",
        "handle",
        _c(
            r"(?<![\w@.+/-])@[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,28}[A-Za-z0-9_])?"
            r"(?:@[\w-]{1,63}(?:\.[\w-]{1,63}){1,6})?(?![\w@])"
        ),
        MEDIUM,
        "@user social handle (optionally @user@instance)",
        anchors=("@",),
    ),
    Rule(
        "username_context",
        "handle",
        _c(
            r"(?i:\b(?:user[ ]?name|login[ ]as|login(?=[ ]is\b)|logged[ ]in[ ]as|log[ ]in[ ]as"
            r"|signed[ ]in[ ]as|deploying[ ]as|running[ ]as|connected[ ]as|authenticated[ ]as"
            r"|screen[ ]name|nick(?:name)?|alias|handle)\b)[ \t]*(?:is|will[ ]be|was|:|=|-)?[ \t]*"
            r"([A-Za-z0-9][A-Za-z0-9._-]{1,30}[A-Za-z0-9])(?![\w@-]|\.\w)"
        ),
        MEDIUM,
        "user name after 'username is', 'login as', 'logged in as'",
        group=1,
        validate=_not_a_common_word,
        anchors=(
            "user",
            "login",
            "logged",
            "log in",
            "signed",
            "deploying",
            "running",
            "connected",
            "authenticated",
            "screen",
            "nick",
            "alias",
            "handle",
        ),
    ),
    Rule(
        "username_weak",
        "handle",
        _c(
            r"(?i:\b(?:user|admin|account|member|login|by)[ ](?:(?:user|admin|login)[ ])?)"
            r"([A-Za-z0-9][A-Za-z0-9._-]{1,30}[A-Za-z0-9])(?![\w@-]|\.\w)"
        ),
        LOW,
        "identifier-like token (digits, dots, underscores) after user/admin/login",
        group=1,
        validate=_identifier_like,
        anchors=("user ", "admin ", "account ", "member ", "login ", "by "),
    ),
    Rule(
        "username_unknown_word",
        "handle",
        _c(
            rf"(?i:\b(?:user|login|account)[ ]|\b(?:{_RECORDED})(?:[ ][\d/.-]{{6,10}})?[ ]by[ ])"
            r"([a-z][a-z0-9]{4,24})(?![\w@-]|\.\w)"
        ),
        LOW,
        "a lower-case login that is no word after user/login/account or a record's 'printed "
        "by' (logs for user dfurlong, printed by jmckenzie)",
        group=1,
        validate=_unknown_lower_word,
        anchors=("user ", "login ", "account ", *_RECORDED.split("|")),
    ),
    Rule(
        "username_parenthesised",
        "handle",
        _c(r"\(([a-z][a-z0-9]{0,20}[._][a-z0-9._]{1,20}|[a-z]{2,20}\d{1,6})\)"),
        LOW,
        "lower-case user name in parentheses, e.g. after a person's name (jdoe_42)",
        group=1,
        requires=("(",),
    ),
    Rule(
        "ipv4",
        "ip address",
        _c(_first(r"\d", r"[\w.]") + r"\d{0,2}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?:/\d{1,2})?(?!\w|\.\d)"),
        HIGH,
        "four dotted octets 0–255, not a public resolver's (1.1.1.1, 8.8.8.8) nor 0.0.0.0 "
        "or 127.0.0.1",
        validate=_ipv4_of_someone,
        requires=(".",),
    ),
    Rule(
        "ipv6",
        "ip address",
        _c(
            _first("[0-9A-Fa-f:]", r"[\w:.]") + r"[0-9A-Fa-f]{0,4}:[0-9A-Fa-f:]{1,37}"
            r"(?![\w:]|\.\w)"
        ),
        HIGH,
        "colon-separated hex groups that parse as an IPv6 address",
        validate=ipv6_valid,
        requires=("::", ":"),
    ),
    Rule(
        "mac_address",
        "mac address",
        _c(
            _first("[0-9A-Fa-f]", r"[\w:-]") + r"(?:[0-9A-Fa-f]([:-])(?:[0-9A-Fa-f]{2}\1){4}"
            r"[0-9A-Fa-f]{2}|[0-9A-Fa-f]{3}\.[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4})(?![\w:-])"
        ),
        HIGH,
        "six hex pairs separated by : or - (or Cisco dotted form)",
    ),
    Rule(
        "phone",
        "phone number",
        _c(
            # a comma may stand before "+" or "(" (a CSV cell), not before a digit ("1,234,567")
            r"[+(\d](?<![\w+/.#@-].)(?<!,\d)"
            r"(?:[\d()]|[ .\-\u00a0/](?=[\d(])){5,30}"
            r"(?:[ ]?(?:ext\.?|x|\#)[ ]?\d{1,5})?(?![\w]|[.,/-]\d)",
            re.IGNORECASE,
        ),
        HIGH,
        "international (+cc/00cc), trunk-0, (area) or 3-3-4 digit layout; not a date",
        refine=refine_phone,
    ),
    Rule(
        "phone_context",
        "phone number",
        _c(
            r"(?i:\b(?:phone|tel|telephone|mobile|mob|cell|cellphone|fax|whatsapp|landline"
            r"|call(?:[ ]me)?(?:[ ](?:at|on))?|text(?:[ ]me)?(?:[ ](?:at|on))?|ring(?:[ ]me)?"
            r"(?:[ ](?:at|on))?|reach(?:[ ](?:me|us|him|her|them))?[ ](?:at|on)"
            r"|contact[ ](?:number|no\.?)|contact"
            r"|(?:new|my|mobile|phone|cell|home|work|direct|office)[ ](?:number|line)(?:[ ]is)?"
            r"|dial|sms|txt|ph\.?|tél\.?|telefon|teléfono|móvil|handy|number[ ](?:is|:)"
            r"|get[ ](?:me|hold[ ]of[ ]me)[ ](?:at|on)|contact[ ]me[ ](?:at|on)|l[ií]nea"
            r"|atenci[oó]n[ ]al[ ]cliente|customer[ ](?:service|care)|helpline|hotline|cellulare"
            r"|portable|gsm|tlf|tfno|telefone|telefono|numer[ ]tel\.?)"
            r"\b)[^\d\n+(]{0,40}([+(]?\d(?:[\d()./-]|[ ](?=[\d(./-])){5,20}\d)(?![\w])"
        ),
        HIGH,
        "7–15 digits after a phone keyword (tel, mobile, call me at, ...)",
        group=1,
        validate=digits_in_phone_range,
        anchors=(
            "phone",
            "tel",
            "mob",
            "cell",
            "fax",
            "whatsapp",
            "landline",
            "call",
            "text",
            "ring",
            "reach",
            "contact",
            "new",
            "my",
            "home",
            "work",
            "direct",
            "office",
            "dial",
            "sms",
            "txt",
            "ph",
            "tél",
            "telef",
            "teléf",
            "móvil",
            "handy",
            "number",
            "get me",
            "get hold",
            "línea",
            "linea",
            "atención",
            "atencion",
            "customer",
            "helpline",
            "hotline",
            "cellulare",
            "portable",
            "gsm",
            "tlf",
            "tfno",
            "numer",
        ),
    ),
    Rule(
        "phone_label_after",
        "phone number",
        _c(
            "("
            + _first(r"[+(\d]", r"[\w+/.#@-]")
            + r"(?:[\d()./-]|[ ](?=[\d(./-])){6,20}\d)"
            + _PHONE_LABEL_AFTER
        ),
        HIGH,
        "7–15 digits labelled right after as a line (555 123 4567 (office), 374 780 163-Fax)",
        group=1,
        validate=digits_in_phone_range,
        requires=PHONE_LABELS,
        trigger=Trigger(_c(r"\d" + _PHONE_LABEL_AFTER), 32, 0),
    ),
    # --- government and financial identifiers
    Rule(
        "ssn",
        "ssn",
        _c(_first(r"\d", r"[\w-]") + r"\d\d-\d\d-\d{4}(?![\w-])"),
        HIGH,
        "US SSN layout AAA-GG-SSSS with valid area/group/serial",
        validate=ssn_valid,
    ),
    Rule(
        "ssn_context",
        "ssn",
        _c(
            r"(?i:\b(?:ssn|social[ ]security(?:[ ](?:number|no\.?|#))?)\b)"
            + KEY_SEP
            + r"(\d{3}[ -]?\d{2}[ -]?\d{4})(?![\w-])"
        ),
        HIGH,
        "nine digits after SSN / social security number",
        group=1,
        anchors=("ssn", "social"),
    ),
    Rule(
        "national_id_context",
        "national id",
        _c(
            r"(?i:\b(?:national[ ](?:id|identity|insurance)(?:[ ](?:number|no\.?|card))?"
            r"|insurance[ ](?:id|number|no\.?)|id[ ](?:number|no\.?|card)|identity[ ](?:number"
            r"|card)|NI[ ]number|NINO|tax[ ](?:id|number|code)|TIN|SIN|NIE|DNI|NIF|PESEL|BSN"
            r"|CPF|CURP|personnummer|steuer-?id|codice[ ]fiscale|sozialversicherungsnummer|PAN"
            r"|aadhaar|CHI|PPSN?|CNP|NIN|NIC|JMBG|OIB|EGN|AMKA|NIR|NISS|RRN|HKID|UPN|PNC[ ]ID"
            r"|(?:residence[ ])?permit(?:[ ](?:no\.?|number|card))?|aufenthaltstitel(?:[ ]nr\.?)?"
            r"|insured[ ](?:no\.?|number)|versichertennummer|C\.F\.|CF|f(?:ø|oe)dselsnr\.?"
            r"|f(?:ø|oe)dselsnummer|personnr\.?|personal[ ](?:id|identity)[ ](?:number|code|no\.?)"
            r"|henkil(?:ö|o)tunnus|CPR(?:-nr\.?)?|burgerservicenummer|rijksregisternummer|PhilHealth"
            r"(?:[ ]ID)?(?:[ ]number|[ ]no\.?)?|SSS(?:[ ]no\.?)?|UMID|NRIC|MyKad|KTP|NIK|TFN"
            r"|RFC|NSS|BVN|(?:T\.?C\.?[ ])?kimlik(?:[ ]no\.?)?|isikukood|asmens[ ]kodas"
            r"|rodn[ée][ ](?:č|c)[ií]slo"
            r"|(?:num[ée]ro[ ]de[ ]|n[°º][ ]de[ ])?s[ée]curit[ée][ ]sociale"
            r"|social[ ]security(?:[ ](?:number|no\.?))?|carte[ ]d'identit[ée]"
            r"|carta[ ]d'identit[àa]"
            r"|documento[ ](?:nacional[ ])?de[ ]identidad|n[úu]mero[ ]de[ ]identificaci[óo]n"
            r"|(?:personal)?ausweis(?:nummer|[ ]?nr\.?)?|dow[óo]d[ ]osobisty|numer[ ]dowodu"
            r"|cart[ãa]o[ ]de[ ]cidad[ãa]o|CNIC|emirates[ ]ID|iqama|ghana[ ]card|NIDA|huduma"
            r"(?:[ ]number)?|SSNIT|PhilSys"
            r"|CUIL|CUIT|RUT|c(?:é|e)dula|AHV(?:-nr\.?)?|SVNR|IdNr\.?|CIF|steuernummer"
            r"|steuer-?identifikationsnummer|tax[ ]file[ ]number|social[ ]insurance[ ]number"
            r"|SV-?(?:Nr\.?|Nummer)|versicherten-?nr\.?|medicare(?:[ ](?:no\.?|number|card|id))?)"
            r"(?:\b|(?<=\.)))"
            + KEY_SEP
            + r"([A-Z0-9](?:[A-Z0-9]|[ -/.](?=[A-Z0-9])){4,20})(?![\w-])"
        ),
        HIGH,
        "identifier after national ID / insurance ID / NI number / tax ID keywords",
        group=1,
        validate=_national_id_value,
        anchors=(
            "national",
            "insurance",
            "id ",
            "identity",
            "ni ",
            "nino",
            "tax",
            "tin",
            "sin",
            "nie",
            "dni",
            "nif",
            "pesel",
            "bsn",
            "cpf",
            "curp",
            "personnummer",
            "steuer",
            "codice",
            "sozial",
            "pan",
            "aadhaar",
            "chi",
            "pps",
            "cnp",
            "nin",
            "nic",
            "jmbg",
            "oib",
            "egn",
            "amka",
            "nir",
            "niss",
            "rrn",
            "hkid",
            "upn",
            "pnc",
            "residence",
            "permit",
            "aufenthalt",
            "insured",
            "versicherten",
            "c.f.",
            "cf",
            "fødsels",
            "foedsels",
            "personnr",
            "bvn",
            "t.c",
            "tc ",
            "kimlik",
            "isikukood",
            "asmens",
            "rodn",
            "numéro de",
            "numero de",
            "n° de",
            "nº de",
            "sécurité",
            "securite",
            "social security",
            "carte d",
            "carta d",
            "documento",
            "número de",
            "ausweis",
            "personalausweis",
            "dowód",
            "dowod",
            "numer dowodu",
            "cartão",
            "cartao",
            "cnic",
            "emirates",
            "iqama",
            "ghana",
            "nida",
            "huduma",
            "ssnit",
            "philsys",
            "personal id",
            "personal identity",
            "henkil",
            "cpr",
            "burgerservice",
            "rijksregister",
            "philhealth",
            "sss",
            "umid",
            "nric",
            "mykad",
            "ktp",
            "nik",
            "tfn",
            "rfc",
            "nss",
            "cuil",
            "cuit",
            "rut",
            "cédula",
            "cedula",
            "ahv",
            "svnr",
            "idnr",
            "cif",
            "steuernummer",
            "tax file",
            "social insurance",
            "sv",
            "versicherten",
            "medicare",
        ),
    ),
    Rule(
        "ein",
        "ein",
        _c(_first(r"\d", r"[\w-]") + r"\d-\d{7}(?![\w-])"),
        MEDIUM,
        "US EIN layout XX-XXXXXXX",
    ),
    Rule(
        "card_number",
        "card number",
        _c(_first(r"\d", r"[\w-]") + r"(?:[ -]?\d){12,18}(?![\w-])"),
        0.97,
        "13–19 digits passing the Luhn checksum, not a SIRET",
        validate=luhn_valid,
        refine=refine_card_number,
    ),
    Rule(
        "card_number_context",
        "card number",
        _c(
            r"(?i:\b(?:card|credit[ ]card|debit[ ]card|cc|visa|mastercard|maestro|amex)"
            r"(?:[ ](?:number|no\.?|num|#))?)" + KEY_SEP + r"(\d(?:[ -]?\d){11,18})(?![\w-])"
        ),
        0.97,
        "12–19 digits passing the Luhn checksum after card keywords (Maestro has 12)",
        group=1,
        validate=luhn_checksum_ok,
        anchors=("card", "credit", "debit", "cc", "visa", "master", "maestro", "amex"),
    ),
    Rule(
        "iban",
        "iban",
        _c(
            _first("[A-Z]", r"\w")
            + r"[A-Z]\d{2}(?:(?:[ .-]|[ ]?\n)?[A-Z0-9]{4}){2,7}(?:(?:[ .-]|[ ]?\n)?[A-Z0-9]{1,3})?"
            r"(?!\w)"
        ),
        0.97,
        "IBAN shape with valid ISO 7064 mod-97 check digits and country length, grouped by "
        "spaces, dashes or dots, or wrapped onto the next line",
        refine=refine_iban,
    ),
    Rule(
        "swift_bic_context",
        "swift/bic",
        _c(
            r"(?i:\b(?:swift|bic)(?:[ ]?/[ ]?(?:bic|swift))?(?:[ ](?:code|no\.?|number))?)"
            + KEY_SEP
            + r"([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)(?![\w])"
        ),
        HIGH,
        "8 or 11 character BIC after SWIFT/BIC",
        group=1,
        anchors=("swift", "bic"),
    ),
    Rule(
        "swift_bic",
        "swift/bic",
        _c(_first("[A-Z]", r"\w") + r"[A-Z]{5}[A-Z0-9]{2}(?:[A-Z0-9]{3})?(?![\w])"),
        LOW,
        "BIC shape with a real country code and a digit or branch code",
        validate=_swift_shape,
    ),
    Rule(
        "routing_number",
        "routing number",
        _c(
            r"(?i:\b(?:routing|ABA|RTN|transit)(?:[ ](?:number|no\.?|num|#))?)"
            + KEY_SEP
            + r"(\d{9})(?!\d)"
        ),
        HIGH,
        "nine digits after routing/ABA passing the ABA checksum",
        group=1,
        validate=aba_routing_valid,
        anchors=("routing", "aba", "rtn", "transit"),
    ),
    Rule(
        "sort_code",
        "routing number",
        _c(
            r"(?i:\bsort[ ]?code|\bBSB|\btransit(?:[ ](?:no\.?|number))?"
            r"|\binstitution(?:[ ](?:no\.?|number))?)"
            + KEY_SEP
            + r"(\d{2}[- ]?\d{2}[- ]?\d{2}|\d{3}-?\d{3}|\d{5}|\d{3})(?![\w-])"
        ),
        HIGH,
        "UK sort code, Australian BSB, Canadian transit and institution numbers after their "
        "keyword",
        group=1,
        anchors=("sort", "bsb", "transit", "institution"),
    ),
    Rule(
        "bank_account",
        "bank account number",
        _c(
            r"(?i:\b(?:account|acct|acc|a/c|konto(?:nummer)?|compte|cuenta|conta|CLABE)"
            r"(?:[ ](?:number|no\.?|num|#|nr\.?))?)" + KEY_SEP + r"(\d(?:[ -]?\d){5,17})(?![\w-])"
        ),
        HIGH,
        "6–17 digits after account/acct",
        group=1,
        anchors=("account", "acct", "acc", "a/c", "konto", "compte", "cuenta", "conta", "clabe"),
    ),
    Rule(
        "passport",
        "passport number",
        _c(
            r"(?i:\bpassport(?:[ ](?:number|no\.?|num|#|id))?)"
            + KEY_SEP
            + r"(\d{2}[ ]\d{2}[ ]\d{6}|[A-Z0-9]{6,10})(?![\w-])"
        ),
        HIGH,
        "6–10 letters/digits after passport keywords",
        group=1,
        validate=_has_digit,
        anchors=("passport",),
    ),
    Rule(
        "drivers_license",
        "driver's license",
        _c(
            r"(?i:\b(?:(?:driver'?s?|driving)[ ]licen[cs]e|f(?:ü|ue)hrerschein"
            r"|permis[ ]de[ ]conduire"
            r"|carn[eé]t?[ ]de[ ]conducir|licencia[ ]de[ ]conducir|patente[ ]di[ ]guida|rijbewijs"
            r"|prawo[ ]jazdy|k(?:ö|ø)rkort|k(?:ø)rekort|ajokortti|carta[ ]de[ ]condução|CNH)"
            r"(?:[ -](?:number|no\.?|num|#|id|nr\.?|nummer|n[º°o]\.?)|nummer)?"
            r"|\bDL(?:[ ]?(?:number|no\.?|#))?)" + KEY_SEP + r"([A-Z0-9][A-Z0-9-]{4,18})(?![\w-])"
        ),
        HIGH,
        "licence number after driver's/driving licence or DL",
        group=1,
        validate=_has_digit,
        anchors=(
            "driver",
            "driving",
            "dl",
            "führerschein",
            "fuehrerschein",
            "permis de conduire",
            "carnet de conducir",
            "carné de conducir",
            "licencia de conducir",
            "patente di guida",
            "rijbewijs",
            "prawo jazdy",
            "körkort",
            "kørkort",
            "kørekort",
            "ajokortti",
            "carta de condução",
            "cnh",
        ),
    ),
    Rule(
        "licence_number_near",
        "driver's license",
        _c(
            r"(?i:\blicen[cs]e\b)(?:(?!(?i:" + _OTHER_NUMBERED + r"))[^\n.;]){0,30}?"
            r"(?i:\b(?:no\.|number|nr\.|n[º°]|#))[ \t]*:?[ \t]*"
            r"([A-Z0-9][A-Z0-9-]{4,18})(?![\w-])"
        ),
        MEDIUM,
        "a licence's number a few words after the word licence (US licence (Texas, no. 40918273)),"
        " unless another numbered thing comes between (licence fee, invoice no. 40918273)",
        group=1,
        validate=_four_digits,
        anchors=("licen",),
    ),
    Rule(
        "license_plate",
        "license plate",
        _c(
            r"(?i:\b(?:licen[cs]e[ ]plates?|number[ ]plates?|(?:car|vehicle)[ ]plates?|plates?"
            r"|(?:vehicle[ ])?registration(?:[ ](?:number|no\.?|mark))?|reg\.?[ ]no\.?|plaque"
            r"|immatriculation|matr[ií]cula|targa|kennzeichen|nummernschild|kenteken|rejestracja"
            r"|tablic[aeiu]|SPZ|rekisterinumero|registreringsnummer|reg\.?nr\.?|rego)"
            r"(?:[ ](?:number|no\.?|#))?)"
            + KEY_SEP
            + r"([A-Z0-9ÄÖÜАВЕКМНОРСТУХ]{1,4}(?:[ -]?[A-Z0-9ÄÖÜАВЕКМНОРСТУХ]{1,4}){1,3}"
            r"|[a-z]{2}\d{2}[ ]?[a-z]{3}"
            r"|[\u0621-\u064a](?:[ ][\u0621-\u064a]){0,3}[ ][0-9٠-٩]{1,4})"
            r"(?![\w-])"
        ),
        MEDIUM,
        "registration after plate/registration keywords (a UK plate also in lower case, an "
        "Egyptian one in Arabic letters: plate ق ط ع 5836)",
        group=1,
        validate=_plate_value,
        anchors=(
            "licen",
            "number plate",
            "car plate",
            "vehicle",
            "plate",
            "registration",
            "reg",
            "plaque",
            "immatriculation",
            "matrícula",
            "matricula",
            "targa",
            "kennzeichen",
            "nummernschild",
            "kenteken",
            "rejestracja",
            "tablic",
            "spz",
            "rekisterinumero",
            "registreringsnummer",
        ),
    ),
    Rule(
        "plate_near_vehicle",
        "license plate",
        _c(rf"(?:{_vehicle_word_pattern()})\b[^\n]{{0,40}}?(?<![\w-]){PLATE_FORMATS}"),
        MEDIUM,
        "a plate in one of the national formats (UK, IE, DE, AT, FR, IT, ES, NL, BE, PL, PT, "
        "SE, CH, IN, AU, US) within 40 characters after a vehicle word or make (van, Auto, "
        "voiture, Golf, Toyota)",
        group=1,
        validate=_plate_not_a_model,
        anchors=VEHICLE_ANCHORS,
    ),
    Rule(
        "medical_record_number",
        "medical record number",
        _c(
            r"(?i:\bMRN|\bmedical[ ]record(?:[ ](?:number|no\.?|#))?|\bpatient[ ](?:id|number"
            r"|no\.?|#)|\bchart[ ](?:number|no\.?|#)|\bhospital[ ](?:number|no\.?)|\bNHS[ ]"
            r"(?:number|no\.?))" + KEY_SEP + r"(\d{3}[ ]\d{3}[ ]\d{4}|[A-Z]{1,4}[ ]\d{4,12}"
            r"|[A-Z0-9][A-Z0-9-]{3,19})"
            r"(?![\w-])"
        ),
        HIGH,
        "record number after MRN/medical record/patient ID",
        group=1,
        validate=_has_digit,
        anchors=("mrn", "medical", "patient", "chart", "hospital", "nhs"),
    ),
    Rule(
        "internal_id",
        "internal id",
        _c(
            r"(?i:\b(?:employee|staff|student|pupil|member|membership|customer|client|user|badge"
            r"|personnel|payroll|matriculation|account|loyalty(?:[ ]card)?|library[ ]card"
            r"|patron|subscriber|frequent[ ]flyer|collar|shoulder|warrant|microchip|chip"
            r"|chassis|vehicle[ ]identification|frame|meter|z(?:ä|ae)hler)[ ](?:id|number|no\.?"
            r"|num|#|code|nr\.?)"
            r"|\b(?:emp(?:[ ]?(?:id|#|no\.?))?|EID|UID|badge|VIN|microchip|collar|frequent[ ]flyer"
            r"|agent[ ]id|operator[ ]id|cashier[ ]id|matricola|mitgliedsnummer|mitglieds-?nr\.?"
            r"|(?:n[º°o]\.?|n[úu]mero)[ ]de[ ]socio|lidnummer|lidmaatschapsnummer|medlemsnummer"
            r"|personeelsnummer|numer[ ]członkowski|relatienummer|klantnummer|kundennummer"
            r"|kundnummer|asiakasnumero|numer[ ]klienta"
            r"|framenummer|rahmennummer|z(?:ä|ae)hlernummer)"
            r"(?![\w]))" + KEY_SEP + ID_VALUE.replace("{min}", "2")
        ),
        HIGH,
        "identifier after employee/student/customer/user ID keywords",
        group=1,
        validate=_id_value,
        anchors=(
            "employee",
            "staff",
            "student",
            "member",
            "customer",
            "client",
            "user",
            "badge",
            "personnel",
            "payroll",
            "matriculation",
            "account",
            "emp",
            "eid",
            "uid",
            "pupil",
            "loyalty",
            "library",
            "patron",
            "subscriber",
            "frequent",
            "collar",
            "shoulder",
            "warrant",
            "microchip",
            "chip",
            "chassis",
            "vehicle",
            "vin",
            "frame",
            "meter",
            "zähler",
            "zaehler",
            "rahmen",
            "agent id",
            "operator id",
            "cashier id",
            "relatienummer",
            "klantnummer",
            "kundennummer",
            "kundnummer",
            "asiakasnumero",
            "numer klienta",
            "matricola",
            "mitglieds",
            "nº de socio",
            "n° de socio",
            "no de socio",
            "no. de socio",
            "número de socio",
            "numero de socio",
            "lidnummer",
            "lidmaatschapsnummer",
            "medlemsnummer",
            "personeelsnummer",
            "numer członkowski",
        ),
    ),
    Rule(
        "court_case_signature",
        "reference id",
        _c(
            r"(?<![\w/.-])[IVX]{1,4}[ ][A-Z][A-Za-z]{0,3}(?:[ ][A-Z][a-z]{0,2})?[ ]\d{1,6}/\d{2}"
            r"(?:\d{2})?(?![\w/])"
        ),
        MEDIUM,
        "a court file number: division, register and number/year (III RC 412/24, XV C 1187/20, "
        "I ACa 523/19), as Polish and Czech courts write them",
        requires=("/",),
    ),
    Rule(
        "invoice_number_br",
        "reference id",
        _c(
            r"(?:(?i:\bnota[ ]fiscal)|\bNFS?-?e\b|\bNF\b)[ ]?(?:n[º°o]\.?[ ]?)?"
            r"(\d{1,3}(?:\.\d{3}){1,3}|\d{3,9})(?![\w.,/])"
        ),
        MEDIUM,
        "a Brazilian invoice's number: nota fiscal 004.518, NF-e 12345",
        group=1,
        validate=_id_value,
        anchors=("nota fiscal", "nf"),
    ),
    Rule(
        "reference_id",
        "reference id",
        _c(
            r"(?i:\b(?:ticket|case|incident|ref(?:erence)?\.?|req(?:\.|\b)|order|invoice|booking"
            r"|reservation|pedido|factura|reserva|expediente|fattura|ordine|pratica|commande"
            r"|facture|dossier|contrat[o]?|mandat[oe]?|beleg-?nr\.?|rechnungs?-?nr\.?|auftrag"
            r"|aktenzeichen|CAS\b|visit[ ]no\.?|rx\b|n[º°o][ ]de[ ](?:parte|pedido|factura|reserva)"
            r"|confirmation|claim|policy|tracking|request|application|docket|contract|quote"
            r"|shipment|transaction|receipt|PO|RMA|PNR|bag[ ]tag|baggage[ ]tag|consignment|parcel"
            r"|AWB|certificate|cert|credential|crime[ ]ref(?:erence)?|crime|complaint|enquiry"
            r"|inquiry|matter|file[ ](?:ref|no\.?|number)|mandate|voucher|itinerary|work[ ]order"
            r"|job|issue|bug|report|dispute|URN|CRN|PNC|FIR\b|conf\.|kenmerk)"
            r"(?:[ ](?:id|number|no\.?|num|#|code|ref(?:erence)?))?)"
            + KEY_SEP
            + ID_VALUE.replace("{min}", "3")
        ),
        MEDIUM,
        "reference after ticket/case/order/invoice/ref keywords",
        group=1,
        validate=_id_value,
        anchors=(
            "ticket",
            "case",
            "incident",
            "ref",
            "req",
            "pedido",
            "factura",
            "reserva",
            "expediente",
            "fattura",
            "ordine",
            "pratica",
            "commande",
            "facture",
            "dossier",
            "contrat",
            "mandat",
            "beleg",
            "rechnung",
            "auftrag",
            "aktenzeichen",
            "fir",
            "cas",
            "visit",
            "rx",
            "nº",
            "n°",
            "no de",
            "order",
            "invoice",
            "booking",
            "reservation",
            "confirmation",
            "claim",
            "policy",
            "tracking",
            "request",
            "application",
            "docket",
            "contract",
            "quote",
            "shipment",
            "transaction",
            "receipt",
            "po",
            "rma",
            "pnr",
            "bag",
            "baggage",
            "consignment",
            "parcel",
            "awb",
            "cert",
            "credential",
            "crime",
            "complaint",
            "enquiry",
            "inquiry",
            "matter",
            "file",
            "mandate",
            "voucher",
            "itinerary",
            "work order",
            "job",
            "issue",
            "bug",
            "report",
            "dispute",
            "crn",
            "urn",
            "conf.",
            "pnc",
            "kenmerk",
        ),
    ),
    Rule(
        "reference_id_hash",
        "reference id",
        _c(r"(?<![\w&#])#\d{5,10}(?![\w-]|[.,]\d)"),
        0.6,
        "'#' and five or more digits: a ticket, order or issue number (#048213), not a CI "
        "system's run (Pipeline #19384)",
        refine=refine_not_a_ci_run,
        anchors=("#",),
    ),
    Rule(
        "reference_id_shape",
        "reference id",
        _c(
            _first("[A-Z]", r"[\w-]")
            + r"[A-Z]{0,5}-(?:\d{2}-)?\d{4,10}(?:-\d{1,6})?(?:-[A-Z0-9]{1,6})?(?![\w-])"
        ),
        MEDIUM,
        "LETTERS-digits identifier such as INC-12345, ABC-2024-0012 or SU-25-0009418",
    ),
    Rule(
        "uuid",
        "reference id",
        _c(
            _first("[0-9a-f]", r"[\w-]") + r"[0-9a-f]{7}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}"
            r"-[0-9a-f]{12}(?![\w-])",
            re.IGNORECASE,
        ),
        MEDIUM,
        "UUID",
        requires=("-",),
    ),
    Rule(
        "btc_bech32",
        "crypto wallet",
        _c(r"(?<![\w])(?:bc1|tb1)[02-9ac-hj-np-z]{8,87}(?![\w])", re.IGNORECASE),
        HIGH,
        "Bech32 segwit address with a valid checksum",
        validate=bech32_valid,
        anchors=("bc1", "tb1"),
    ),
    Rule(
        "btc_base58",
        "crypto wallet",
        _c(_first("[13]", r"\w") + r"[1-9A-HJ-NP-Za-km-z]{25,34}(?![\w])"),
        HIGH,
        "Base58Check bitcoin address with a valid double-SHA-256 checksum",
        validate=base58check_valid,
    ),
    Rule(
        "eth_address",
        "crypto wallet",
        _c(r"(?<![\w])0x[0-9a-fA-F]{40}(?![\w])"),
        HIGH,
        "0x followed by 40 hex digits (Ethereum address)",
        anchors=("0x",),
    ),
    # --- dates and ages
    Rule(
        "date_of_birth",
        "date of birth",
        _c(
            rf"(?i:\b(?:born(?:[ ]on)?|date[ ]of[ ]birth|d\.?o\.?b\.?|birth[ ]?date|birthday)"
            rf"(?![\w]))[ \t]*(?:[:\-–]|is|was)?[ \t]*(?:in[ ]+)?({DATE_TEXT}|{DATE_NUM}"
            rf"|{MONTH}[ ]+\d{{4}}|(?:19|20)\d\d)(?![\w/-])",
            re.IGNORECASE,
        ),
        HIGH,
        "date after born/DOB/date of birth",
        group=1,
        anchors=("born", "date", "d.o.b", "dob", "d.ob", "do.b", "birth"),
    ),
    Rule(
        "date",
        "date",
        _DATE_DIGIT_FIRST,
        MEDIUM,
        "full calendar date: 2024-05-03, 2024/05/03, 03/05/2024, 3 May 2024, 03-May-24, "
        "03/Apr/2025 (a web server's log) (with its weekday: Mon 3 May 2024)",
        validate=_date_valid,
        refine=refine_date,
    ),
    Rule(
        "date_day_month",
        "date",
        _DATE_DAY_MONTH,
        MEDIUM,
        "day and capitalised month without a year: 14 June, 3rd of May",
        validate=_day_of_month_valid,
        refine=refine_date,
    ),
    Rule(
        "date_intl",
        "date",
        _DATE_INTL,
        MEDIUM,
        "day and a German/French/Spanish/Italian/Portuguese/Dutch month: 3. März 2024, 3 de marzo",
        validate=_day_of_month_valid,
    ),
    Rule(
        "internal_note_author",
        "handle",
        _c(
            r"(?i:\b(?:internal[ ]note|nota[ ]interna|interne[ ]notiz|note[ ]interne"
            r"|interne[ ]notitie|agent[ ]note|staff[ ]note|private[ ]note)[ ]*\([ ]*)"
            r"([a-z][a-z0-9._-]{1,30})(?=[ ]*\))"
        ),
        MEDIUM,
        "the agent's login in a helpdesk's internal-note heading: --- internal note (kbrown) "
        "---; not a word (draft, edited, urgent)",
        group=1,
        validate=_login_not_word,
        anchors=("internal", "nota", "interne", "note", "agent", "staff", "private"),
    ),
    Rule(
        "git_remote_owner",
        "handle",
        _c(
            r"(?<![\w.-])git@(?:[\w-]{1,63}\.){1,10}[a-z]{2,24}:(?!\d+/)"
            r"([A-Za-z0-9][\w.-]{0,38})/[\w.-]"
        ),
        HIGH,
        "the account owning a repository in an SSH remote: git@github.com:lhaugen/repo.git",
        group=1,
        requires=("git@",),
    ),
    Rule(
        "date_intl_abbrev",
        "date",
        _DATE_INTL_ABBREV,
        MEDIUM,
        "day, abbreviated month of another language, year: 8 kwi 2025, 8 avr. 2025",
        validate=_day_of_month_valid,
    ),
    Rule(
        "date_month_day_lower",
        "date",
        _DATE_MONTH_DAY_LOWER,
        MEDIUM,
        "lower-case month before an ordinal day: nov. 3rd, june 14th",
        validate=_day_of_month_valid,
    ),
    Rule(
        "date_day_of_month_legal",
        "date",
        _c(rf"(?i:\b(\d{{1,2}}(?:st|nd|rd|th)?[ ]day[ ]of[ ]{MONTH},?[ ]\d{{4}}))(?!\d)"),
        MEDIUM,
        "a date as deeds and court papers write it: the 7th day of December, 2023",
        group=1,
        validate=_day_of_month_valid,
        requires=("day of",),
    ),
    Rule(
        "date_spelled_ordinal",
        "date",
        _c(
            rf"(?i:\b(?:the[ ])?)((?<!\ba[ ])(?<!\bone[ ])(?<!\btwo[ ])(?<!\bper[ ])"
            rf"(?i:{_SPELLED_ORDINAL_DAY})[ ]of[ ]{CAP_MONTH}\b(?:,?[ ]\d{{4}})?)(?!\d|['’]s)"
        ),
        MEDIUM,
        "a date with its day spelled out: Third of June 1946, the twenty-first of March",
        group=1,
        trigger=Trigger(_c(rf"\b(?i:of)[ ]{CAP_MONTH}\b"), 20, 8),
    ),
    Rule(
        "date_german_day_only",
        "date",
        _c(
            r"(?<!\b[Ii][ ])(?<!\d[ ])\b(?:[Aa]m|[Zz]um|[Vv]om|[Bb]is[ ]zum|[Aa]b[ ]dem)[ ]"
            r"((?:3[01]|[12]\d|0?[1-9])\.)(?=[ ]?(?:[a-zäöüß,;!?)]|\r?\n|$))"
            r"(?![ ]?(?:mal|versuch|platz|tag|stock|klasse|lebensjahr|advent|preis|rang|stelle)\b)"
        ),
        MEDIUM,
        "a German day of the month without its month: am 12. kann ich nicht, bis zum 3.",
        group=1,
        anchors=("am ", "zum ", "vom ", "bis zum ", "ab dem "),
    ),
    Rule(
        "age_hindustani",
        "age",
        _c(
            r"(?<![\w.,/:])(\d{1,3})[ ](?i:(?:saal|sal)[ ](?:ki|ke|ka)[ ](?:hai|hain|hoon|hun|tha"
            r"|thi|the|ho|umar|umr)\b|(?:ki|ke|ka)[ ]ho[ ](?:jayengi|jayenge|jaengi|jaenge"
            r"|jayega|jaega|jayegi|jaegi|rahe[ ]hain|rahi[ ]hai|raha[ ]hai)\b)"
        ),
        MEDIUM,
        "an age in Hindi or Urdu written in Latin letters: 80 ki ho jayengi, 83 ke ho rahe hain,"
        " 5 saal ka",
        group=1,
        validate=_age_valid,
        trigger=Trigger(_c(r"\d[ ](?i:saal|sal|ki|ke|ka)[ ]"), 3, 12),
    ),
    Rule(
        "age_happy_birthday",
        "age",
        _c(r"(?i:\bhappy[ ])(\d{1,3}(?:st|nd|rd|th))(?![\w]|[ ]of\b)"),
        MEDIUM,
        "the age in a birthday wish: Happy 60th to Margaret",
        group=1,
        validate=_age_valid,
        anchors=("happy",),
    ),
    Rule(
        "date_range_dotted_start",
        "date",
        _c(
            _DOTTED_DAY_MONTH
            + r"(?=\.?[ ]?"
            + _RANGE_WORD
            + r"[ ]?"
            + _DOTTED_DAY_MONTH
            + r"\b\.?"
            + _NOT_AN_AMOUNT
            + ")"
        ),
        MEDIUM,
        "the first of two day.month dates joined as a range: od 19.05 do 23.05, 03.04–07.04",
        trigger=_DOTTED_RANGE,
    ),
    Rule(
        "date_range_dotted_end",
        "date",
        _c(
            _DOTTED_DAY_MONTH
            + r"\.?[ ]?"
            + _RANGE_WORD
            + r"[ ]?("
            + _DOTTED_DAY_MONTH
            + r")(?:\.(?!\d))?(?![\d.,]\d)"
            + _NOT_AN_AMOUNT
        ),
        MEDIUM,
        "the second of two day.month dates joined as a range: od 19.05 do 23.05",
        group=1,
        trigger=_DOTTED_RANGE,
    ),
    Rule(
        "date_vietnamese_hungarian",
        "date",
        _c(
            r"(?i:(?:ngày[ ])?\d{1,2}[ ]tháng[ ]\d{1,2}(?:[ ]năm[ ]\d{4})?"
            rf"|\d{{4}}\.[ ](?:{_HU_MONTH}[ ]\d{{1,2}}\.?|{_HU_MONTH_ABBREV}[ ]\d{{1,2}}\.)"
            rf"(?:,?[ ]{_HU_WEEKDAY}\b)?"
            rf"|{_HU_MONTH}[ ]\d{{1,2}}(?:\.|-(?:án|én|ig|tól|től|ától|étől|i|a|e)\b)(?!\d))"
        ),
        MEDIUM,
        "a Vietnamese or Hungarian date: ngày 5 tháng 3 năm 2024, 2024. március 5., április "
        "25-én, 2024. szept. 3., kedd",
        trigger=Trigger(
            _c(
                r"tháng|\d{4}\.[ ](?:jan|feb|már|ápr|máj|jún|júl|aug|sze|okt|nov|dec)"
                r"|(?i:január|február|március|április|május|június|július|augusztus|szeptember"
                r"|október)|(?<![\w])(?:november|december)[ ]\d"
            ),
            12,
            30,
        ),
    ),
    Rule(
        "date_weekday_ordinal",
        "date",
        _DATE_WEEKDAY_ORDINAL,
        MEDIUM,
        "weekday and day of the month: Thursday the 16th",
        anchors=("mon", "tue", "wed", "thu", "fri", "sat", "sun"),
    ),
    Rule(
        "date_day_month_numeric",
        "date",
        _DATE_DAY_MONTH_NUMERIC,
        LOW + 0.1,
        "two-digit day and month without a year: 01/02, 26/11",
        requires=("/",),
    ),
    Rule(
        "date_ordinal_day",
        "date",
        _DATE_ORDINAL_DAY,
        LOW + 0.1,
        "'on the 14th', 'by the 3rd' (a day of the month, not 'the 3rd floor')",
        group=1,
        anchors=(
            "on the",
            "by the",
            "until the",
            "till the",
            "before the",
            "after the",
            "since the",
            "from the",
            "for the",
            "due the",
            "dated the",
        ),
    ),
    Rule(
        "date_ordinal_day_cell",
        "date",
        _DATE_ORDINAL_DAY_CELL,
        MEDIUM,
        "'the 19th' heading a diary line or in a table column (a day of the month)",
        group=1,
        trigger=Trigger(_c(r"(?i)\bthe[ ]+[0-3]?\d(?:st|nd|rd|th)\b"), 40, 4),
    ),
    Rule(
        "date_month_day",
        "date",
        _DATE_MONTH_DAY,
        MEDIUM,
        "capitalised month and day without a year: June 14, Sept 3rd",
        validate=_day_of_month_valid,
        refine=refine_date,
        anchors=_MONTH_ANCHORS,
    ),
    Rule(
        "date_month_first",
        "date",
        _DATE_MONTH_FIRST,
        MEDIUM,
        "full calendar date written month first: May 3, 2024",
        refine=refine_date,
        anchors=_MONTH_ANCHORS,
    ),
    Rule(
        "age",
        "age",
        _c(
            rf"(?<![\w.,-])(?:\d{{1,3}}|{NUMBER_WORD}){AGE_UNIT}"
            r"(?![\w-]|[ ](?:ago|later|earlier|before|after|in[ ]business|of[ ](?:service"
            r"|experience|marriage)))",
            re.IGNORECASE,
        ),
        MEDIUM,
        "an age with its unit: '42 years old', '42-year-old', 'three-year-old', '42 yo'",
        validate=_age_valid,
        requires=("old", "yo", "y/o", "y.o.", "of age"),
    ),
    Rule(
        "age_context",
        "age",
        _c(
            r"(?i:\b(?:aged|age)[ \t]*:?[ \t]*"
            r"(?:(?:about|around|approx\.?|approximately|roughly)[ ])?"
            r"|\bI(?:'m|[ ]am)[ ](?=\d{1,2}[ ]*(?:[.,;!?]|$"
            rf"|and\b|now\b|this\b)))(\d{{1,3}}(?:[ ](?:years|yrs)\b)?|(?i:{NUMBER_WORD}))"
            r"(?![\w.,]\d|[\w]|" + _AGE_THRESHOLD + ")"
        ),
        MEDIUM,
        "number after aged/age: (aged about 12) or I'm (with 'years' when written); not a "
        "threshold (age: 26 or over, aged 18+)",
        group=1,
        validate=_age_valid,
        anchors=("age", "i'm", "i am"),
    ),
    Rule(
        "age_in_year",
        "age",
        _c(r"(?i:\bin[ ](?:his|her|their|my|your)[ ])(\d{1,3}(?:st|nd|rd|th)[ ]year)\b"),
        MEDIUM,
        "'in his 92nd year'",
        group=1,
        validate=_age_valid,
        anchors=("in his", "in her", "in their", "in my", "in your"),
    ),
    # --- organisations and places
    Rule(
        "organization",
        "organization",
        _c(
            rf"{CAP_FIRST}{CAP_REST}(?:[ ](?:&[ ]|and[ ]|und[ ]|et[ ]|of[ ]|de[ ])?{CAP_WORD}"
            rf"){{0,4}},?[ ]{ORG_SUFFIX}(?![\w])"
        ),
        MEDIUM,
        "capitalised words ending in a legal or institutional suffix (Corp., GmbH, "
        "Ltd, LLC, S.A., AG, University, ...)",
        refine=refine_org,
        trigger=Trigger(_c(rf"[ ,]{ORG_SUFFIX}(?![\w])"), 260, 2),
    ),
    Rule(
        "organization_of",
        "organization",
        _c(
            rf"(?<![\w&'’.-])(?:University|Bank|Institute|Hospital|College|Ministry|Department"
            rf"|School|Academy|Museum|Church|Council|Society|Federation)[ ]of[ ](?:the[ ])?"
            rf"{CAP_WORD}(?:[ ](?:and[ ]|of[ ])?{CAP_WORD}){{0,3}}"
        ),
        MEDIUM,
        "institution 'of' a capitalised name (University of Leeds, Royal Bank of Scotland)",
        refine=refine_institution_of,
        anchors=(
            "university",
            "bank",
            "institute",
            "hospital",
            "college",
            "ministry",
            "department",
            "school",
            "academy",
            "museum",
            "church",
            "council",
            "society",
            "federation",
        ),
    ),
    Rule(
        "organization_head_first",
        "organization",
        _c(
            rf"(?:(?<=\b[lLdD]['’])|(?<![\w&'’.-]))(?:{_HEAD_FIRST_INSTITUTION})"
            rf"(?:[ ]{_SCHOOL_LEVEL})?[ ]"
            rf"(?:{_HEAD_PARTICLE}[ ])?{CAP_WORD}"
            rf"(?:[ ](?:{_HEAD_PARTICLE}[ ])?{CAP_WORD}){{0,3}}"
        ),
        0.9,
        "a bank, clinic, pharmacy, parish, school, university, restaurant, co-operative or "
        "association named head word first, as Romance and German names are (Banco Estado, "
        "Clinique Vétérinaire des Tilleuls, Paróquia Nossa Senhora do Brasil); the head word is "
        "the evidence, so a place the model reads inside the name does not outvote it",
        refine=refine_not_public_body,
        anchors=tuple(sorted(_HEAD_FIRST_ANCHORS)),
    ),
    Rule(
        "organization_cjk",
        "organization",
        _c(
            rf"[{CJK}（）()]{{1,16}}(?:株式会社|有限会社|合同会社|有限公司|股份有限公司|集团|公司)"
            rf"|(?:株式会社|有限会社|合同会社|\(주\)|주식회사|유한회사)[ ]?[{CJK}\w]{{1,16}}"
        ),
        MEDIUM,
        "CJK or Korean company with its legal form (株式会社, 有限公司, (주), 유한회사)",
        requires=("会社", "公司", "集团", "(주)", "회사"),
    ),
    Rule(
        "organization_cyrillic",
        "organization",
        _c(r"\b(?:ООО|ОАО|ЗАО|ПАО|АО|НПО|ИП|РАО|ТОО|ТОВ|ПрАТ|ПАТ)[ ]«[^»\n]{1,60}»"),
        MEDIUM,
        "Russian/Ukrainian company form followed by a «quoted» name",
        requires=("«",),
    ),
    Rule(
        "organization_prefixed",
        "organization",
        _c(
            rf"\b(?:PPUH|PHU|FHU|PPHU|P\.P\.U\.H\.|Firma|Fa\.|Cabinet|Studio|Kanzlei|Praxis)"
            rf"[ ]{CAP_WORD}(?:[ ]{CAP_WORD}){{0,2}}"
        ),
        MEDIUM,
        "company form written before the name (PPUH Słyk, Kanzlei Weber)",
        refine=refine_titled_name,
    ),
    Rule(
        "organization_partnership",
        "organization",
        _c(
            rf"{CAP_FIRST}{CAP_REST},[ ]{CAP_WORD}(?:,[ ]{CAP_WORD})?,?[ ](?:and|&|und|et|y|e)[ ]"
            rf"{CAP_WORD}"
        ),
        MEDIUM,
        "firm named after partners (Brown, Brennan and Smith)",
        refine=refine_org,
    ),
    Rule(
        "organization_context",
        "organization",
        _c(
            rf"(?i:\b(?:joined|works[ ](?:at|for)|working[ ](?:at|for)|worked[ ](?:at|for)"
            rf"|employed[ ](?:at|by)|calling|on[ ]behalf[ ]of|representing|employer(?:[ ]is|:)?"
            rf"|company(?:[ ]is|:)|from[ ]the[ ]company)[ ])({CAP_WORD}(?:(?:,[ ]|[ ](?:&|and"
            rf"|und|et)[ ]|[ ]){CAP_WORD}){{0,4}})"
        ),
        LOW,
        "capitalised name after joined / works at / calling / on behalf of",
        group=1,
        refine=refine_capitalised_place,
        anchors=(
            "joined",
            "work",
            "employ",
            "calling",
            "on behalf",
            "represent",
            "company",
            "from the",
        ),
    ),
    Rule(
        "street_address",
        "street address",
        _c(
            _first(r"\d", r"[\w.,-]") + rf"\d{{0,4}}[A-Za-z]?(?:[-/]\d{{1,4}}[A-Za-z]?)?,?[ ]+"
            rf"(?:(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)\.?[ ]+)?"
            rf"(?:(?:{CAP_WORD}|{STREET_NAME_ABBREVIATION}|\d{{1,3}}(?:st|nd|rd|th))[ ]+){{1,4}}"
            rf"{STREET_SUFFIX}\b\.?"
            rf"(?:[ ]+(?:NW|NE|SW|SE|N|S|E|W)\b)?"
            rf"(?:,?[ ]+(?:{UNIT_WORD}|\#)"
            rf"[ ]?\#?[\w-]{{1,6}})?"
        ),
        MEDIUM,
        "house number, capitalised name and a street type (Street, St, Ave, Rd, ...)",
    ),
    Rule(
        "street_address_continental",
        "street address",
        _c(
            rf"{CAP_FIRST}(?:[\w'’-]{{0,40}}(?:straße|strasse|str\.|weg|gasse|platz|allee|ring"
            rf"|damm|ufer|chaussee|steig|pfad|markt|straat|laan|baan|gracht|plein|kade|dijk"
            rf"|singel|vej|gade|gatan|vägen|gränd|torget|väg|veien|gata|katu|tie)(?:[ ]+|(?<=\.))"
            rf"\d{{1,4}}[a-zA-Z]?(?:[-/]\d{{1,4}}[a-zA-Z]?)?(?![\w])"
            rf"|[\w'’-]{{1,40}}[ ](?:út|utca|tér|körút|sugárút|fasor|rakpart|sor|ulice|náměstí"
            rf"|třída)"
            rf"[ ]\d{{1,4}}(?:[/.]\d{{1,4}})?\.?(?![\w]))"
        ),
        MEDIUM,
        "compound street name and house number (Hauptstraße 5, Kerkstraat 12)",
    ),
    Rule(
        "street_address_typed",
        "street address",
        _TYPED_STREET,
        MEDIUM,
        "street type word, name and number (12, rue de la Paix; Calle Mayor 5; ul. Polna 3)",
        refine=refine_typed_street,
        anchors=(
            "rue",
            "calle",
            "c/",
            "avenida",
            "avda.",
            "av.",
            "paseo",
            "carrer",
            "camino",
            "ronda",
            "travesía",
            "glorieta",
            "viale",
            "piazza",
            "corso",
            "vicolo",
            "contrada",
            "strada",
            "rua",
            "praça",
            "travessa",
            "alameda",
            "estrada",
            "ulica",
            "ul.",
            "aleja",
            "plac",
            "ул.",
            "улица",
            "пр.",
            "просп.",
            "проспект",
            "пер.",
            "переулок",
            "ш.",
            "шоссе",
            "наб.",
            "бул.",
            "пл.",
            "вул.",
            "вулиця",
            "шосе",
            "площа",
            "провулок",
            "бульвар",
            "boulevard",
            "bd",
            "chemin",
            "allée",
            "impasse",
            "quai",
            "cours",
            "via",
            "avenue",
            "place",
            "largo",
            "route",
        ),
    ),
    Rule(
        "floor_and_door",
        "street address",
        _c(
            r"(?<![\w/.,º-])\d{1,2}[ºª][ ]?(?:[A-H](?![\w-])|(?:izq(?:uierda|da)?|dcha|der(?:echa)?"
            r"|centro|ctro)\b\.?)|(?i:\bbajo[ ](?:izquierda|derecha|izq|dcha)\b)"
        ),
        MEDIUM,
        "a Spanish floor and door, which locate a flat inside its building: 2ºA, 3º B, 4º izq., "
        "bajo derecha",
        requires=("º", "ª", "bajo"),
    ),
    Rule(
        "police_urn",
        "reference id",
        _c(
            r"(?<![\w-])(?:URN|Unique[ ]Reference[ ]Number)[ ]?:?[ ]?"
            r"(\d{2}[ ]?[A-Z]{2}[ ]?\d{5}[ ]?\d{2})(?!\w)"
        ),
        HIGH,
        "an English or Welsh police case's URN: force, station, number, year (14 HB 03871 25)",
        group=1,
        requires=("urn", "unique reference"),
    ),
    Rule(
        "short_quoted_password",
        "secret",
        _c(
            r"(?i:\b(?:password|passwd|pwd|passcode|secret)\b)[ ]?[:=][ ]?"
            r"\"((?=[^\"\s]{0,2}\d)(?=[^\"\s]{0,2}[^\W\d_])[^\"\s]{2,3})\"(?![\w\"])"
        ),
        MEDIUM,
        'a password of one to three characters, quoted as a key\'s value (password="Kx9"): '
        "secret_assignment needs four",
        group=1,
        requires=("pass", "pwd", "secret"),
    ),
    Rule(
        "po_box_postal_code",
        "postal code",
        _c(r"(?i:\bP\.?[ ]?O\.?[ ]?Box)[ ]+\d{1,7}[ ]?-[ ]?(\d{5})(?![\d-])"),
        MEDIUM,
        "the postal code after a Kenyan PO box number (P.O. Box 10422-00200)",
        group=1,
        requires=("box",),
    ),
    Rule(
        "po_box",
        "street address",
        _c(
            r"(?i:\bP\.?[ ]?O\.?[ ]?Box|\bPost(?:al)?[ ]Office[ ]Box|\bPostfach|\bApartado"
            r"|\bG\.?P\.?O\.?[ ]Box|\b(?:Locked|Private)[ ]Bag|\bP\.?M\.?B\.?)[ ]+\d{1,7}"
        ),
        MEDIUM,
        "PO box number (GPO Box, Locked Bag and Private Bag in Australia and New Zealand, PMB)",
        anchors=(
            "p.o",
            "po",
            "p o",
            "post",
            "apartado",
            "gpo",
            "g.p.o",
            "locked",
            "private",
            "pmb",
            "p.m.b",
        ),
    ),
    Rule(
        "secondary_unit",
        "street address",
        _c(r"(?<![\w])(?:Suite|Ste\.)[ ]?\#?\d{1,5}[A-Za-z]?(?![\w])"),
        LOW,
        "suite number (an office suite, or a piece of music: the model decides)",
        anchors=("suite", "ste."),
    ),
    Rule(
        "flat_number",
        "street address",
        _c(
            r"(?<![\w])(?:(?:Apt\.?|Apartment|Flat)|(?<!\ba[ ])(?:apt\.?|apartment|flat)"
            r"(?=[ ]?\#?\d{1,4}[A-Za-z]?[ \t]*(?:[,;)/\n]|$|[ ](?:of|in|at|on)\b)))"
            r"[ ]?\#?\d{1,4}[A-Za-z]?"
            r"(?![\w%]|[.,]\d|[ ]?(?i:%|percent|per|minutes?|mins?|hours?|hrs?|days?|weeks?"
            r"|months?|years?|pounds?|euros?|dollars?|quid|fee|rate|off|times|x|km|kms|miles?"
            r"|metres?|meters?|doors?|quarters?|floors?|blocks?|streets?)\b)"
        ),
        0.7,
        "a flat or apartment number, alone a piece of an address (Flat 4, Apt 3B; in lower case "
        "only where an address piece ends: flat 22, / in flat 9 of ...); not a flat rate or a "
        "distance (a flat 20% fee, flat 20 minutes, the apartment 5 km from the beach)",
        anchors=("apt", "apartment", "flat"),
    ),
    Rule(
        "named_street",
        "street address",
        _c(
            rf"{CAP_FIRST}{CAP_REST}(?:[ ]{CAP_WORD})?[ ](?:Street|Road|Avenue|Lane|Drive|Court"
            rf"|Close|Crescent|Terrace|Boulevard|Gardens|Mews|Square|Place|Row)(?![\w])"
        ),
        LOW,
        "named street without a house number (Pearson Court)",
        refine=refine_capitalised_place,
        requires=(
            "street",
            "road",
            "avenue",
            "lane",
            "drive",
            "court",
            "close",
            "crescent",
            "terrace",
            "boulevard",
            "gardens",
            "mews",
            "square",
            "place",
            "row",
        ),
    ),
    Rule(
        "postal_code_uk",
        "postal code",
        _c(
            _first("[A-PR-UWYZ]", r"\w") + r"(?:IR[ ]?0AA|[A-HK-Y]?\d[A-Z\d]?[ ]?\d"
            r"[ABD-HJLNP-UW-Z]{2})(?![\w])"
        ),
        MEDIUM,
        "UK postcode (outward and inward code)",
    ),
    Rule(
        "postal_code_ca",
        "postal code",
        _c(
            _first("[ABCEGHJ-NPRSTVXY]", r"\w") + r"\d[ABCEGHJ-NPRSTV-Z][ ]?\d[ABCEGHJ-NPRSTV-Z]\d"
            r"(?![\w])"
        ),
        MEDIUM,
        "Canadian postal code A1A 1A1",
    ),
    Rule(
        "postal_code_us_state",
        "postal code",
        _CITY_STATE_ZIP,
        HIGH,
        "US ZIP (+4) after a state abbreviation",
        group=3,
        trigger=_STATE_ZIP_TRIGGER,
    ),
    Rule(
        "city_before_state",
        "location",
        _CITY_STATE_ZIP,
        MEDIUM,
        "city before a US state abbreviation and ZIP",
        group=1,
        refine=refine_capitalised_place,
        trigger=_STATE_ZIP_TRIGGER,
    ),
    Rule(
        "state_before_zip",
        "location",
        _CITY_STATE_ZIP,
        HIGH,
        "US state abbreviation between a city and a ZIP code",
        group=2,
        trigger=_STATE_ZIP_TRIGGER,
    ),
    Rule(
        "zip_plus_four",
        "postal code",
        _c(_first(r"\d", r"[\w-]") + r"\d{4}-\d{4}(?![\w-])"),
        MEDIUM,
        "US ZIP+4",
    ),
    Rule(
        "postal_code_context",
        "postal code",
        _c(
            r"(?i:\b(?:zip(?:[ ]?code)?|postal(?:[ _]?code)?|post[ ]?code|PLZ|CEP|code[ ]postal"
            r"|c[óo]digo[ ]postal|postnr|postnummer|postleitzahl|pincode|kod[ ]pocztowy"
            r"|postinumero|irányítószám)\b)"
            + KEY_SEP
            + r"([A-Z0-9][A-Z0-9 -]{2,8}[A-Z0-9])(?![\w-])"
        ),
        HIGH,
        "code after zip/postal code/postcode keywords",
        group=1,
        validate=_has_digit,
        anchors=(
            "zip",
            "postal",
            "post",
            "plz",
            "cep",
            "code",
            "código",
            "codigo",
            "pincode",
            "kod",
            "irányítószám",
        ),
    ),
    Rule(
        "postal_code_city",
        "postal code",
        _POSTCODE_CITY,
        MEDIUM,
        "postal code followed by a town at the end of an address line",
        group=1,
    ),
    Rule(
        "city_after_postal_code",
        "location",
        _POSTCODE_CITY,
        MEDIUM,
        "town name after a postal code in an address line",
        group=2,
        refine=refine_capitalised_place,
    ),
    Rule(
        "street_number_city",
        "street address",
        _STREET_NUMBER_CITY,
        LOW,
        "capitalised street name and house number before ', Town' (Vlašimská 720, Osek)",
        group=1,
        refine=refine_street_and_number,
        trigger=_STREET_NUMBER_TRIGGER,
    ),
    Rule(
        "city_after_street_number",
        "location",
        _STREET_NUMBER_CITY,
        LOW,
        "town after 'Street 12,' at the end of an address",
        group=2,
        refine=refine_capitalised_place,
        trigger=_STREET_NUMBER_TRIGGER,
    ),
    Rule(
        "city_after_postcode_uk_ca",
        "location",
        _c(
            r"(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?|[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])[ ]\d[A-Z\d]"
            rf"[A-Z\d][ ]+({CAP_WORD}(?:[ ]{CAP_WORD}){{0,2}})(?=[ \t]*(?:$|[\n,.;)]))"
        ),
        MEDIUM,
        "town after a UK or Canadian postcode",
        group=1,
        refine=refine_capitalised_place,
    ),
    Rule(
        "location_preposition",
        "location",
        _c(
            rf"(?i:\b(?:in|from|near|at|around|outside|visiting|to)[ ])({CAP_WORD}(?:[ -]"
            rf"{CAP_WORD}){{0,2}})(?=[ \t]*(?:$|[\n,.;:!?)]|(?i:from|until|on|for|and|last"
            rf"|next|this|since)\b))"
        ),
        0.45,
        "capitalised place after in/from/near/at at the end of a clause",
        group=1,
        refine=refine_preposition_place,
        anchors=("in ", "from ", "near ", "at ", "around ", "outside ", "visiting ", "to "),
    ),
    Rule(
        "location_cyrillic_settlement",
        "location",
        _c(
            r"(?<![\w])(?:г|с|д|п|пгт|ст|к|х|клх|рп|смт|село|місто|хутір|станица|деревня)\.?[ ]"
            r"[А-ЯЁІЇЄҐ][\w’'-]{1,30}(?:[ -][А-ЯЁІЇЄҐ][\w’'-]{1,30})?"
        ),
        MEDIUM,
        "Russian/Ukrainian settlement abbreviation and name (г. Москва, с. Иваново, хутір X)",
        requires=(". ", "село", "місто", "хутір", "станица", "деревня"),
    ),
    Rule(
        "location_context",
        "location",
        _c(
            rf"(?i:\b(?:lives?|living|located|based|resides?|residing|moved|relocated|born"
            rf"|grew[ ]up|stationed|hometown(?:[ ]is)?|originally)[ ](?:in|to|at|near|from|is)"
            rf"[ ])({CAP_WORD}(?:[ ]{CAP_WORD}){{0,2}})"
        ),
        LOW,
        "capitalised place after lives in / moved to / based in",
        group=1,
        refine=refine_capitalised_place,
        anchors=(
            "live",
            "living",
            "located",
            "based",
            "resid",
            "moved",
            "relocated",
            "born",
            "grew",
            "stationed",
            "hometown",
            "originally",
        ),
    ),
    # --- identifiers added for text written elsewhere (issue 12)
    Rule(
        "secret_env_variable",
        "secret",
        _c(
            r"\b[A-Z][A-Z0-9_]{0,40}(?:SECRET|TOKEN|PASSWORD|PASSWD|PWD|API_?KEY|ACCESS_?KEY"
            r"|PRIVATE_?KEY|CREDENTIALS?)[A-Z0-9_]{0,20}[ \t]*[=:][ \t]*[\"']?([^\s\"'`]{6,200})"
        ),
        HIGH,
        "value of an environment variable or config key named *SECRET*, *TOKEN*, *PASSWORD*",
        group=1,
        refine=refine_secret_value,
        requires=("secret", "token", "passw", "pwd", "key", "credential"),
    ),
    Rule(
        "url_credentials",
        "secret",
        _c(r"[a-z][a-z0-9+.-]{1,20}://[^\s:/@]{1,64}:([^\s@/]{3,128})@", re.IGNORECASE),
        HIGH,
        "password inside a URL (scheme://user:password@host)",
        group=1,
        requires=("://",),
    ),
    Rule(
        "username_key_value",
        "handle",
        _c(
            r"(?i:\b(?:user(?:name)?|login|uid|usr|account|acct|author|owner|assignee|agent"
            r"|created_by|updated_by|modified_by|requester|requested_by|reporter|reviewer"
            r"|assigned_to)[\"']?[ \t]*[=:][ \t]*)[\"']?"
            r"([A-Za-z0-9][A-Za-z0-9._@-]{1,40}[A-Za-z0-9])(?![\w@=-])"
        ),
        MEDIUM,
        "user name in key=value logs or a User: field (user=mwagner, User: k-ramirez-77)",
        group=1,
        validate=_user_value,
        anchors=(
            "user",
            "login",
            "uid",
            "usr",
            "account",
            "acct",
            "author",
            "owner",
            "assignee",
            "agent",
            "created_by",
            "updated_by",
            "modified_by",
            "requester",
            "requested_by",
            "reporter",
            "reviewer",
            "assigned_to",
        ),
    ),
    Rule(
        "username_actor_key",
        "handle",
        _c(
            r"(?i:(?:[\"'](?:admin|actor|operator|impersonator|performed_by|approved_by|deleted_by"
            r"|triggered_by|initiated_by)[\"'][ \t]*:|\b(?:admin|actor|operator)=)[ \t]*)[\"']?"
            r"([A-Za-z0-9][A-Za-z0-9._@-]{1,40}[A-Za-z0-9])(?![\w@-])"
        ),
        MEDIUM,
        'the acting user in a JSON or key=value log line ("admin":"ops-haruto", actor=jdoe)',
        group=1,
        validate=_actor_value,
        trigger=Trigger(_c(r"(?i:admin|actor|operator|impersonator|_by)"), 2, 50),
    ),
    Rule(
        "upi_id",
        "handle",
        _c(rf"(?<![\w.@-])([A-Za-z0-9][A-Za-z0-9._-]{{1,40}}@(?i:{_UPI_HANDLES}))(?![\w@-]|\.\w)"),
        HIGH,
        "an Indian UPI payment address: name@bank handle (priya.k@okaxis, 98xxxxxx12@ybl)",
        group=1,
        trigger=Trigger(_c(rf"@(?i:{_UPI_HANDLES})(?![\w@-]|\.\w)"), 42, 0),
    ),
    Rule(
        "json_person_name",
        "full person name",
        _c(
            r"[\"'](?i:(?:full|first|last|given|family|middle|display|customer|patient|contact"
            r"|recipient|sender|holder|to|from|owner|author|employee|client|guest|passenger"
            r"|cardholder|account_holder|nick)_?name|name_(?:full|first|last))[\"'][ \t]*:[ \t]*"
            r"[\"']([^\"'\n\\]*[^\W\d_][^\"'\n\\]{0,59})[\"']"
        ),
        MEDIUM,
        'a person\'s name as the value of a name key in JSON ("to_name": "山本 加奈")',
        group=1,
        validate=_not_a_placeholder_value,
        trigger=Trigger(_c(r"(?i:name)[\"'][ \t]*:"), 30, 70),
    ),
    Rule(
        "git_merge_branch_owner",
        "handle",
        _c(
            r"(?i:\bmerge[ ]pull[ ]request[ ]#\d+[ ]from[ ])"
            r"([A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?)/"
        ),
        MEDIUM,
        "the GitHub account in a merge commit's subject (Merge pull request #12 from ana-k/fix)",
        group=1,
        anchors=("merge pull request",),
    ),
    Rule(
        "chat_group_name",
        "handle",
        _c(
            r"[\"“'‘]([a-z0-9][a-z0-9._-]{2,30})[\"”'’][ ](?=(?i:whatsapp|telegram|signal|slack"
            r"|discord|facebook|viber|messenger|group[ ]?chat)\b)"
        ),
        LOW,
        'a handle-like chat group name in quotes before the app (the "night-shift-4" WhatsApp '
        "group)",
        group=1,
        validate=_identifier_like,
        trigger=Trigger(
            _c(
                r"(?i:whatsapp|telegram|signal|slack|discord|facebook|viber|messenger"
                r"|group[ ]?chat)"
            ),
            40,
            0,
        ),
    ),
    Rule(
        "username_is_my_login",
        "handle",
        _c(
            r"(?<![\w@.-])([A-Za-z0-9][A-Za-z0-9._-]{1,30}[A-Za-z0-9])[ ](?:is|was)[ ]my[ ]"
            r"(?:login|username|user[ ]name|handle|user[ ]id|gamertag)\b"
        ),
        MEDIUM,
        "user name before 'is my login / username / handle'",
        group=1,
        validate=_user_value,
        requires=("is my", "was my"),
    ),
    Rule(
        "username_ssh_log",
        "handle",
        _c(
            r"(?i:\b(?:password|publickey|keyboard-interactive|user)[ ]for[ ]"
            r"(?:invalid[ ]user[ ])?)"
            r"([A-Za-z0-9][A-Za-z0-9._-]{0,31})[ ]from\b"
        ),
        HIGH,
        "user name in sshd log lines (Accepted publickey for deploy-bot from ...), not a "
        "system or default account that scanners try (root, admin, oracle)",
        group=1,
        validate=_not_a_system_account,
        anchors=("password for", "publickey for", "keyboard-interactive for", "user for"),
    ),
    Rule(
        "uk_driving_licence",
        "driver's license",
        _c(
            _first("[A-Z9]", r"\w")
            + r"[A-Z9]{4}[ ]?\d{6}[ ]?[A-Z9]{2}\d[A-Z]{2}(?:[ ]?\d{2})?(?![\w])"
        ),
        HIGH,
        "UK driving licence number (surname, birth date digits, initials, check characters)",
        validate=_uk_licence_valid,
    ),
    Rule(
        "us_mbi",
        "medical record number",
        _c(
            _first("[1-9]", r"[\w-]") + r"[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d-?"
            r"[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d-?[AC-HJKMNP-RT-Y]{2}\d{2}(?![\w-])"
        ),
        HIGH,
        "US Medicare Beneficiary Identifier (11 characters in the CMS layout, dashes optional)",
    ),
    Rule(
        "uk_number_plate",
        "license plate",
        _c(_first("[A-HJ-PR-Y]", r"[\w-]") + r"[A-HJ-PR-Y]\d{2}[ ]?[A-HJ-PR-Z]{3}(?![\w-])"),
        MEDIUM,
        "current UK number plate (two letters, two digits, three letters: AB12 CDE)",
    ),
    Rule(
        "eu_vat",
        "national id",
        _c(
            _first("[A-Z]", r"\w")
            + r"(?:[A-Z]{1,2}|HE)[ ]?[A-Z0-9+*]?(?:[ .-]?[A-Z0-9+*]{2,4}){2,5}"
            r"(?:[ ]?(?:MWST|TVA|IVA|MVA))?(?![\w])"
        ),
        HIGH,
        "EU/UK/CH/NO VAT number in its country's VIES format (DE123456789, FRXX123456789)",
        validate=_vat_shape,
        trigger=Trigger(
            _c(
                r"(?<![\w])(?:ATU|BE|BG|CY|CZ|DE|DK|EE|EL|GR|ES|FI|FR|GB|XI|HR|HU|IE|IT|LT|LU|LV"
                r"|MT|NL|PL|PT|RO|SE|SI|SK|CHE|NO)(?=[ ]?[A-Z0-9+*]?[ .-]?\d)"
            ),
            0,
            40,
        ),
    ),
    Rule(
        "vat_context",
        "national id",
        _c(
            r"(?i:\b(?:vat|tva|iva|mwst|ust-?id(?:nr)?|btw|moms|nip|vat[ ]reg(?:istration)?)"
            r"(?:[ ](?:id|no\.?|number|nr\.?|reg\.?))?)"
            + KEY_SEP
            + r"([A-Z]{0,3}[ ]?\d[\d .-]{6,14}"
            r"[A-Z0-9]{0,3})(?![\w-])"
        ),
        HIGH,
        "tax number after VAT / TVA / USt-IdNr / BTW / NIP",
        group=1,
        validate=_has_digit,
        anchors=("vat", "tva", "iva", "mwst", "ust", "btw", "moms", "nip"),
    ),
    Rule(
        "device_serial",
        "internal id",
        _c(
            r"(?i:\b(?:serial(?:[ ]?(?:number|no\.?|#|num))?|s/n|sn|imei|meid|asset[ ]tag"
            r"|device[ ]id|service[ ]tag|udid|hardware[ ]id)\b)"
            + KEY_SEP
            + r"([A-Z0-9][A-Z0-9-]{4,30}[A-Z0-9])(?![\w-])"
        ),
        0.98,  # outranks the card rule on a Luhn-valid 15-digit IMEI
        "device serial / IMEI / asset tag after its keyword",
        group=1,
        validate=_has_digit,
        anchors=(
            "serial",
            "s/n",
            "sn",
            "imei",
            "meid",
            "asset",
            "device",
            "service",
            "udid",
            "hardware",
        ),
    ),
    Rule(
        "codice_fiscale",
        "national id",
        _c(r"(?<![\w-])[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z](?![\w-])", re.IGNORECASE),
        HIGH,
        "Italian codice fiscale with a valid check letter",
        validate=codice_fiscale_valid,
    ),
    Rule(
        "cpf",
        "national id",
        _c(_first(r"\d", r"[\w.-]") + r"\d{2}\.\d{3}\.\d{3}-\d{2}(?![\w-]|\.\d)"),
        HIGH,
        "Brazilian CPF 000.000.000-00 with valid mod-11 check digits",
        validate=cpf_valid,
    ),
    Rule(
        "aadhaar",
        "national id",
        _c(_first(r"[2-9]", r"[\w.-]") + r"\d{3}[ ]\d{4}[ ]\d{4}(?![\w-]|[ ]\d|\.\d)"),
        HIGH,
        "Aadhaar 0000 0000 0000 with a valid Verhoeff check digit",
        validate=aadhaar_valid,
    ),
    Rule(
        "access_code",
        "secret",
        _c(
            r"(?i:\b(?:door|gate|key[ ]?safe|keysafe|lock[ ]?box|lockbox|alarm|entry|access"
            r"|building|one-time|verification|security|otp|sms|caja[ ]de[ ]llaves|porte|portail"
            r"|tür)[ ]?(?:code|pin|passcode|c[oó]digo|cod[ie])?(?:[ ](?:is|was|:)|[:=]|[ ]de"
            r"[^\n:]{0,40}:|[ ](?:for|para|pour|per|für)[^\n:]{0,40}(?:is|:))"
            r"(?:[ ]still|[ ]now)?[ ]*|\b(?i:alarm|key[ ]?safe|keysafe|lock[ ]?box|lockbox)[ ]"
            r"(?!(?:19|20)\d\d(?!\d))(?=\d{4,8}(?![\w.,/:-])))"
            r"([0-9A-Z]{3,8}(?:[ ][0-9]{3})?)(?![\w-])"
        ),
        MEDIUM,
        "door / key-safe / alarm / one-time code after its keyword (code is 4471, otp=739114)",
        group=1,
        validate=_has_digit,
        anchors=(
            "door",
            "gate",
            "key",
            "lock",
            "alarm",
            "entry",
            "access",
            "building",
            "one-time",
            "verification",
            "security",
            "otp",
            "sms",
            "caja",
            "porte",
            "portail",
            "tür",
        ),
    ),
    Rule(
        "medical_license",
        "medical license",
        _c(
            r"(?i:\b(?:GMC|NMC(?:[ ]PIN)?|HCPC(?:[ ]reg(?:istration|\.)?)?|GPhC|GDC|AHPRA|NPI|DEA"
            r"|RCVS|MCRN|RPPS|ADELI|LANR|COREN|SRA[ ]ID|CNO[ ]registration|SIA[ ]licen[cs]e"
            r"|state[ ]bar|bar[ ](?:no\.?"
            r"|number|roll|registration)|SBN|ordinal|colegiad[oa]|tessera|iscrizione|cod\.[ ]reg\."
            r"|BIG-(?:nummer|registratie)|notary[ ]commission|commission[ ](?:no\.?|number)"
            r"|(?:professional|practitioner|medical|nursing|practising|practicing)[ ]"
            r"(?:registration|licen[cs]e|certificate)|(?:RN|LPN|LVN|APRN|RPN|CNA)[ ]licen[cs]e"
            r"|toque)(?:[ ](?:no\.?|number|n[º°o]\.?|n\.|#|pin))?"
            r"(?:\b|(?<=\.)))"
            + KEY_SEP
            + r"([A-Z]{0,4}[ -]?\d(?:[\dA-Z]|[ .-](?=[\dA-Z])){3,19})(?![\w-])"
        ),
        MEDIUM,
        "registration number of a regulated professional after GMC / NMC PIN / HCPC / NPI / "
        "DEA / AHPRA / bar number / colegiado / n° ordinal / SIA licence keywords",
        group=1,
        validate=_four_digits,
        anchors=(
            "gmc",
            "nmc",
            "hcpc",
            "gphc",
            "gdc",
            "ahpra",
            "npi",
            "dea",
            "rcvs",
            "mcrn",
            "rpps",
            "adeli",
            "lanr",
            "coren",
            "sra id",
            "rn licen",
            "lpn licen",
            "lvn licen",
            "aprn licen",
            "rpn licen",
            "cna licen",
            "toque",
            "cno registration",
            "sia",
            "state bar",
            "bar ",
            "sbn",
            "ordinal",
            "colegiad",
            "tessera",
            "iscrizione",
            "cod. reg.",
            "big-",
            "notary",
            "commission",
            "professional",
            "practitioner",
            "medical",
            "nursing",
            "practising",
            "practicing",
        ),
    ),
    Rule(
        "iban_context",
        "iban",
        _c(
            r"(?i:(?<![a-z])iban(?![a-z])(?:[ ](?:no\.?|number))?)[ \t]*(?:[:#=]|is)?[ \t]*"
            r"((?i:[A-Z]{2}\d{2}(?:(?:[ .-]|[ ]?\n)?[A-Z0-9]{4}){2,7}"
            r"(?:(?:[ .-]|[ ]?\n)?[A-Z0-9]{1,3})?))(?![\w])"
        ),
        0.9,
        "IBAN layout after the word IBAN, also in lower case and when its check digits fail "
        "(typed by hand)",
        group=1,
        refine=refine_iban_after_keyword,
        anchors=("iban",),
    ),
    Rule(
        "iban_lower_case",
        "iban",
        _c(
            _first("[a-z]", r"\w")
            + r"[a-z]\d{2}(?:[ ]?[a-z0-9]{4}){2,7}(?:[ ]?[a-z0-9]{1,3})?(?!\w)"
        ),
        0.95,
        "an IBAN typed in lower case (in a log line, a chat) with valid mod-97 check digits",
        refine=refine_iban,
    ),
    Rule(
        "bank_account_domestic",
        "iban",
        _c(
            r"(?i:\b(?:NRB|CCC|IBAN|konto(?:nummer|nr\.?)?|(?:nr|numer)[ ]konta|rachunek|rachunku"
            r"|cuenta|c/c|conta|conto|compte|rekening(?:nummer)?|bankverbindung)(?=[ :]))"
            + KEY_SEP
            + r"([A-Za-z]{2}\d{2}(?:[ .-]?[A-Za-z0-9]{4}){2,7}(?:[ .-]?[A-Za-z0-9]{1,3})?"
            r"|\d{2}(?:(?:[ .-]|[ ]?\n)?\d{2,10}+){2,8})(?![\w-])"
        ),
        0.95,
        "bank account in a domestic layout with check digits after an account keyword "
        "(Konto, cuenta, NRB, CCC; not the English 'account', where an IBAN has its own rules): "
        "Spanish CCC, Polish NRB, or an IBAN in any case and grouping",
        group=1,
        refine=refine_domestic_account,
        anchors=(
            "nrb",
            "ccc",
            "iban",
            "konto",
            "nr konta",
            "numer konta",
            "rachun",
            "cuenta ",
            "cuenta:",
            "c/c ",
            "c/c:",
            "conta ",
            "conta:",
            "conto ",
            "conto:",
            "compte ",
            "compte:",
            "rekening",
            "bankverbindung",
        ),
    ),
    Rule(
        "api_key_live",
        "secret",
        _c(r"(?<![\w-])[a-z]{2,8}_(?:live|prod)_[A-Za-z0-9]{16,200}(?![\w-])"),
        HIGH,
        "provider-style live key: prefix_live_ or prefix_prod_ and 16+ letters or digits",
        trigger=Trigger(_c(r"_(?:live|prod)_"), 9, 200),
    ),
    Rule(
        "internal_id_key_value",
        "internal id",
        _c(
            r"(?i:(?<![\w.-])(?:(?:user|customer|cust|account|acct|member|employee|emp|staff"
            r"|patient|student|subscriber|player|driver|rider)_?(?:id|no|num|number)|device(?:_?id)?"
            r"|serial(?:_?no)?|imei))[\"']?[ \t]*[=:][ \t]*[\"']?"
            r"([A-Za-z0-9][A-Za-z0-9_:.-]{2,40}[A-Za-z0-9])(?![\w@-])"
        ),
        MEDIUM,
        "a person's or device's id in key=value logs (user_id=u_58122, device=R58N31KQZ7A)",
        group=1,
        validate=_has_digit,
        anchors=(
            "user",
            "customer",
            "cust",
            "account",
            "acct",
            "member",
            "employee",
            "emp",
            "staff",
            "patient",
            "student",
            "subscriber",
            "player",
            "driver",
            "rider",
            "device",
            "serial",
            "imei",
        ),
    ),
    Rule(
        "reference_id_key_value",
        "reference id",
        _c(
            r"(?i:(?<![\w.-])(?:order|payout|payment|invoice|ticket|case|booking|claim|refund|txn"
            r"|transaction|shipment|policy|reservation|subscription|contract|parcel|tracking)"
            r"_?(?:id|no|num|number|ref)?)[\"']?[ \t]*=[ \t]*[\"']?"
            r"([A-Za-z0-9][A-Za-z0-9_:.-]{2,40}[A-Za-z0-9])(?![\w@-])"
        ),
        MEDIUM,
        "a record's id in key=value logs (payout_id=po_7731903, order=A-55120)",
        group=1,
        validate=_has_digit,
        anchors=(
            "order",
            "payout",
            "payment",
            "invoice",
            "ticket",
            "case",
            "booking",
            "claim",
            "refund",
            "txn",
            "transaction",
            "shipment",
            "policy",
            "reservation",
            "subscription",
            "contract",
            "parcel",
            "tracking",
        ),
    ),
    Rule(
        "chat_handle_line_start",
        "handle",
        _c(
            r"^([A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z][A-Za-z0-9]*|_\d+)+|[A-Za-z]{2,}\d{2,})"
            r"(?=:[ ][^\s:]+(?:[ ]+[^\s]+){2})",
            re.MULTILINE,
        ),
        0.6,
        "a user name (with . or _, or ending in digits) speaking at a line start, followed by "
        "a sentence of at least three words (not a config key: db_host: localhost)",
        group=1,
        requires=(":",),
    ),
    Rule(
        "date_day_month_dotted",
        "date",
        _c(
            r"(?<![\w.,:/-])(?<!(?i:version|release)[ ])(?:0?[1-9]|[12]\d|3[01])\.(?:0[1-9]|1[0-2])"
            r"\.(?![\w.,/-]|[ ]?\d)"
        ),
        MEDIUM,
        "day and month with trailing dots and no year (am 12.03. um 16 Uhr)",
        trigger=Trigger(_c(r"\.(?:0[1-9]|1[0-2])\.(?!\d)"), 2, 0),
    ),
    Rule(
        "age_be_words",
        "age",
        _c(
            rf"(?i:\b(?:she's|he's|i'm|shes|hes|im|she[ ]is|he[ ]is|i[ ]am)[ ])({NUMBER_WORD})"
            r"(?=[ ]?(?:now\b|already\b|today\b|this[ ]year\b|[,.;!?—–)]|[ ]*(?:\n|$))"
            r"|[ ]+[^\w\s])"
        ),
        MEDIUM,
        "an age in words after she's / he's / I'm: she's eleven now",
        group=1,
        validate=_age_valid,
        anchors=("she", "he", "i'm", "im", "i am"),
    ),
    Rule(
        "gamer_tag",
        "handle",
        _c(
            r"(?<![\w#@.-])(?!(?i:order|ticket|issue|pr|bug|case|ref|invoice|no|nr|item|room|unit"
            r"|apt|flat|suite|run|build|job|step)#)[A-Za-z][A-Za-z0-9_.-]{1,30}#\d{4,5}(?![\w-])"
        ),
        MEDIUM,
        "a gamer tag: a name and four or five digits after '#' (Bingo#4471)",
        trigger=Trigger(_c(r"(?<=[\w.-])#\d{4,5}(?![\w-])"), 32, 0),
    ),
    Rule(
        "date_weekday_day",
        "date",
        _c(
            rf"(?:(?i:\b(?:{WEEKDAY_NAMES}))\.?[ ]+(?:(?:el|le|il|den|am|the)[ ]+)?"
            r"|\b(?:Mo|Di|Mi|Do|Fr|Sa|So)\.?,?[ ]+(?=\d{1,2}\.(?!\d)))"
            r"(?:3[01]|[12]\d|0?[1-9])(?:\.|(?:/(?:1[0-2]|0?[1-9]))(?![/\d]))?"
            r"(?![\d:]|[.,]\d|[ ]?(?i:am|pm|h|uhr|hrs?|min|%|x|times|people|pax)\b"
            r"|[ ]*(?i:to|till|until|bis|a|-|–)[ ]*\d)"
            rf"(?![ ]+(?:de[ ]+)?(?i:{MONTH}|{MONTH_INTL}))"
        ),
        MEDIUM,
        "a weekday and a day of the month in English, German, Spanish, French, Italian or "
        "Portuguese (jueves 17, Fr 17., Wed 3/4)",
        anchors=WEEKDAY_ANCHORS,
    ),
    Rule(
        "date_airline",
        "date",
        _c(
            r"(?<![\w])(?:0[1-9]|[12]\d|3[01])(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)"
            r"(?:\d{2})?(?![\w])"
        ),
        MEDIUM,
        "airline-style date: 05APR, 11APR25",
        trigger=Trigger(_c(r"\d(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)"), 1, 2),
    ),
    Rule(
        "date_day_month_short",
        "date",
        _c(
            r"(?i:"
            + "|".join(
                f"(?<={before} )"
                for before in (
                    r"\bon",
                    r"\bfrom",
                    r"\buntil",
                    r"\btill",
                    r"\bsince",
                    r"\bby",
                    r"\bstarted",
                    r"\bdue",
                    r"\bdated",
                    r"\bbefore",
                    r"\bafter",
                    r"\bemails of",
                    r"\bemail of",
                    r"\bletters of",
                    r"\bletter of",
                    r"\bam",
                    r"\ble",
                    r"\bel",
                    r"\bil",
                    r"\bvom",
                    r"\bbis",
                    r"\bab",
                    r"\bstart",
                )
            )
            + r")(?!24/7)((?:3[01]|[12]\d|0?[1-9])(?:/(?:1[0-2]|0?[1-9])(?![\w/-]|[.,]\d)"
            r"|\.(?:1[0-2]|0?[1-9])\.(?![\w/-]|\.\w|[ ]?\d)))"
        ),
        LOW + 0.1,
        "day/month without a year after on / from / until / since / start: on 12/9, started "
        "13/3, start 1.4.",
        group=1,
        trigger=Trigger(_c(r"(?<![\w/.])\d{1,2}(?:/\d{1,2}|\.\d{1,2}\.)(?![\w/])"), 0, 0),
    ),
    Rule(
        "date_day_month_listed",
        "date",
        _c(_DAY_SLASH_MONTH),
        LOW + 0.1,
        "day/month without a year next to another in a list or a row (emails of 3/2, 17/2, "
        "1/3 and 22/3; a rota's 3/3 4/3 5/3): one alone may be a fraction or a score",
        refine=refine_listed_day_month,
        trigger=Trigger(_c(_DAY_SLASH_MONTH + _LIST_GAP + _DAY_SLASH_MONTH), 12, 12),
    ),
    Rule(
        "one_time_code",
        "secret",
        _c(
            r"(?i:\b(?:(?:one-time|verification|security|backup|recovery|login|access|reset|sms"
            r"|auth(?:entication)?|2fa|mfa)[ ])?(?:codes?|otp|pin|passcode|tan)\b"
            r"(?:[ ](?:is|are|was|were))?(?:[ ](?:still|now))?[ \t]*[:=#]?[ \t]*[\"“']?)"
            r"(\d{3}[ -]\d{3}|\d{4}-\d{4}|\d{4,8}|\d(?:[ ]\d){3,7})(?![\w-]|[.,]\d)"
        ),
        MEDIUM,
        "digits after code / OTP / PIN / passcode (code 482913, OTP 604 771, backup codes are "
        "8841-2290), not after postal / error / product / booking code",
        group=1,
        refine=refine_code_value,
        anchors=(
            "one-time",
            "verification",
            "security",
            "backup",
            "recovery",
            "login",
            "access",
            "reset",
            "sms",
            "auth",
            "2fa",
            "mfa",
            "code",
            "otp",
            "pin",
            "passcode",
            "tan",
        ),
    ),
    Rule(
        "command_line_password",
        "secret",
        _c(
            r"(?:\bmysql(?:dump|admin)?\b[^\n]{0,80}?[ ]-p(?=\S)|[ ]-pass(?:in|out)?[ ]pass:"
            r"|[ ]--password[= ](?=\S))"
            r"([^\s\"'`]{3,128})"
        ),
        HIGH,
        "password on a command line (mysql -pX, openssl -pass pass:X, --password=X)",
        group=1,
        requires=("mysql", "-pass", "--password"),
    ),
    Rule(
        "url_key",
        "secret",
        _c(r"[a-z][a-z0-9+.-]{1,20}://([A-Za-z0-9_-]{20,128})@", re.IGNORECASE),
        HIGH,
        "a long key as a URL's user (Sentry DSN https://<key>@host)",
        group=1,
        trigger=_URL_SCHEME_TRIGGER,
    ),
    Rule(
        "url_user",
        "handle",
        _c(r"[a-z][a-z0-9+.-]{1,20}://([A-Za-z0-9][\w.-]{1,63}):[^\s@/]{3,128}@", re.IGNORECASE),
        MEDIUM,
        "the user of a URL with credentials (postgresql://jdoe:...@host), not a system account",
        group=1,
        validate=_personal_account,
        trigger=_URL_SCHEME_TRIGGER,
    ),
    Rule(
        "ssh_user",
        "handle",
        _c(
            r"\b(?:ssh|scp|sftp|rsync|mosh)\b[^\n]{0,120}?[ :]([a-z_][a-z0-9_.-]{1,31})@"
            r"(?=[\w.-]+(?:[:\s/]|$))",
            re.MULTILINE,
        ),
        MEDIUM,
        "a login in ssh/scp user@host, not a system account",
        group=1,
        validate=_personal_account,
        requires=("ssh", "scp", "sftp", "rsync", "mosh"),
    ),
    Rule(
        "home_directory_user",
        "handle",
        _c(r"/home/([a-z_][a-z0-9_.-]{1,31})(?=/|\s|$)", re.MULTILINE),
        MEDIUM,
        "the user of a /home/<user>/ path, not a system account",
        group=1,
        validate=_personal_account,
        anchors=("/home/",),
    ),
    Rule(
        "cli_user_flag",
        "handle",
        _c(
            r"(?<![\w-])--(?:assignee|user(?:name)?|login|owner|author|reviewer|reporter)[ =]"
            r"[\"']?([A-Za-z0-9][A-Za-z0-9._-]{1,38}[A-Za-z0-9])(?![\w@-])"
        ),
        MEDIUM,
        "a user name after --assignee / --user / --author on a command line",
        group=1,
        validate=_personal_account,
        anchors=("--",),
    ),
    Rule(
        "chat_speaker_dash_time",
        "handle",
        _c(
            r"^([A-Za-z0-9][\w.-]{1,31})[ ]—[ ](?:Today|Yesterday|\d{1,2}/\d{1,2}/\d{2,4})\b",
            re.MULTILINE,
        ),
        MEDIUM,
        "a user name (digits, dots, dashes or underscores) heading a Discord-style message: "
        "name — Today at 21:04",
        group=1,
        validate=_identifier_like,
        requires=(" — ",),
    ),
    Rule(
        "vin",
        "internal id",
        _c(_first("[A-HJ-NPR-Z0-9]", r"[\w-]") + r"[A-HJ-NPR-Z0-9]{12}\d{4}(?![\w-])"),
        MEDIUM,
        "vehicle identification number: 17 characters without I, O or Q, ending in digits, "
        "with at least three letters",
        validate=lambda v: sum(c.isalpha() for c in v) >= 3 and sum(c.isdigit() for c in v) >= 6,
    ),
    Rule(
        "uk_nino",
        "national id",
        _c(
            _first("[A-CEGHJ-PR-TW-Z]", r"[\w-]")
            + r"[A-CEGHJ-NPR-TW-Z](?<!BG)(?<!GB)(?<!NK)(?<!KN)(?<!TN)(?<!NT)(?<!ZZ)"
            r"[ ]?\d{2}[ ]?\d{2}[ ]?\d{2}[ ]?[A-D](?![\w-])"
        ),
        HIGH,
        "UK National Insurance number (two prefix letters from the HMRC set, six digits, A-D)",
    ),
    Rule(
        "age_after_name",
        "age",
        _c(
            r"(?<=[\w'’])(?:[ ]\(|[ ]is[ ](?:now[ ]|only[ ]|just[ ])?)"
            rf"([1-9]\d?|(?i:{NUMBER_WORD}))"
            r"(?=\)|[ ]?(?:[,.;!?](?!\d)|$)|[ ](?:on|until|till|next|this|today|now|and|but"
            r"|in[ ]\w+|years?|yrs)\b)",
            re.MULTILINE,
        ),
        MEDIUM,
        "an age right after a name: Piotr (44), Alphy is nine on the 20th (not Chapter (12), "
        "not a version: PRB01 (6.2.4)",
        group=1,
        validate=_age_valid,
        refine=refine_age_after_name,
        requires=("(", " is "),
    ),
    Rule(
        "age_of_child",
        "age",
        _c(
            r"(?i:\b(?:child|infant|minor|baby|boy|girl|son|daughter|kid|toddler|teen|teenager)"
            r",?[ ])(\d{1,2}[ ]?(?:yrs?|years?|y/o|yo|months?|mos?)(?:[ ]old)?)\b"
        ),
        MEDIUM,
        "an age with its unit after child / son / girl: (child, 9 yrs)",
        group=1,
        validate=_age_valid,
        anchors=(
            "child",
            "infant",
            "minor",
            "baby",
            "boy",
            "girl",
            "son",
            "daughter",
            "kid",
            "toddler",
            "teen",
        ),
    ),
    Rule(
        "dni_nie",
        "national id",
        _c(_first("[0-9XYZ]", r"[\w-]") + r"\d{7}[ -]?[A-HJ-NP-TV-Z](?![\w-])"),
        HIGH,
        "Spanish DNI / NIE whose letter is the number's mod-23 check letter",
        validate=dni_nie_valid,
        trigger=Trigger(_c(r"\d{7}[ -]?[A-HJ-NP-TV-Z](?![\w-])"), 1, 0),
    ),
    Rule(
        "eleven_digit_national_id",
        "national id",
        _c(_first(r"\d", r"[\w+./-]") + r"\d{10}(?![\w-]|[.,]\d)"),
        MEDIUM,
        "11 digits that are a valid Polish PESEL, Norwegian fødselsnummer, Estonian isikukood "
        "or Lithuanian asmens kodas (birth date and check digits)",
        validate=eleven_digit_id_valid,
        trigger=Trigger(_c(r"(?<![\w+./-])\d{11}(?![\w-])"), 0, 0),
    ),
    Rule(
        "national_id_by_shape",
        "national id",
        _c(
            _first(r"\d", r"[\w+./-]")
            + r"(?:\d{5}(?:[-+A-FU-Y]\d{3}[0-9A-Y]|/\d{4}|-\d{7})|\d\.\d{2}\.\d{2}-\d{3}\.\d{2}"
            r"|56\.\d{4}\.\d{4}\.\d{2}"
            r"|(?:[ ]?\d{2}){2}[ ]?(?:\d{2}|2[AB])[ ]?\d{3}[ ]?\d{3}[ ]?\d{2}"
            r"|\d{12}|\d{16}[\dX]|\d{6}[A-W][A-IW]?)(?![\w-]|[.,/]\d)"
        ),
        MEDIUM,
        "national id in a distinctive layout with its check digits (and birth date): FI "
        "henkilötunnus, CZ/SK rodné číslo, BE national number, CH AHV, FR NIR, KR RRN, RO CNP, "
        "CN resident id, IE PPS",
        validate=national_id_by_shape_valid,
    ),
    Rule(
        "personnummer",
        "national id",
        _c(_first(r"\d", r"[\w+./-]") + r"(?:\d{7}|\d{5})[-+]\d{4}(?![\w-])"),
        MEDIUM,
        "Swedish personnummer YYMMDD-NNNN (or YYYYMMDD-NNNN) with a real date and its Luhn check",
        validate=personnummer_valid,
        trigger=Trigger(_c(r"\d{6}[-+]\d{4}(?![\w-])"), 2, 0),
    ),
    Rule(
        "professional_registration",
        "medical license",
        _c(
            r"(?i:\b(?:reg(?:istration)?\.?|licen[cs]e|prescriber|provider|membership)"
            r"[ ](?:no\.?|number|#|n[º°o]\.?))"
            + KEY_SEP
            + r"([A-Z]{0,6}[/ -]?[A-Z0-9]{0,6}[/ -]?\d(?:[\dA-Z]|[/ .-](?=[\dA-Z])){3,19})(?![\w-])"
        ),
        MEDIUM,
        "registration / licence / prescriber number next to a professional's title "
        "(Dr ..., MBBS · Reg. No. APMC/FMR/48213)",
        group=1,
        validate=_four_digits,
        refine=refine_professional_registration,
        anchors=("reg", "licen", "prescriber", "provider", "membership"),
    ),
    Rule(
        "platform_handle",
        "handle",
        _c(
            r"(?i:\b(?:ig|insta(?:gram)?|tiktok|twitter|snap(?:chat)?|discord|telegram|skype|twitch"
            r"|steam|xbox|psn|gamertag|github|gitlab|reddit|linkedin|slack|wechat|line[ ]id|kik"
            r"|mastodon|bluesky|youtube|yt|ign|roblox)(?:[ ](?:handle|username|user"
            r"|id|name|tag|account))?(?:[ ]*[:=-]|[ ]is|[ ]@))[ ]*@?"
            r"([A-Za-z0-9][A-Za-z0-9._#-]{1,30}[A-Za-z0-9])(?![\w@:/-])"
        ),
        MEDIUM,
        "a user name after a platform's name: IG: maria.k, discord - kaito#1234, my insta is x",
        group=1,
        validate=_user_value,
        anchors=(
            "ig",
            "insta",
            "tiktok",
            "twitter",
            "snap",
            "discord",
            "telegram",
            "skype",
            "twitch",
            "steam",
            "xbox",
            "psn",
            "gamertag",
            "github",
            "gitlab",
            "reddit",
            "linkedin",
            "slack",
            "wechat",
            "line id",
            "kik",
            "mastodon",
            "bluesky",
            "youtube",
            "yt",
            "ign",
            "roblox",
        ),
    ),
    Rule(
        "reddit_user",
        "handle",
        _c(r"(?<![\w/])/?u/([A-Za-z0-9_-]{3,30})(?![\w/-])"),
        MEDIUM,
        "a Reddit user: u/name",
        group=1,
        requires=("u/",),
    ),
    Rule(
        "age_sex",
        "age",
        _c(r"(?<![\w/.-])(\d{1,2}(?:[ ]?(?:yrs?|y))?)[ ]?/[ ]?[FMfm](?![\w/])"),
        MEDIUM,
        "age and sex written together: 56 yrs/F, 28/M",
        group=1,
        validate=_age_valid,
        trigger=Trigger(_c(r"/[ ]?[FMfm](?![\w/])"), 8, 0),
    ),
    Rule(
        "sex_age",
        "age",
        _c(r"(?<![\w/.-])(?<!size[ ])(?<!at[ ])[FM][ ]?/[ ]?(\d{1,2})(?![\w/]|[.,:]\d)"),
        MEDIUM,
        "sex and age written together: M/34, F / 71 (not a size M/32 nor an aperture at F/4)",
        group=1,
        validate=_age_valid,
        trigger=Trigger(_c(r"(?<![\w/.-])[FM][ ]?/[ ]?\d"), 0, 8),
    ),
    Rule(
        "age_in_description",
        "age",
        _c(
            r"(?i:\b(?:male|female|man|woman|boy|girl|lad|white|black|asian|mixed[ ]race)"
            r",?[ ](?:aged[ ])?(?:about|around|approx\.?|approximately|roughly|maybe|possibly)[ ])"
            rf"(\d{{1,2}}|{NUMBER_WORD})(?=[,;.)]|[ ](?:years|yrs|or[ ]so|ish|wearing|with|and)\b)"
        ),
        MEDIUM,
        "an estimated age in a description of a person: a white male, about twenty, wearing",
        group=1,
        validate=_age_valid,
        anchors=(
            "male",
            "female",
            "man",
            "woman",
            "boy",
            "girl",
            "lad",
            "white",
            "black",
            "asian",
            "mixed",
        ),
    ),
    Rule(
        "age_at_clause_start",
        "age",
        _c(
            r"(?:^|(?<=[.!?][ ])|(?<=[.!?][ ][ ]))At[ ](1[3-9]|[2-9]\d),?[ ]"
            r"(?=(?:I|he|she|we|they|my)[ ])",
            re.MULTILINE,
        ),
        MEDIUM,
        "an age opening a sentence: At 19 I moved to Leeds (13-99, so not a clock time)",
        group=1,
        anchors=("at ",),
    ),
    Rule(
        "age_after_shes",
        "age",
        _c(
            r"(?i:\b(?:she's|he's|shes|hes|i'm|im)[ ](?:only[ ]|now[ ]|almost[ ]|nearly[ ]"
            r"|just[ ])?)([1-9]\d?)(?![\w.,:/]|[ ]?(?i:%|percent|minutes?|mins?|hours?|hrs|days?"
            r"|weeks?|months?|miles?|km|feet|ft|foot|inches|cm|kg|lbs?|pounds?|euros?|dollars?"
            r"|quid|k|am|pm|o'clock|seconds?|secs?|times|x|stone|st|stops?|floors?|blocks?|steps?"
            r"|points?|pts|percent|out|of|euro|bucks|grand|mil|million|th|nd|rd)\b)"
        ),
        MEDIUM,
        "a number after she's / he's / I'm (she's 88 na, im 14 lol), not a distance, time or "
        "amount",
        group=1,
        validate=_age_valid,
        anchors=("she's", "he's", "shes", "hes", "i'm", "im"),
    ),
    Rule(
        "police_collar_number",
        "internal id",
        _c(r"(?<![\w])(?:PC|PCSO|DC|PS|Sgt|DS)[ ](\d{3,5})(?=[ ]+[A-Z][A-Za-z'’-]+)"),
        MEDIUM,
        "a police officer's collar number between rank and name (PC 4417 HARGREAVES), not a "
        "product (PC 2024 Edition)",
        group=1,
        refine=refine_before_a_name,
        anchors=("pc", "pcso", "dc", "ps", "sgt", "ds"),
    ),
    Rule(
        "age_specific_unit",
        "age",
        _c(
            r"(?<![0-9A-Za-z.,])\d{1,3}[ ]?(?:yaşında(?:ki|yım|ydı)?|tuổi|歳|岁|歲|살"
            r"|taong[ ]gulang)"
            r"(?![0-9A-Za-z])",
            re.IGNORECASE,
        ),
        MEDIUM,
        "a number with a unit that only ages take: 64 yaşında, 35 tuổi, 3歳, 12살, 7 taong gulang",
        validate=_age_valid,
        trigger=Trigger(_c(r"(?i:yaşında|tuổi|gulang)|[歳岁歲살]"), 8, 8),
        # the prefilter reads the CJK units as '?' and would try the trigger at every
        # non-ASCII character; a substring test first skips the texts without one
        requires=("yaşında", "tuổi", "gulang", "歳", "岁", "歲", "살"),
    ),
    Rule(
        "age_greek",
        "age",
        _c(r"(?<![0-9A-Za-z.,])\d{1,3}[ ]?ετών(?![\w])"),
        MEDIUM,
        "a number of years in the genitive, which Greek writes for ages: 17 ετών",
        validate=_age_valid,
        requires=("ετών",),  # only in Greek text: the prefilter reads these letters as '?'
    ),
    Rule(
        "age_have_years",
        "age",
        _c(
            r"(?i:\b(?:j['’]ai|il[ ]a|elle[ ]a|tu[ ]as|vous[ ]avez|âgée?s?[ ]de|(?:il|elle|j['’])"
            r"[ ]?(?:a[ ]eu|aura|avait|aurait|ai[ ]eu|aurai)|tengo|tiene"
            r"|cuenta[ ]con|tienes|tenía|tenia|cumple|cumplió|cumplio|cumplirá|ho|ha|hai|aveva"
            r"|avevo|compie"
            r"|tenho|tem|tinha|completou|mam|ma|miał|miała|skończył|skończyła|мне|ему|ей"
            r"|исполнилось|ich[ ]bin|er[ ]ist|sie[ ]ist|ik[ ]ben|hij[ ]is|zij[ ]is|w[ ]wieku"
            r"|er|är|blir|ble|fyller|fyllde|fylte)[ ])"
            r"(\d{1,3}[ ](?:ans|años|anni|anos|lat|lata|roku|год|года|лет|jahre[ ]alt|jaar[ ]oud"
            r"|år(?:[ ]gam(?:mel|mal|le))?|(?:jahre|jaar)(?=[ ]?[.,;!?)]|[ ]*$)))(?![\w'’]|[ ]"
            r"(?:de(?![ ]edad)|d['’]|di|da|ago|temu|назад|stażu|doświadczenia|стажа|in|que|che"
            r"|siden|sedan|sidan)\b)",
            re.IGNORECASE,
        ),
        MEDIUM,
        "an age after 'has' in other languages: il a 45 ans, tiene 12 años, ha 27 anni, "
        "ma 19 lat, ему 54 года, ich bin 32 Jahre alt, w wieku 1 roku, hun er 9 år (not 'de "
        "experiencia', not 'ago')",
        group=1,
        validate=_age_valid,
        trigger=Trigger(
            _c(r"(?i)\d[ ](?:ans|años|anni|anos|lata?|roku|года?|лет|jahre|jaar|år)\b"), 40, 12
        ),
    ),
    Rule(
        "age_arabic",
        "age",
        _c(
            r"(?:السن|العمر|عمره|عمرها|عمري|عمرك|عمرهم)[ \t]*[:：]?[ \t]*"
            r"(\d{1,3}(?:[ ]?(?:سنة|سنوات|عاماً|عامًا|عاما|عام))?)(?![\w])"
        ),
        MEDIUM,
        "a number after the Arabic word for age, with its unit: السن: 15 سنة, عمرها ٨٧ سنة",
        group=1,
        validate=_age_valid,
        anchors=("السن", "العمر", "عمر"),
    ),
    Rule(
        "age_key_intl",
        "age",
        _c(
            r"(?i:\b(?:edad|alter|âge|età|wiek|leeftijd|ålder|alder|idade|возраст|yaş|umur"
            r"|tuổi|ηλικία)[ \t]*[:=][ \t]*)(\d{1,3})(?![\w.,/:-])"
        ),
        MEDIUM,
        "a number after the word age in other languages: Edad: 45, Alter: 73, Возраст: 61",
        group=1,
        validate=_age_valid,
        anchors=(
            "edad",
            "alter",
            "âge",
            "età",
            "wiek",
            "leeftijd",
            "ålder",
            "alder",
            "idade",
            "возраст",
            "yaş",
            "umur",
            "tuổi",
            "ηλικία",
        ),
    ),
    Rule(
        "age_will_be",
        "age",
        _c(
            r"(?i:\b(?:i['’]ll|you['’]ll|he['’]ll|she['’]ll|they['’]ll|we['’]ll"
            r"|(?:i|he|she|they|we|you)[ ]will)[ ]be[ ])(\d{1,3}|(?i:"
            + NUMBER_WORD
            + r"))(?=[ ](?:next|in|on|this|tomorrow|soon|by|at|when|and)\b|[ ]?[.,;!?]|[ ]*$)",
            re.MULTILINE,
        ),
        MEDIUM,
        "an age after 'she'll be', 'he will be': she'll be 60 next month",
        group=1,
        validate=_age_valid,
        anchors=(
            "i'll",
            "i’ll",
            "you'll",
            "you’ll",
            "he'll",
            "he’ll",
            "she'll",
            "she’ll",
            "they'll",
            "they’ll",
            "we'll",
            "we’ll",
            "i will",
            "he will",
            "she will",
            "they will",
            "we will",
            "you will",
        ),
    ),
    Rule(
        "age_turn",
        "age",
        _c(
            r"(?i:\b(?:(?:will|to|they|we|you|i|twins|both|['’]ll)[ ]turn|turns|turned|turning)[ ])"
            r"(\d{1,3}|(?i:"
            + NUMBER_WORD
            + r"))(?=[ ](?:in|on|this|next|last|soon|today|tomorrow|yesterday|at|when|and"
            r"|before|after|later|recently)\b|[ ]?[.,;!?)]|[ ]*$)",
            re.MULTILINE,
        ),
        MEDIUM,
        "an age after turn/turns/turned: the twins turn 18 in May, he turned 40 last week",
        group=1,
        validate=_age_valid,
        trigger=Trigger(_c(r"(?i)\bturn(?:s|ed|ing)?[ ](?:\d|[a-z]{3,9}\b)"), 30, 24),
    ),
    Rule(
        "age_person_of",
        "age",
        _c(
            r"(?i:\b(?:a|the|an?other|his|her|their|my|our)[ ](?:boy|girl|lad|lass|man|woman"
            r"|child|kid|teenager|teen|youngster|toddler|patient|gentleman|lady|widow|widower"
            r"|pensioner)[ ]of[ ])(\d{1,2}|(?i:"
            + NUMBER_WORD
            + r"))(?![\w.,:/%]|[ ](?:years?(?![ ]old\b)|children|kids|sons|daughters|percent"
            r"|per)\b)"
        ),
        MEDIUM,
        "an age after 'a lad of', 'a woman of': a lad of 15 was seen (not 'of 3 years')",
        group=1,
        validate=_age_valid,
        trigger=Trigger(
            _c(
                r"(?i:(?:boy|girl|lad|lass|man|woman|child|kid|teen|"
                r"youngster|toddler|patient|gentleman|lady|widow|widower|pensioner|mother|father)"
                r"(?:ager)?[ ]of[ ])"
            ),
            10,
            14,
        ),
    ),
    Rule(
        "age_in_brackets_after_name",
        "age",
        _c(
            r"(?:[A-Z][\w'’-]+|[^\x00-\x7f\W\d_]{2,})[ ]\([ ]?(\d{1,3}(?:[ ]?(?:"
            + _AGE_UNITS_INTL
            + r"))?)"
            r"(?=(?<=[^\W\d_.])[ ]?\)|,[ ](?:[a-z]|lives|living|from|and|who))"
        ),
        MEDIUM,
        "an age in brackets after a name, with its unit or before a comma: Ilyas (15 ans), "
        "Ayaan Rahman (৮ বছর), my dad Graeme Wolschke (71, lives with me)",
        group=1,
        validate=_age_valid,
        refine=refine_after_a_name,
        trigger=Trigger(_c(r"[^\W\d_][ ]\([ ]?\d{1,3}(?:[ ]?[^\W\d_.]{1,10}\.?)?[ ]?[),]"), 40, 12),
    ),
    Rule(
        "person_before_age_in_brackets",
        "full person name",
        _c(
            r"(?<![\w'’.-])([A-Z][\w'’-]{1,20})(?=[ ]\([ ]?\d{1,3}[ ]?(?:"
            + _AGE_UNITS_INTL
            + r")[ ]?[),])"
        ),
        MEDIUM,
        "a name right before an age with its unit in brackets: Ilyas (15 ans), Yuki (7歳)",
        group=1,
        validate=_name_not_word,
        trigger=Trigger(_c(r"[^\W\d_][ ]\([ ]?\d{1,3}[ ]?[^\W\d_.]{1,10}\.?[ ]?[),]"), 22, 12),
    ),
    Rule(
        "date_month_day_in_context",
        "date",
        _c(
            r"(?i:\b(?:on|by|until|till|since|from|back|due|sent|dated|before|after|starting"
            r"|effective|neg,?|pos,?|done|(?<!valid[ ])(?<!good[ ])(?:through|thru)|overnight"
            r"|sendt|skickat|verzonden)[ ])"
            r"((?:1[0-2]|0?[1-9])/(?:3[01]|[12]\d|0?[1-9]))(?![/\d]|[ ]of\b|[ ]?(?:cup|tsp|tbsp|"
            r"inch|in\b|mile|pts?|points|marks|scale))"
        ),
        LOW + 0.1,
        "a month/day date after a preposition or status word: come back 4/17, sent 4/4, "
        "through 10/16",
        group=1,
        trigger=Trigger(_c(r"[ ](?:1[0-2]|0?[1-9])/\d{1,2}(?![/\d])"), 12, 12),
    ),
    Rule(
        "age_when_was",
        "age",
        _c(
            r"(?i:\b(?:when|since|until|till|because)[ ](?:i|he|she|they|we|you)[ ](?:was|were)"
            r"[ ](?:only[ ]|just[ ]|about[ ])?)"
            rf"(\d{{1,2}}|(?i:{NUMBER_WORD}))(?![\w]|[ ]?(?i:%|minutes?|mins?|hours?|days?|weeks?"
            r"|months?|years?[ ]ago|o'clock|am|pm|percent|times|euros?|dollars?|pounds?)\b)"
        ),
        MEDIUM,
        "an age in 'when I was 12', 'since she was seven'",
        group=1,
        validate=_age_valid,
        anchors=("when", "since", "until", "till", "because"),
    ),
    Rule(
        "age_after_birth_date",
        "age",
        _c(
            r"(?i:\b(?:DOB|D\.O\.B\.?|born|date[ ]of[ ]birth|geb\.|né(?:e)?|nac\.)[: ]"
            r"[^\n()]{4,30}\((?:aged?[ ])?)(\d{1,3}(?:[ ]?(?:y(?:ea)?rs?|J\.|ans|años|anni))?)\)"
        ),
        MEDIUM,
        "an age in parentheses after a birth date: DOB 03/03/1993 (31), geb. 11.08.1951 (73 J.)",
        group=1,
        validate=_age_valid,
        anchors=("dob", "d.o.b", "born", "date of birth", "geb.", "né", "nac."),
    ),
    Rule(
        "age_after_sex",
        "age",
        _c(
            r"(?:(?i:\b(?:female|male|woman|man|girl|boy))|(?:^|(?<=\())[FM]),[ ](\d{1,2})"
            r"(?=[,;)]|[ ]*$|[ ](?:from|in|at|with|who|and|lives|living)\b)",
            re.MULTILINE,
        ),
        MEDIUM,
        "an age after the person's sex: female, 34, from Leeds; (F, 29)",
        group=1,
        validate=_age_valid,
        requires=(",",),
    ),
    Rule(
        "chat_handle_speaker",
        "handle",
        _c(
            r"^(?:\[[^\]\n]{1,25}\][ ]?|\d{1,2}:\d{2}[ ]?|(?=\S{2,40}[ ]·[ ]|\S{1,38}\d\d:[ ]))"
            r"([A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z0-9]+)+|[A-Za-z]{2,}\d{2,})"
            r"(?=:[ ]\S|[ ]·[ ])",
            re.MULTILINE,
        ),
        MEDIUM,
        "a user name (with . _ or digits) speaking after a chat time stamp, before a forum "
        "' · ', or ending in digits at a line start (not a config key such as db_host:)",
        group=1,
        requires=(":", "·"),
    ),
    Rule(
        "gps_coordinates",
        "location",
        _c(
            r"(?<![\w.-])-?\d{1,2}\.\d{3,8}°?[ ]?[NS]?,?[ ]{0,2}-?\d{1,3}\.\d{3,8}°?[ ]?[EW]?"
            r"(?![\w]|\.\d)"
        ),
        HIGH,
        "decimal latitude, longitude pair with at least three decimals",
        validate=_coordinates_valid,
        requires=(".",),
    ),
    Rule(
        "gps_dms",
        "location",
        _c(
            r"(?<![\w])\d{1,2}°[ ]?\d{1,2}[′'][ ]?(?:\d{1,2}(?:\.\d+)?[″\"][ ]?)?[NS],?[ ]?"
            r"\d{1,3}°[ ]?\d{1,2}[′'][ ]?(?:\d{1,2}(?:\.\d+)?[″\"][ ]?)?[EW](?![\w])"
        ),
        HIGH,
        "degrees-minutes-seconds coordinates (40°26′46″N 79°58′56″W)",
        requires=("°",),
    ),
    Rule(
        "gps_dms_hemisphere_first",
        "location",
        _c(
            r"(?<![\w])[NS][ ]?\d{1,2}°[ ]?\d{1,2}(?:\.\d+)?[′']"
            r"(?:[ ]?\d{1,2}(?:\.\d+)?[″\"])?,?[ ]?"
            r"[EW][ ]?\d{1,3}°[ ]?\d{1,2}(?:\.\d+)?[′'](?:[ ]?\d{1,2}(?:\.\d+)?[″\"])?"
        ),
        HIGH,
        "coordinates with the hemisphere first, as GPS devices write them (N 51° 30.444' "
        "W 0° 7.668')",
        requires=("°",),
    ),
    Rule(
        "gps_labelled",
        "location",
        _c(
            r"(?i:\blat(?:itude)?)\.?[ \t]*[:=]?[ \t]*"
            r"(-?\d{1,2}\.\d{2,8}°?[ ]?[NS]?[,;/]?[ \t]*(?i:lon(?:g(?:itude)?)?|lng)\.?"
            r"[ \t]*[:=]?[ \t]*"
            r"-?\d{1,3}\.\d{2,8}°?(?:[ ]?[EW])?)(?![\w]|\.\d)"
        ),
        HIGH,
        "latitude and longitude written with their labels (lat 51.5074 lon -0.1278)",
        group=1,
        validate=_coordinates_valid,
        anchors=("lat",),
    ),
    Rule(
        "military_address",
        "street address",
        _c(
            r"(?<![\w])(?:(?:PSC|CMR|Unit)[ ]\d{3,5},?[ ]Box[ ]\d{1,5}"
            r"|(?:USS|USNS|USNV|USCGC)[ ][A-Z][\w'-]{1,20}(?:[ ][A-Z][\w'-]{1,20})?"
            r"|(?:APO|FPO|DPO)[ ]A[AEP](?:[ ]\d{5}(?:-\d{4})?)?)(?![\w])"
        ),
        HIGH,
        "US military address parts: PSC/CMR/Unit ... Box, ship, APO/FPO/DPO AA/AE/AP + ZIP",
        anchors=("psc", "cmr", "unit", "uss", "usn", "uscg", "apo", "fpo", "dpo"),
    ),
    Rule(
        "street_number_first_continental",
        "street address",
        _c(
            r"(?<![\w.,:-])\d{1,4}[a-zA-Z]?,?[ ]"
            r"(?:[\w'’-]{1,40}(?:straße|strasse|str\.|weg|gasse|platz|allee|ring|damm|ufer|straat"
            r"|laan|gracht|plein|kade|dijk|vej|gade|gatan|vägen|veien|gata|katu|tie)"
            r"|(?i:rue|avenue|av\.|boulevard|bd|chemin|allée|impasse|place|quai|cours|route|via"
            r"|viale|piazza|corso|calle|avenida|rua|travessa|ulica|ul\.)[ ](?:(?:de|du|des|la|le"
            r"|les|d'|l'|del|della|di|da|do|dos)[ ]?)*"
            + rf"[{U}][\w'’-]{{1,30}}(?:[ ](?:(?:de|du|des"
            rf"|la|le|d'|l'|del|di|da)[ ]?)*[{U}][\w'’-]{{1,30}}){{0,3}})"
            r"(?=[ ,.;\n]|$)"
        ),
        MEDIUM,
        "house number written before a European street name (12 rue de la Paix, 5 Kerkstraat)",
        refine=refine_street_tail,
    ),
    Rule(
        "street_line_typed_start",
        "street address",
        _c(
            r"^[ \t]*((?:Via|Viale|Piazza|Corso|Rue|Avenue|Boulevard|Chemin|Allée|Impasse|Calle"
            r"|Avenida|Rua|Travessa|Ulica|Strada|Carrer|Paseo|Plaza)[ ][^\n,]{2,50}?)"
            r"[ \t]*(?:,|$)",
            re.MULTILINE,
        ),
        LOW,
        "address line that starts with a street type word (Via Roma 12, Rue des Lilas)",
        group=1,
    ),
    Rule(
        "age_phrase",
        "age",
        _c(
            r"(?i:\b(?:just[ ]turned|turned|turning|turns|at[ ]the[ ]age[ ]of|age[ ]of|aged"
            r"|(?:is|(?<=\bi[ ])am|was|he's|she's|hes|shes|i'm|they're|we're|you're"
            r"|you[ ]are|he[ ]is|she[ ]is)"
            r"(?:[ ](?:now|only|almost|nearly))?"
            r"(?=[ ]\d{1,3}(?:[ ]?(?:years?|yrs|y\.?o\.?)\b|[ ]?[,.;!?]|[ ]and\b|[ ]now\b"
            r"|[ ]next\b))))"
            r"[ ](\d{1,3}(?:[ ]?(?:years?|yrs)(?:[ ]old)?\b)?)(?:st|nd|rd|th)?(?![\w.,]\d|[\w]"
            r"|[ ](?:%|percent|per|minutes|hours|days"
            r"|weeks|months|o'clock|am|pm|euros?|dollars?|pounds?)\b|" + _AGE_THRESHOLD + ")"
        ),
        MEDIUM,
        "age after 'just turned', 'at the age of', 'turning', 'is 29,'; not a threshold (aged "
        "18+, aged 40 and over)",
        group=1,
        validate=_age_valid,
        anchors=(
            "just",
            "turn",
            "at the age",
            "age of",
            "aged",
            "is ",
            "am ",
            "was ",
            "he's",
            "she's",
            "hes",
            "shes",
            "i'm",
            "they're",
            "we're",
            "you're",
            "you are",
            "he is",
            "she is",
        ),
    ),
    Rule(
        "age_phrase_words",
        "age",
        _c(
            rf"(?i:\b(?:just[ ]turned|turned|turning|turns|at[ ]the[ ]age[ ]of|age[ ]of|aged)[ ])"
            rf"({NUMBER_WORD})(?=[ ]?(?:[,.;!?)]|$|[ ](?:and|in|on|last|this|next|when|now"
            r"|today|yesterday|at|with|but|so)\b))",
            re.MULTILINE,
        ),
        MEDIUM,
        "an age written in words after 'aged', 'just turned', 'at the age of': aged three",
        group=1,
        validate=_age_valid,
        anchors=("just", "turn", "at the age", "age of", "aged"),
    ),
    Rule(
        "age_of_years",
        "age",
        _c(_first(r"\d", r"[\w.]") + r"\d{0,2}[ ]years[ ]of[ ]age\b"),
        MEDIUM,
        "'48 years of age'",
        validate=_age_valid,
        requires=("of age",),
    ),
    Rule(
        "nationality_or_religion",
        "nationality or group",
        _c(
            r"(?i:\b(?:nationality|citizenship|religion|faith|ethnicity|denomination)\b)"
            r"[ \t]*(?:[:=：-]|is|was)?[ \t]*((?:[A-Za-z][a-z'-]{2,20}|[^\W\d_A-Za-z][\w'’-]{2,20}"
            r"|[\u4e00-\u9fff]{2,6})(?:[ ][A-Z][a-z]{2,20})?)(?![\w'’-])"
        ),
        HIGH,
        "value after nationality / religion / ethnicity",
        group=1,
        validate=_not_a_common_word,
        anchors=("nationality", "citizenship", "religion", "faith", "ethnicity", "denomination"),
    ),
    Rule(
        "nationality_or_religion_intl",
        "nationality or group",
        _c(
            r"(?i:\b(?:staatsbürgerschaft|staatsangehörigkeit|nationalität|nationalitaet"
            r"|religionsbekenntnis|konfession|bekenntnis|nacionalidad|nationalité|nazionalità"
            r"|nacionalidade|nationaliteit|narodowość|obywatelstwo|wyznanie|uyruk|etnia|etnicidad"
            r"|ethnicité|religione|religión|religião|godsdienst|medborgarskap|kansalaisuus"
            r"|uskonto|státní[ ]občanství|volkszugehörigkeit|ιθαγένεια|υπηκοότητα|θρήσκευμα"
            r"|национальность|гражданство|вероисповедание|національність|громадянство"
            r"|állampolgárság|nemzetiség|vallás|národnost|státní[ ]příslušnost|naționalitate"
            r"|cetățenie|etnie|statsborgerskap|statsborgerskab|nationalitet|milliyet)\b)"
            r"[ \t]*[:=：][ \t]*"
            r"(?!(?i:ohne|sin|sans|senza|sem|geen|brak|kein|keine|none|ingen|ei|neuvedeno|nincs"
            r"|bez|yok|нет|немає|не[ ]указан\w*|неизвест\w*|невідом\w*)\b)"
            r"([^\W\d_][\w'’.-]{2,25}(?:[ ][^\W\d_][\w'’.-]{2,25})?)"
        ),
        HIGH,
        "value after nationality / religion keywords of other languages: Staatsbürgerschaft: "
        "österreichisch, Religionsbekenntnis: islamisch",
        group=1,
        validate=_not_a_common_word,
        anchors=(
            "staatsbürgerschaft",
            "staatsangehörigkeit",
            "nationalität",
            "nationalitaet",
            "religionsbekenntnis",
            "konfession",
            "bekenntnis",
            "nacionalid",
            "nationalité",
            "nazionalità",
            "nationaliteit",
            "narodowość",
            "obywatelstwo",
            "wyznanie",
            "uyruk",
            "etnia",
            "etnicidad",
            "ethnicité",
            "religione",
            "religión",
            "religião",
            "godsdienst",
            "medborgarskap",
            "kansalaisuus",
            "uskonto",
            "státní občanství",
            "volkszugehörigkeit",
            "ιθαγένεια",
            "υπηκοότητα",
            "θρήσκευμα",
            "национальность",
            "гражданство",
            "вероисповедание",
            "національність",
            "громадянство",
            "állampolgárság",
            "nemzetiség",
            "vallás",
            "národnost",
            "státní příslušnost",
            "naționalitate",
            "cetățenie",
            "etnie",
            "statsborgerskap",
            "statsborgerskab",
            "nationalitet",
            "milliyet",
        ),
    ),
    Rule(
        "religion_word",
        "nationality or group",
        _RELIGION_WORD,
        0.9,
        "a religion (Muslim, Anglican, Jehovah's Witness), not in an institution's name: a "
        "closed class, so the model reading part of it as a name does not outvote it",
        anchors=tuple(sorted(RELIGION_WORDS)),
    ),
    Rule(
        "nationality_of_person",
        "nationality or group",
        _NATIONALITY_OF_PERSON,
        0.8,
        "a nationality said of a person (is Ghanaian, as a Polish national, born Dutch) or in "
        "parentheses after a name or document: (Portuguese)",
        group=1,
        anchors=tuple(sorted(NATIONALITY_WORDS)),
    ),
    Rule(
        "nationality_word",
        "nationality or group",
        _NATIONALITY_WORD,
        0.55,
        "nationality or religion adjective from a list, any case (french, Muslim, sikh)",
        anchors=tuple(sorted(NATIONALITY_WORDS)),
    ),
    Rule(
        "nationality_before_person",
        "nationality or group",
        _NATIONALITY_BEFORE_PERSON,
        0.8,
        "a nationality before a word for a person, up to two words apart (a Polish lorry "
        "driver, Nigerian nurse); not before teacher or tutor (a French teacher teaches French)",
        group=1,
        anchors=tuple(sorted(NATIONALITY_WORDS)),
    ),
    Rule(
        "group_noun",
        "nationality or group",
        _GROUP_NOUN,
        0.75,
        "a noun for members of a nation, people or faith, any case (Nigerians, somalis, "
        "south africans, Muslims, a Kurd, two Brits): said of people, unlike the adjective "
        "(French windows, Thai food); Pole, Swede and Dane only capitalised",
        anchors=tuple(sorted({w.lower() for w in GROUP_NOUN_WORDS | CAPITALISED_GROUP_NOUNS})),
    ),
    Rule(
        "ethnicity_description",
        "nationality or group",
        _c(
            r"(?:(?i:\b(?:white|black|mixed[- ]race))|\bbrown)\b"
            rf"(?:[ ](?i:{NATIONALITY})(?=[ ,.;)]|$)|(?=[ ](?i:{_PERSON_NOUNS})s?\b))"
            r"|(?i:\bmixed(?:[- ]race\b|(?=[ ](?:heritage|ethnicity|descent|parentage)\b)))",
            re.MULTILINE,
        ),
        0.8,
        "a colour or mixed race said of people, as descriptions in police and medical text "
        'give it (white British, black male, mixed-race woman); not a bare "mixed" (mixed '
        'British and Irish crowd) nor a capitalised "Brown" (the Brown family)',
        anchors=("white", "black", "brown", "mixed"),
    ),
    Rule(
        "nationality_foreign",
        "nationality or group",
        _FOREIGN_GROUP_WORD,
        MEDIUM,
        "a nationality or religion in Spanish, Portuguese, Italian, French, German, Dutch or "
        "Polish, in a form that names a person or group (peruana, römisch-katholisch, "
        "musulmane), not before a capitalised name (Deutsche Bank) nor after a word for a "
        "cuisine, language or state (cocina mexicana, langue française)",
        refine=refine_foreign_group,
        anchors=tuple(sorted(FOREIGN_GROUP_WORDS)),
    ),
    # --- person names
    Rule(
        "person_ranked",
        "full person name",
        _c(rf"(?<![\w])(?:{_RANKS})\.?[ \t]+({TITLED_RUN}{NAME_END})"),
        0.8,
        "capitalised name after a police, court, church or military rank (PC Latham, Sheriff "
        "Dunlop, Fr. Jose, Agent Ilse)",
        group=1,
        refine=refine_ranked_name,
        anchors=(
            "agent",
            "brother",
            "capt",
            "cllr",
            "coach",
            "col",
            "constable",
            "councillor",
            "cpl",
            "dc",
            "dci",
            "detective",
            "di",
            "ds",
            "dsu",
            "fr",
            "insp",
            "inspector",
            "judge",
            "lt",
            "maj",
            "nurse",
            "officer",
            "pc",
            "pcso",
            "pte",
            "sergeant",
            "sgt",
            "sheriff",
            "sister",
        ),
    ),
    Rule(
        "person_titled",
        "full person name",
        _c(
            rf"(?<![\w])(?:(?:{_TITLES})\.?|(?:dr|prof|mr|mrs|ms)\.)[ \t]+"
            rf"({TITLED_RUN}{NAME_END}|{CASELESS_RUN})"
        ),
        0.85,
        "capitalised name after a title (Dr. Ana Müller, Mr O'Neil, dr. Amato)",
        group=1,
        refine=refine_titled_name,
        anchors=(
            "mr",
            "ms",
            "mx",
            "miss",
            "dr",
            "prof",
            "sir",
            "dame",
            "rev",
            "herr",
            "frau",
            "mme",
            "mlle",
            "sr",
            "dott",
            "sig",
            "pan",
        ),
    ),
    Rule(
        "person_role",
        "full person name",
        _c(
            rf"(?i:\b(?:{_MY_RELATIVE}|{_ROLE_WORDS}))[ \t]*,?[ \t]*"
            rf"(?:(?:is[ ])?(?:named|called)[ \t]+)?({TITLED_RUN}){NAME_END}"
        ),
        0.8,
        "capitalised name after a personal role (my wife Maria, patient Jose Alvarez, her "
        "daughter Jolly)",
        group=1,
        refine=refine_role_name,
        anchors=("my ", "our ", "her ", "his ", "their ", "your ", *_ROLE_ANCHORS),
    ),
    Rule(
        "person_role_lower",
        "full person name",
        _c(
            rf"(?i:\b{_MY_RELATIVE})[ \t]*,?[ \t]*(?:(?:is[ ])?(?:named|called)[ \t]+)?"
            r"(?!(?i:aged?|who|was|is|and|has|had|also|too|then|now)\b)"
            rf"({NAME_ANY}(?:[ \t]+{NAME_ANY})?)(?=[ \t]*(?:[,.!?;]|$|\n|(?i:and|said|says|is"
            rf"|was|who|will|has|had|told|asked|called|wants|just)\b))"
        ),
        MEDIUM,
        "any-case name after my <relative> when a clause boundary follows",
        group=1,
        refine=refine_context_name,
        anchors=("my ", "our ", "her ", "his ", "their ", "your "),
    ),
    Rule(
        "person_label",
        "full person name",
        _c(
            rf"(?i:\b(?:{_LABEL_WORDS})[ \t]*:[ \t]*)({NAME_ANY}(?:[ \t]+{NAME_ANY}){{0,3}}"
            rf"|{CASELESS_RUN})"
        ),
        0.8,
        "name after a form label (Patient:, Name:, Signed:, From:)",
        group=1,
        refine=refine_context_name,
        anchors=_LABEL_ANCHORS,
    ),
    Rule(
        "statement_counterparty",
        "organization",
        _STATEMENT_COUNTERPARTY,
        0.9,
        "the payee or payer of a bank statement line, in capitals after its transaction word "
        "(RECIBO DIGI SPAIN TELECOM, DIRECT DEBIT TO THAMES WATER, LASTSCHRIFT STADTWERKE ULM)",
        group=1,
        validate=_not_a_known_name,
        anchors=STATEMENT_WORDS,
    ),
    Rule(
        "statement_counterparty_person",
        "full person name",
        _STATEMENT_COUNTERPARTY,
        0.75,
        "a person paid or paying on a bank statement line (BIZUM A MARTA SOLER)",
        group=1,
        validate=_known_name_with_initials,
        anchors=STATEMENT_WORDS,
    ),
    Rule(
        "financial_institution",
        "organization",
        _FINANCIAL_INSTITUTION,
        0.8,
        "a bank or insurer from the hand-written list of large ones (AIB, Santam, Desjardins, "
        "PKO BP, Scottish Widows), written as it is named; not a sponsored arena or cup",
        anchors=tuple(sorted({name.lower() for name in FINANCIAL_INSTITUTIONS})),
    ),
    Rule(
        "bank_holding_account",
        "organization",
        _BANK_BEFORE_ACCOUNT,
        0.75,
        "a bank or insurer named right before the account or policy it holds, with its "
        "number close behind (my AIB account IE12 AIBK..., QBE policy MOT-44017823): the "
        "guideline's banks and insurers holding a person's accounts",
        group=1,
        validate=_holder_name,
        refine=refine_holder,
        trigger=Trigger(_ACCOUNT_WORD, 64, 48),
    ),
    Rule(
        "organization_support_desk",
        "organization",
        _c(
            r"(?<![\w.-])([A-Z][a-z][A-Za-z]{0,30}+(?:[ ][A-Z][a-z][A-Za-z]{0,30}+)?)[ ]"
            r"(?:Support|Customer[ ](?:Service|Care|Support)|Help[ ]?[Dd]esk|Service[ ]Desk)"
            r"(?![\w-])"
        ),
        MEDIUM,
        "the company whose support desk writes (Wattle Mobile Support, Backly Support; Contact "
        "Wattle Support): from its first word rare in English, no greeting or team word",
        group=1,
        refine=refine_support_company,
        requires=("support", "service", "care", "desk"),
    ),
    Rule(
        "organization_shop_malay",
        "organization",
        _c(rf"\b(?:toko|kedai|warung)[ ]({CAP_WORD}(?:[ ]{CAP_WORD}){{0,3}})(?![\w-])"),
        MEDIUM,
        "an Indonesian or Malay shop's name after the word for shop: dari toko Gadget Murah Jkt; "
        "not a place or a people alone (warung Padang, toko Cina)",
        group=1,
        refine=refine_shop_name,
        anchors=("toko ", "kedai ", "warung "),
    ),
    Rule(
        "organization_institution",
        "organization",
        _c(
            rf"{CAP_FIRST}{CAP_REST}(?:[ ](?:of[ ])?{CAP_WORD}){{0,4}}[ ]{INSTITUTION_SUFFIX}"
            r"(?![\w])"
        ),
        0.9,
        "capitalised name ending in Infirmary, Primary School, Academy, Surgery, Pharmacy, "
        "Medical Centre",
        refine=refine_institution,
        trigger=Trigger(_c(rf"[ ]{INSTITUTION_SUFFIX}(?![\w])"), 200, 2),
    ),
    Rule(
        "person_key_value",
        "full person name",
        _c(
            r"(?i:\b(?:holder|customer|client|patient|employee|user|account|card|beneficiary"
            r"|sender|recipient|payee|contact|full|first|last|display)_?name[ \t]*[=:][ \t]*)"
            rf"[\"']({NAME}(?:[ ]{NAME}){{0,3}})[\"']"
        ),
        0.85,
        'quoted name in a key=value log or JSON field (holder_name="Ana Costa")',
        group=1,
        anchors=(
            "holder",
            "customer",
            "client",
            "patient",
            "employee",
            "user",
            "account",
            "card",
            "beneficiary",
            "sender",
            "recipient",
            "payee",
            "contact",
            "full",
            "first",
            "last",
            "display",
        ),
    ),
    Rule(
        "person_before_nickname",
        "full person name",
        _c(
            r"(?<![\w'’.-])([A-Z][a-z][\w'’-]{0,19})(?=[ ]\((?:goes[ ]by|nicknamed|dit|dite"
            r"|genannt|detto|detta)\b)"
        ),
        MEDIUM,
        "a name before its nickname in brackets: Mere (goes by Mez), Luigi (detto Gigi); a "
        "name whatever the word means elsewhere (not before 'aka' or 'called', which name "
        "companies and defined terms too)",
        group=1,
    ),
    Rule(
        "person_nickname_in_brackets",
        "full person name",
        _c(
            rf"\((?:{NICKNAME_CUE}[\"“'‘]?[A-Z][a-z][\w'’-]{{0,19}}"
            r"|[A-Z][a-z][\w'’-]{0,19}(?=[ ]to[ ](?:all[ ]of[ ]us|everyone"
            r"|(?:his|her|their|the)[ ](?:friends|family)|friends|family|us)\b))"
        ),
        MEDIUM,
        "a nickname in brackets: (goes by Mez), (nicknamed Bobby), (Tee to all of us at home)",
        refine=_nickname_span,
    ),
    Rule(
        "person_alias",
        "full person name",
        _c(
            r"(?i:\b(?:dit|dite|alias|aka|a\.k\.a\.?|known[ ]as|apodado|apodada|detto|detta"
            r"|genannt|vulgo|also[ ]called))[ ]+[«\"“'‘][ \u00a0]?"
            r"([A-Z][\w'’-]{1,20}(?:[ ][A-Z][\w'’-]{1,20})?)[ \u00a0]?[»\"”'’]"
        ),
        MEDIUM,
        "a nickname in quotes after dit / alias / aka / known as: Enzo Ricard dit « Ziko »",
        group=1,
        anchors=(
            "dit",
            "alias",
            "aka",
            "a.k.a",
            "known as",
            "apodad",
            "dett",
            "genannt",
            "vulgo",
            "also called",
        ),
    ),
    Rule(
        "person_before_ji",
        "full person name",
        _c(r"(?<![\w'’-])([A-Z][a-z]{2,15})(?=[ ]ji\b)"),
        MEDIUM,
        "a name before the Hindi honorific 'ji': Anil ji, Sharma ji",
        group=1,
        validate=_name_not_word,
        trigger=Trigger(_c(r"[a-z][ ]ji\b"), 17, 0),
    ),
    Rule(
        "person_possessive_kin",
        "full person name",
        _c(
            r"(?<![\w'’.-])([A-Z][a-z]{2,15})['’]s[ ](?:little[ ]|big[ ]|older[ ]|younger[ ]"
            r"|baby[ ]|new[ ]|late[ ]|ex[ -])?(?:brother|sister|mum|mom|mother|dad|father|wife"
            r"|husband|son|daughter|kids|children|family|boyfriend|girlfriend|partner|fianc[ée]e?"
            r"|parents|grandma|gran|nan|grandmother|grandpa|grandfather|aunt|auntie|uncle|cousin"
            r"|nephew|niece|in-laws|whole[ ]base|room|house|place|phone|number|birthday)\b"
        ),
        MEDIUM,
        "a name before 's and a relative or a personal thing: Rami's brother, Maddie's phone",
        group=1,
        validate=_name_not_word,
        trigger=Trigger(_c(r"[a-z]['’]s[ ]"), 17, 30),
    ),
    Rule(
        "location_in_court_name",
        "location",
        _c(
            r"(?:Amtsgericht|Landgericht|Oberlandesgericht|Arbeitsgericht|Sozialgericht"
            r"|Verwaltungsgericht|Finanzgericht|Familiengericht|Rechtbank|Gerechtshof"
            r"|Tribunale[ ]di|Corte[ ]d['’]appello[ ]di|Tribunal[ ]de|Juzgado[ ]de[ ]\w+[ ]de"
            r"|Sąd[ ]Rejonowy[ ](?:w|we|dla)|Sąd[ ]Okręgowy[ ](?:w|we))[ ]"
            r"([A-ZÀ-Þ][\w'’-]+(?:[ ](?:(?:am|an|der|im|in)[ ])?[A-ZÀ-Þ][\w'’-]+)*)"
        ),
        MEDIUM,
        "the place in a local court's name: Amtsgericht Tiergarten, Tribunale di Bologna",
        group=1,
        anchors=(
            "amtsgericht",
            "landgericht",
            "oberlandesgericht",
            "arbeitsgericht",
            "sozialgericht",
            "verwaltungsgericht",
            "finanzgericht",
            "familiengericht",
            "rechtbank",
            "gerechtshof",
            "tribunale",
            "corte",
            "tribunal",
            "juzgado",
            "sąd",
        ),
    ),
    Rule(
        "person_speaker",
        "full person name",
        _c(
            rf"^[ \t]*(?:\[\d{{1,2}}:\d{{2}}(?::\d{{2}})?\][ \t]*"
            rf"|\d{{1,2}}:\d{{2}}(?::\d{{2}})?[ \t]+|<"
            rf"|{CHAT_EXPORT_STAMP})?"
            rf"({NAME_ANY}(?:[ \t]+{NAME_ANY})?(?:[ \t]+[{U}]\.)?|[{CASELESS}]{{1,8}})>?"
            r"[ \t]*:[ \t]",
            re.MULTILINE,
        ),
        MEDIUM,
        "speaker at the start of a chat or transcript line ([10:42] maria: ..., Tom B.: ..., a "
        "WhatsApp export's 13/05/2024, 08:30 - kev: ...), not a form field (Desk:, ZIP:, MAC:)",
        group=1,
        refine=refine_speaker,
        requires=(":",),
    ),
    Rule(
        "person_thai_khun",
        "full person name",
        _c(
            "(?<![\u0e00-\u0e7f])คุณ(?!แม่|พ่อ|หมอ|ครู|ลูกค้า|ป้า|ลุง|ยาย|ตา|น้า|อา|ผู้)"
            "(?![\u0e00-\u0e7f]*(?:ไหม|มั้ย|อะไร|ยังไง|ไหน|ได้|อยู่|ต้อง|ช่วย|รู้|คิด|จะ|เป็น|มี))"
            "([\u0e01-\u0e2e][\u0e00-\u0e7f]{1,7})(?=[ \t\n,.!?)]|$)"
        ),
        MEDIUM,
        "a Thai name after the title คุณ (Khun), up to the space that ends it: คุณนิด ไม่อยู่",
        group=1,
        anchors=("คุณ",),
    ),
    Rule(
        "person_greeting",
        "full person name",
        _c(
            rf"(?i:\b(?:dear|hi|hello|hey|hiya|howdy|thanks|thank[ ]you|congrats"
            rf"|congratulations)\b)[ \t]*[,!.:—-]?[ \t]*({CONTEXT_NAME})"
        ),
        MEDIUM,
        "name after a greeting (Dear Maria, hi tom, thanks Kim)",
        group=1,
        refine=refine_context_name,
        anchors=("dear", "hi", "hello", "hey", "howdy", "thank", "congrat"),
    ),
    Rule(
        "person_greeting_intl",
        "full person name",
        _c(
            rf"(?i:\b(?:{GREETING_INTL}))[ \t]*,?[ \t]+({NAME}(?:[ \t]+{NAME})?)"
            r"(?=[ \t]*(?:[,!:]|\.(?!\w)|\r?\n))"
        ),
        MEDIUM,
        "a capitalised name after a greeting of another language and before its comma (Hallo "
        "Vroni, Hola Matías, Kedves Gábor!): each word a known name and no common word of the "
        "text's language (not Hallo Zusammen, Hola Equipo, Tisztelt Uram)",
        group=1,
        refine=refine_greeted_name,
        trigger=Trigger(_c(rf"(?i:\b(?:{GREETING_INTL}))"), 0, 70),
    ),
    Rule(
        "person_signoff",
        "full person name",
        _c(
            rf"(?i:\b(?:regards|best|best[ ]wishes|cheers|thanks|thank[ ]you|sincerely"
            rf"|yours(?:[ ](?:truly|sincerely|faithfully))?|cordially|warmly|love|xoxo"
            rf"|respectfully|signed|bye|ciao|talk[ ]soon)\b)[ \t]*(?:[,!.:—-][ \t]*"
            rf"(?:\r?\n[ \t]*)?|\r?\n[ \t]*)({CONTEXT_NAME})"
        ),
        MEDIUM,
        "name after a sign-off and its comma or line break (Regards,\\nKim Lee)",
        group=1,
        refine=refine_context_name,
        anchors=(
            "regards",
            "best",
            "cheers",
            "thank",
            "sincerely",
            "yours",
            "cordially",
            "warmly",
            "love",
            "xoxo",
            "respectfully",
            "signed",
            "bye",
            "ciao",
            "talk",
        ),
    ),
    Rule(
        "person_signoff_intl",
        "full person name",
        _c(
            rf"(?i:\b(?:{SIGNOFF_INTL}))[ \t]*[,!.]?[ \t]*\r?\n[ \t]*({CONTEXT_NAME})"
            r"(?=[ \t]*(?:\r?\n|$))"
        ),
        MEDIUM,
        "name alone on the line after a sign-off of another language (Cordialement,\\nAnaïs "
        "Roux; nga mihi\\nmele; Pozdrawiam\\nKasia)",
        group=1,
        refine=refine_uncommon_name,
        trigger=Trigger(_c(rf"(?i:\b(?:{SIGNOFF_INTL}))"), 0, 160),
    ),
    Rule(
        "person_signature_line",
        "full person name",
        _c(
            rf"\n[ \t]*\n[ \t]*({NAME}(?:[ ]{NAME}){{0,2}})[ \t]*\n[ \t]*"
            r"(?i:(?:m|t|tel|mob|mobile|phone|cell|ph|whatsapp)\.?:?[ \t]*)?"
            r"(?:\+?\d[\d \-().]{6,18}\d|[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{2,63})[ \t]*(?=\n|\Z)"
        ),
        MEDIUM,
        "a name alone on its line after a blank line, above a phone number or an e-mail "
        "address: a signature (\\n\\nKring\\n0917 842 3316)",
        group=1,
        refine=refine_signature_name,
    ),
    Rule(
        "person_before_phone",
        "full person name",
        _c(
            r"(?i:\b(?:text|call|ring|phone|message|whatsapp|contact|or|and))[ ]+"
            rf"(?:{_CALLEE_ROLE}[ ]+)?"
            rf"(?!{_AFTER_CALLEE}\b)({NAME_ANY}(?:[ ](?!{_AFTER_CALLEE}\b){NAME_ANY})?)"
            rf"(?:[ ]+{_AFTER_CALLEE})?"
            r"[ ]+(?i:on|at)[ ]+"
            r"(?=\+?\(?\d[\d ()-]{6,20}\d)"
        ),
        MEDIUM,
        "a name between a word for calling and 'on' a phone number (text ngaire on 027 315 "
        "9920, call Sipho at 082 ..., contact our property manager Rajesh at 647 ...), not a "
        "common word (call later on 0800 ..., ring back on 0113 ...)",
        group=1,
        refine=refine_called_person,
    ),
    Rule(
        "person_romanised_given",
        "full person name",
        _c(r"(?<![\w'’.@/-])([A-Z][a-z]{1,5}-[A-Za-z][a-z]{0,5})(?![\w'’@-]|\.\w)"),
        MEDIUM,
        "a Korean or Taiwanese given name romanised with a hyphen (Jae-hyun, Seo-yeon, "
        "Chia-hao): two name syllables, not two English words (So-so, Ha-ha)",
        group=1,
        validate=romanised_given_name,
        requires=("-",),
    ),
    Rule(
        "person_before_sort_code",
        "full person name",
        _c(
            rf"(?<![\w'’.-])((?:{INITIAL}|{NAME})[ ]{NAME}),?[ ]+"
            r"(?=\d{2}-\d{2}-\d{2},?[ ]+\d{7,8}(?!\d))"
        ),
        MEDIUM,
        "the account holder before a UK sort code and account number (C Reeve, 20-45-77, 63048812)",
        group=1,
        refine=refine_context_name,
    ),
    Rule(
        "person_intro",
        "full person name",
        _c(
            rf"(?i:\b(?:my[ ]name[ ]is|my[ ]name's|name's|i[ ]am[ ]called|call[ ]me|you[ ]can"
            rf"[ ]call[ ]me|ask[ ]for|goes[ ]by|i[ ]go[ ]by)\b)[ \t]+({CONTEXT_NAME})"
        ),
        0.8,
        "name after 'my name is' / 'call me'",
        group=1,
        refine=refine_context_name,
        anchors=("my name", "name's", "i am", "call me", "you can", "ask for", "goes by", "i go"),
    ),
    Rule(
        "person_intro_capitalised",
        "full person name",
        _c(
            rf"(?i:\b(?:{_INTRO_WORDS})\b)[ \t]+({NAME}(?:[ \t]+(?:{PARTICLE}[ \t]+){{0,2}}"
            rf"{NAME}){{0,2}}){NAME_END}"
        ),
        LOW,
        "capitalised name after 'this is', 'spoke with', 'cc', ...",
        group=1,
        refine=refine_titled_name,
        anchors=_INTRO_ANCHORS,
    ),
    Rule(
        "person_name",
        "full person name",
        _c(_first(f"[{U}]", r"[\w'’.@-]") + NAME_REST_RUN + NAME_END),
        0.6,
        "two or more capitalised name words (diacritics included), minus common words, "
        "months and places",
        refine=refine_name_run,
    ),
    Rule(
        "person_name_caseless_script",
        "full person name",
        _c(_first(f"[{CASELESS}]", f"[{CASELESS}]") + CASELESS_RUN_REST + f"(?![{CASELESS}])"),
        LOW,
        "short run in a caseless script (CJK, Hangul, Devanagari, Arabic, Hebrew, Thai) "
        "inside Latin text: names such as 王伟, 김민준, सुमती",
        refine=refine_caseless_run,
    ),
    # --- round 19 (session 13): written from the misses of dev-hand-open and dev-hand-open2
    Rule(
        "date_month_day_range",
        "date",
        _c(
            rf"(?<![\w/.-]){CAP_MONTH}\.?[ ]+{_DAY}(?:st|nd|rd|th)?[ ]?[-–][ ]?{_DAY}"
            r"(?:st|nd|rd|th)?(?:,?[ ]+(?:19|20)\d\d)?(?![\w/.,:-]?\d|[\w%])"
        ),
        MEDIUM,
        "a month and a range of days: October 22-23, March 3–5, Sept 9-11, 2024",
        anchors=_MONTH_ANCHORS,
    ),
    Rule(
        "date_dotted_spaced",
        "date",
        _c(
            r"(?<![\w.,/-])(?:3[01]|[12]\d|0?[1-9])\.[ ](?:1[0-2]|0?[1-9])\.[ ](?:19|20)\d\d"
            r"(?![\w.,/-]?\d)"
        ),
        MEDIUM,
        "a day, month and year with a space after each dot, as in Czech, Slovak and German "
        "text: 17. 8. 1964",
        trigger=Trigger(_c(r"\d\.[ ]\d{1,2}\.[ ](?:19|20)\d\d"), 3, 0),
    ),
    Rule(
        "date_of_birth_intl_key",
        "date of birth",
        _c(
            r"(?i:\b(?:nar\.|narozen[aáý]?|narodil[a]?[ ]se|ur\.|urodzon[aey]|geb\."
            r"|geboren(?:[ ]am)?|né(?:e)?[ ]le|nacid[oa][ ]el|nato[ ]il|nata[ ]il|nascid[oa][ ]em)"
            r"[ \t]*)((?:3[01]|[12]\d|0?[1-9])\.[ ]?(?:1[0-2]|0?[1-9])\.[ ]?(?:19|20)\d\d)"
            r"(?![\w.,/-]?\d)"
        ),
        HIGH,
        "a dotted date after 'born' in other languages: nar. 17. 8. 1964, ur. 3.02.1990, "
        "geb. 12.4.1957",
        group=1,
        anchors=(
            "nar.",
            "narozen",
            "narodil",
            "ur.",
            "urodzon",
            "geb.",
            "geboren",
            "né",
            "nacid",
            "nato",
            "nata",
            "nascid",
        ),
    ),
    Rule(
        "age_year_old_suffix",
        "age",
        _c(
            r"(?<![\w.,-])(\d{1,3}[ ]?-?[ ]?(?:åring(?:en|ar|arna)?|vuotia(?:s|an|ana|aan|alle"
            r"|aksi|ita|iden|at)|Jährige[nmr]?|jährig(?![\w-])|(?:jährige[nmrs]?|jarige|årige?)"
            r"(?=[ ](?i:frau|mann|patient(?:in)?|junge|mädchen|sohn|tochter|fahrer(?:in)?"
            r"|rentner(?:in)?|kind|schüler(?:in)?|mutter|vater|senior(?:in)?|täter(?:in)?|opfer"
            r"|angeklagte[rn]?|beschuldigte[rn]?|bruder|schwester|enkel(?:in)?|verstorbene[rn]?"
            r"|man|vrouw|jongen|meisje|patiënt|patiente|zoon|dochter|mand|kvinde|pige|dreng"
            r"|søn|datter|kvinna|flicka|pojke)\b)))(?![\w-])"
        ),
        MEDIUM,
        "an age written as one word with its suffix: 45-åring, 32-vuotias, die 60-Jährige, "
        "wird 60-jährig, der 45-jährige Fahrer, de 45-jarige man (not 'die 3-jährige "
        "Ausbildung', a duration)",
        group=1,
        validate=_age_valid,
        trigger=Trigger(_c(r"(?i)\d[ ]?-?[ ]?(?:åring|vuotia|jährig|jarige|årig)"), 5, 60),
    ),
    Rule(
        "person_after_kin_intl",
        "full person name",
        _c(
            rf"(?<![\w'’-])(?i:{'|'.join(map(re.escape, _KIN_WORDS))})"
            rf"[ ]([{U}][{L}]{{2,15}})(?![\w'’-]|[ ][{U}][{L}])"
        ),
        MEDIUM,
        "a first name after a relative or a role in several languages: Tytär Sanna, "
        "Kæresten Rasmus, Kierownik Zbyszek, mi hija Lucía, your broker Amr",
        group=1,
        validate=lambda value: (
            _name_not_word(value) and (is_known_name(value) or not word_in_any_language(value))
        ),
        anchors=_KIN_WORDS,
    ),
    Rule(
        "handle_by_in_log",
        "handle",
        _c(
            rf"(?i:\b(?:{'|'.join(_LOG_ACTIONS)})[ ]by[ ])"
            r"([a-z][a-z0-9]{2,20}(?:[._-][a-z0-9]{1,20})?)(?=[ \t]*(?:\(|,|;|$)|[ ](?:on|at"
            r"|from|via|in|for|with)\b)"
        ),
        MEDIUM,
        "a login after an action in a log: triggered by jmehta (jaya.mehta@...), approved by "
        "kwalsh on 2024-05-02 (not a common word such as admin or system)",
        group=1,
        validate=lambda value: zipf(value) < RARE_WORD_ZIPF and value not in NOT_A_NAME,
        anchors=_LOG_ACTIONS,
    ),
    Rule(
        "nationality_or_religion_intl_second",
        "nationality or group",
        _c(
            rf"(?i:\b(?:{'|'.join(_SECOND_VALUE_KEYS)})(?:[ ]\([^)\n]{{1,30}}\))?[ \t]*[:=][ \t]*)"
            r"[^\W\d_][\w'’.-]{2,25}[ ]?(?:/|\(|,|[ ]und|[ ]and|[ ]y|[ ]et|[ ]e|[ ]–|[ ]-)[ ]?"
            r"([^\W\d_][^\W\d_'’-]{2,25}(?:[ ][A-ZĀ-Ž][^\W\d_'’-]{2,25})?)(?![\w.-])"
        ),
        HIGH,
        "the second value after a nationality or religion key: Staatsbürgerschaft: "
        "österreichisch / türkisch, Religionsbekenntnis: islamisch (alevitisch), Ethnicity: "
        "Māori – Ngāti Porou",
        group=1,
        validate=_not_a_function_word,
        anchors=_SECOND_VALUE_KEYS,
    ),
    Rule(
        "internal_id_in_brackets_after_name",
        "internal id",
        _c(r"[^\W\d_][ ]\(([A-Z]{1,4}-?\d{3,8})\)"),
        MEDIUM,
        "a staff or agent code in brackets after a name: Nurul Syafiqah (AG0419), "
        "Tom Reyes (EMP-20417); not after a common word (Windows (KB5034441))",
        group=1,
        refine=partial(refine_after_a_name, acronyms=False),
        trigger=Trigger(_c(r"\([A-Z]{1,4}-?\d{3,8}\)"), 2, 0),
    ),
    Rule(
        "gps_key_value",
        "location",
        _c(
            r"(?<![\w])(?i:lat|latitude|lon|lng|long|longitude)[\"']?[ \t]*[:=][ \t]*"
            r"(-?\d{1,3}\.\d{3,8})(?![\w]|\.\d)"
        ),
        HIGH,
        'one coordinate after its key in data: "lat": 59.8641, longitude: -96.6398',
        group=1,
        validate=lambda value: abs(float(value)) <= 180,
        trigger=Trigger(_c(r"[:=][ \t]*-?\d{1,3}\.\d{3}"), 16, 10),
    ),
    Rule(
        "date_taiwan_minguo",
        "date",
        _c(r"(?<![\w/.-])1[01]\d/(?:0[1-9]|1[0-2])/(?:0[1-9]|[12]\d|3[01])(?![\w/]|\.\d)"),
        MEDIUM,
        "a Taiwanese date in Minguo years (2024 is 113): 113/05/10",
        requires=("/",),
    ),
    Rule(
        "location_polish_locative",
        "location",
        _c(
            r"(?<![\w])(?:w|we|z|ze|do|koło|pod|przy|nad|spod|sprzed)[ ]"
            r"([A-ZĄĆĘŁŃÓŚŹŻ][a-ząćęłńóśźż]{2,20}[auy])(?![\w-])"
        ),
        MEDIUM,
        "a city named in a Polish case after a preposition, when dropping its last vowel gives "
        "a city of the list: w Gdańsku, z Krakowa",
        group=1,
        validate=lambda value: _polish_stem(value) in city_names(),
        requires=("ą", "ę", "ł", "ś", "ż", "ź", "ń", "ć"),  # Polish text only
    ),
    Rule(
        "access_code_intl",
        "secret",
        _c(
            r"(?i:\b(?:(?:ovi|portti|avainlaatikon[ ])?koodi|portkod|dörrkod|portkode|dørkode"
            r"|haustürcode|türcode|zugangscode|torcode|deurcode|toegangscode|kod[ ]do[ ](?:domofonu"
            r"|drzwi|bramy|klatki)|kód[ ]od[ ](?:dveří|domu|brány|vchodu)|código[ ]de[ ](?:acceso"
            r"|la[ ]puerta|entrada|portal)|codice[ ](?:d['’]accesso|del[ ]portone|della[ ]porta"
            r"|del[ ]cancello))(?:[ ][^\W\d_]{2,12})?[ \t]*[:=][ \t]*)([0-9]{3,8}[A-Z#*]?)(?![\w-])"
        ),
        MEDIUM,
        "a door or key-box code after its keyword in other languages: koodi vaihtui: 4719, "
        "Türcode: 2580, kod do domofonu: 31K",
        group=1,
        anchors=(
            "ovikoodi",
            "porttikoodi",
            "avainlaatikon",
            "koodi",
            "portkod",
            "dörrkod",
            "portkode",
            "dørkode",
            "haustürcode",
            "türcode",
            "zugangscode",
            "torcode",
            "deurcode",
            "toegangscode",
            "kod do",
            "kód od",
            "código de",
            "codice d",
        ),
    ),
)


# Rules for text in Chinese, Japanese and Korean script. They run only in the lines that hold
# such characters (`cjk_line_windows`) and one of the rule's `requires` literals: the
# prefilter reads every non-ASCII character as '?', so it cannot tell where these patterns may
# match, and a scan of every line cost a tenth of the rules' time on mostly Latin text.
CJK_RULES: tuple[Rule, ...] = (
    Rule(
        "date_cjk",
        "date",
        _DATE_CJK,
        MEDIUM,
        "day written with CJK or Hangul units: 2024年3月5日, 3月5号, 2024년 3월 5일",
        requires=("月", "월"),
        validate=_cjk_day_valid,
    ),
    Rule(
        "person_cjk_honorific",
        "full person name",
        _c(
            r"(?<![\u4e00-\u9fff])(?!(?:" + CJK_ROLE_WORDS + r")[ ]?(?:さん|くん|ちゃん|氏|씨))"
            r"([\u4e00-\u9fff]{2,3}|[\u30a1-\u30fa\u30fc]{2,8}|(?<![가-힣])[가-힣]{2,3})"
            r"(?=さん|くん|ちゃん|氏|[ ]?씨(?!앗))"
        ),
        MEDIUM,
        "a Japanese or Korean name before its honorific: 高橋さん, タナカさん, 박민호 씨 (not a "
        "role word such as 患者 or 고객)",
        group=1,
        requires=(
            "さん",
            "くん",
            "ちゃん",
            "氏",
            "씨",
        ),
    ),
    Rule(
        "person_cjk_job_title",
        "full person name",
        _c(
            r"(?:(?<![\u4e00-\u9fff])[\u4e00-\u9fff]{2,8}|(?<![가-힣])[가-힣]{2,4})"
            r"(?=[ ]?(?:様|さま|殿|課長|部長|社長|係長|店長|主任|先輩|専務|常務|院長|教授"
            r"|(?:과장|부장|사장|팀장|대리|실장|원장)님?|선생님|님))"
        ),
        MEDIUM,
        "a Japanese or Korean name before a title or job title: 山田様, 佐藤課長, 김민수 과장님 "
        "(a known name or surname and given name, not a word such as 고객 before 님)",
        refine=refine_cjk_titled_name,
        requires=(
            "様",
            "さま",
            "殿",
            "課長",
            "部長",
            "社長",
            "係長",
            "店長",
            "主任",
            "先輩",
            "専務",
            "常務",
            "院長",
            "教授",
            "님",
            "과장",
            "부장",
            "사장",
            "팀장",
            "대리",
            "실장",
            "원장",
        ),
    ),
    Rule(
        "person_kakaotalk_speaker",
        "full person name",
        _c(
            r"^[가-힣]{2,4}(?:[ ][가-힣]{1,4})?(?=[ ](?:오전|오후)[ ]\d{1,2}:\d{2}[ \t]*$)"
            r"|(?<=^\[)[가-힣]{2,4}(?:[ ][가-힣]{1,4})?(?=\][ ]\[(?:오전|오후)[ ]\d{1,2}:\d{2}\])",
            re.MULTILINE,
        ),
        MEDIUM,
        "the speaker of a KakaoTalk chat export, on the line before the message (한도윤 오후 "
        "9:20) or in brackets before the time ([한도윤] [오후 9:20]); a role word after the name "
        "(어머님, 'mother') stays outside it",
        refine=refine_korean_speaker,
        requires=("오전", "오후"),
    ),
    Rule(
        "person_chinese_courtesy_title",
        "full person name",
        _c(
            r"(?<![\u4e00-\u9fff])(?!老|小|各|這|这|那|此|該|该)([\u4e00-\u9fff]{1,3})(?=先生|小姐|太太|女士)"
        ),
        MEDIUM,
        "a Chinese surname or name before 先生 / 小姐 / 太太 / 女士 (黃先生, 陳小姐)",
        group=1,
        requires=(
            "先生",
            "小姐",
            "太太",
            "女士",
        ),
    ),
    Rule(
        "person_cjk_label",
        "full person name",
        _c(
            r"(?:氏名|お名前|名前|名義|担当者?|受取人|予約者|患者名|姓名|聯絡人|联系人|負責人|负责人"
            r"|藥師|药师|醫師|医师|護理師|经理|經理|고객명|성명|이름|담당자"
            r"|담당[ ]기사|수령인|예약자|환자명|받는[ ]분|보내는[ ]분)"
            r"(?:[ \t]*[:：][ \t　]*|[ \t　]+)"
            r"([\u4e00-\u9fff]{1,3}[ 　]?[\u4e00-\u9fff\u3040-\u309f]{1,4}"
            r"|[\u30a1-\u30fa\u30fc]{2,8}(?:[ 　][\u30a1-\u30fa\u30fc]{2,8})?|[가-힣]{2,4})"
            r"(?![\u4e00-\u9fff가-힣])"
        ),
        MEDIUM,
        "a name after a Japanese or Korean name label: 名義 タカハシ ケイコ, 고객명: 박민호",
        group=1,
        requires=(
            "名",
            "担当",
            "受取人",
            "予約者",
            "聯絡人",
            "联系人",
            "負責人",
            "负责人",
            "師",
            "师",
            "經理",
            "经理",
            "명",
            "이름",
            "담당",
            "수령인",
            "예약자",
            "분",
        ),
    ),
    Rule(
        "street_address_chinese",
        "street address",
        _c(
            r"(?:(?<![\u4e00-\u9fff])|(?<=[区區市縣县鄉乡鎮镇]))"
            r"(?:(?![区區市縣县鄉乡鎮镇])[\u4e00-\u9fff]){1,6}(?:路|街|大道)(?:[一二三四五六七八九十]段)?"
            r"(?:\d{1,4}巷)?(?:\d{1,4}弄)?\d{1,5}(?:-\d{1,4})?[號号](?:之\d{1,3})?"
            r"(?:\d{1,3}[樓楼层F](?:之\d{1,3})?)?"
        ),
        MEDIUM,
        "a Chinese or Taiwanese road, lane and house number, with the floor: 和平東路二段96巷7號, "
        "华强北路1019号, 信義路四段88號1樓",
        requires=("號", "号"),
    ),
    Rule(
        "location_cjk_address",
        "location",
        _c(
            r"(?<![\u4e00-\u9fff])(?:[\u4e00-\u9fff]{2,3}[都道府県縣])?[\u4e00-\u9fff]{1,4}市"
            r"(?:[\u4e00-\u9fff]{1,3}[区區])?(?=[\u4e00-\u9fff]{0,6}\d|教育|役所|在住|出身|内の|立)"
            r"|(?<![가-힣])(?:서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충북|충남|전북"
            r"|전남|경북|경남|제주)(?:특별시|광역시|특별자치시|특별자치도|도)?"
            r"(?:[ ][가-힣]{1,4}[구군시])?"
            r"(?=[ ][가-힣0-9]{1,10}(?:로|길)[ ]?\d)"
        ),
        MEDIUM,
        "a Japanese, Chinese or Taiwanese city and ward before the block number (横浜市港北区"
        "日吉2-14-8, 臺北市大安區信義路四段88號) or a Korean city and district before a road "
        "address (부산 부산진구 중앙대로 691)",
        requires=(
            "市",
            "서울",
            "부산",
            "대구",
            "인천",
            "광주",
            "대전",
            "울산",
            "세종",
            "경기",
            "강원",
            "충",
            "전",
            "경",
            "제주",
        ),
    ),
    Rule(
        "street_korean_road",
        "street address",
        _c(r"(?<![가-힣0-9])[가-힣0-9]{1,10}(?:대로|로|길)[ ]?\d{1,4}(?:-\d{1,4})?(?![\d가-힣])"),
        MEDIUM,
        "a Korean road address: 중앙대로 691, 월드컵북로12길 34",
        requires=(
            "로",
            "길",
        ),
    ),
    Rule(
        "organization_cjk_institution",
        "organization",
        _c(
            r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff]{2,8}(?:醫院|医院|診所|诊所|病院|醫學中心|医学中心"
            r"|大學|大学|銀行|银行|小學|小学|中學|中学|高校|幼稚園|幼儿园|小学校|中学校)"
            r"|(?<![가-힣])[가-힣]{2,8}(?:병원|의원|은행|대학교|초등학교|중학교|고등학교|유치원)"
        ),
        MEDIUM,
        "a Chinese, Japanese or Korean hospital, clinic, bank or school by its suffix "
        "(仁心內科診所, 國泰醫院, 日吉台小学校, 서울대학교병원)",
        requires=(
            "醫院",
            "医院",
            "診所",
            "诊所",
            "病院",
            "中心",
            "大學",
            "大学",
            "銀行",
            "银行",
            "小學",
            "小学",
            "中學",
            "中学",
            "高校",
            "幼稚園",
            "幼儿园",
            "병원",
            "의원",
            "은행",
            "학교",
            "유치원",
        ),
    ),
)
_CJK_RUN = re.compile(f"[{CJK}]+")


def cjk_line_windows(text: str) -> list[tuple[int, int]]:
    """The merged (start, end) of the lines that hold a Chinese, Japanese or Korean
    character."""
    windows: list[tuple[int, int]] = []
    for match in _CJK_RUN.finditer(text):
        if windows and match.start() < windows[-1][1]:
            continue
        low = text.rfind("\n", 0, match.start()) + 1
        high = text.find("\n", match.end())
        high = len(text) if high < 0 else high
        if windows and low <= windows[-1][1]:
            windows[-1] = (windows[-1][0], high)
        else:
            windows.append((low, high))
    return windows


# Anchored rules run from their prefilter superset instead of their anchors. Their anchors
# are common words ("my ", "in ", "mon", "patient"): on the development text each of these
# rules has over 4,000 anchor positions per 2 MB and a match at under a quarter of them, so
# one literal report and one `re.match` per position cost more than a superset in the block
# pass, which rejects most of those positions there (`python -m bench.regex_speed
# --anchor-report` prints the figures). Their `anchors` stay: they still document the rule,
# and the detections are the same either way.
SUPERSET_GATED_RULES = frozenset(
    {
        "age_phrase",
        "date_weekday_day",
        "internal_id_key_value",
        "location_preposition",
        "person_intro_capitalised",
        "person_key_value",
        "person_label",
        "person_ranked",
        "person_role",
        "person_role_lower",
        "phone_context",
    }
)


def runs_at_anchors(rule: Rule) -> bool:
    """Whether the engine tries `rule` only where its anchors start (else its superset, or
    its trigger, gates it in the shared prefilter pass; without Hyperscan there is no such
    pass, and the rules of `SUPERSET_GATED_RULES` keep to their anchors)."""
    if not rule.anchors or rule.trigger is not None:
        return False
    return rule.rule_id not in SUPERSET_GATED_RULES or not hyperscan_available()


def _extends_another(anchor: str, anchors: tuple[str, ...]) -> bool:
    """Whether another of `anchors` is a prefix of `anchor` (so `anchor` starts nowhere else)."""
    return any(other != anchor and anchor.startswith(other) for other in anchors)


def _anchor_positions(lowered: str, anchors: tuple[str, ...]) -> list[int]:
    """Every offset where one of `anchors` starts (one `str.find` scan per anchor)."""
    positions: set[int] = set()
    for anchor in anchors:
        index = lowered.find(anchor)
        while index >= 0:
            positions.add(index)
            index = lowered.find(anchor, index + 1)
    return sorted(positions)


class AnchorIndex:
    """The offsets where each rule's anchors start, for all rules in one scan of the text.

    The anchors are found in one Hyperscan pass over the lower-cased text
    (`prefilter.LiteralScanner`); for the anchor sets in `word_start` (those of rules whose
    matches open with `\\b` or a lookbehind that refuses word characters) only where no ASCII
    word character stands before them. Without Hyperscan, one zero-width regex finds them all
    (word starts or not): its alternation is factored by shared prefixes and tries the
    longest anchor first, so the anchors starting at an offset are exactly the prefixes of
    the one it found.
    """

    def __init__(
        self,
        anchor_sets: Iterable[tuple[str, ...]],
        word_start: Collection[tuple[str, ...]] = (),
    ) -> None:
        self.anchor_sets = tuple(dict.fromkeys(a for a in anchor_sets if a))
        owners: dict[str, set[int]] = {}  # anchor -> indexes of the anchor sets holding it
        for i, anchors in enumerate(self.anchor_sets):
            for anchor in anchors:
                owners.setdefault(anchor, set()).add(i)
        self.owners = {anchor: tuple(sorted(sets)) for anchor, sets in owners.items()}
        # the anchors starting where `found` starts are exactly its prefixes
        self.owners_of = {
            found: tuple(
                sorted({i for a, rules in owners.items() if found.startswith(a) for i in rules})
            )
            for found in owners
        }
        alternation = word_alternation(frozenset(owners))
        self.pattern = re.compile(f"(?=({alternation}))") if owners else None
        # an anchor that another of its set starts with adds no offset: only the others
        searched = [
            [(a, anchors in word_start) for a in anchors if not _extends_another(a, anchors)]
            for anchors in self.anchor_sets
        ]
        literals = list(dict.fromkeys(literal for found in searched for literal in found))
        self.scanner = LiteralScanner(literals)
        index_of = {literal: index for index, literal in enumerate(literals)}
        # each anchor set's searched anchors, as indexes into the scanner's literals
        self.members = tuple(tuple(index_of[lit] for lit in found) for found in searched)
        self.sets_of: dict[int, list[int]] = {}  # literal index -> the anchor sets holding it
        for i, members in enumerate(self.members):
            for member in members:
                self.sets_of.setdefault(member, []).append(i)

    def positions(self, lowered: str) -> dict[tuple[str, ...], list[int]]:
        """Anchor tuple -> sorted offsets in `lowered` where one of its anchors starts (only
        the tuples of which an anchor occurs)."""
        starts = self.scanner.starts(lowered)
        if starts is None:
            return self._positions_by_regex(lowered)
        found: dict[tuple[str, ...], list[int]] = {}
        touched = sorted({i for literal in starts for i in self.sets_of[literal]})
        for i in touched:  # the anchor sets of which an anchor occurs
            anchors, members = self.anchor_sets[i], self.members[i]
            lists = [starts[member] for member in members if member in starts]
            if len(lists) == 1:
                found[anchors] = lists[0]
            elif lists:  # nested anchors ("my", "my name") start at the same offsets
                found[anchors] = sorted(set().union(*lists))
        return found

    def _positions_by_regex(self, lowered: str) -> dict[tuple[str, ...], list[int]]:
        found: list[list[int]] = [[] for _ in self.anchor_sets]
        if self.pattern is not None:
            owners_of = self.owners_of
            for match in self.pattern.finditer(lowered):
                start = match.start()
                for i in owners_of[match.group(1)]:
                    found[i].append(start)
        pairs = zip(self.anchor_sets, found, strict=True)
        return {anchors: offsets for anchors, offsets in pairs if offsets}


def iter_matches(
    rule: Rule,
    text: str,
    lowered: str | None,
    positions: list[int] | None = None,
    windows: list[tuple[int, int]] | None = None,
) -> Iterator[re.Match[str]]:
    """The rule's matches, left to right and non-overlapping, as `finditer` would give them.

    With anchors and `lowered` (from `lower_same_length`) the pattern is only tried where an
    anchor starts; `positions` (those offsets) and `windows` (the trigger's windows) may be
    passed in when they were computed once for several rules.
    """
    if rule.trigger is not None:
        last_end = 0
        for low, high in rule.trigger.windows(text) if windows is None else windows:
            for match in rule.pattern.finditer(text, low, high):
                if match.start() >= last_end:
                    last_end = max(match.end(), match.start() + 1)
                    yield match
        return
    if not rule.anchors or lowered is None:
        yield from rule.pattern.finditer(text)
        return
    if positions is None:
        positions = _anchor_positions(lowered, rule.anchors)
    last_end = 0
    match_at = rule.pattern.match
    for position in positions:
        if position < last_end:
            continue
        match = match_at(text, position)
        if match is not None:
            last_end = max(match.end(), position + 1)
            yield match


# Characters whose lower case is longer than one character ('İ' -> 'i̇'); replaced by a
# one-character stand-in so that offsets in the lower-cased copy match the text.
_LOWER_EXPANDS = re.compile(
    "[" + "".join(re.escape(chr(c)) for c in range(0x10000) if len(chr(c).lower()) != 1) + "]"
)


def lower_same_length(text: str) -> str:
    """`text.lower()` with every character kept at its offset."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else _LOWER_EXPANDS.sub("i", text).lower()


class RegexDetector:
    """Runs every rule; overlaps are resolved by the detection pipeline.

    Rules with anchors run where their anchors start; every other rule (and every trigger)
    runs only from the blocks of text where the shared prefilter pass saw its superset
    pattern (`prefilter.py`), which gives exactly the matches of a full scan.
    """

    name = "regex"

    def __init__(
        self, rules: tuple[Rule, ...] = RULES, cjk_rules: tuple[Rule, ...] = CJK_RULES
    ) -> None:
        self.rules = rules
        self.cjk_rules = cjk_rules
        self.prefilter = shared_prefilter(rules)
        # rules with the same pattern, anchors and trigger (reading other groups) share matches
        keys: dict[tuple[Any, ...], int] = {}
        self.match_keys = [
            keys.setdefault((rule.pattern, rule.anchors, rule.trigger), len(keys)) for rule in rules
        ]
        self.plan = RulePlan(rules, self.prefilter, runs_at_anchors)
        # a text shorter than one prefilter block runs every anchored rule at its anchors:
        # there a superset's backward scan or search costs more than the few anchor positions
        self.short_plan = RulePlan(rules, self.prefilter, _anchored)

    @property
    def anchor_index(self) -> AnchorIndex:
        """The long-text plan's anchor index (setting it, as the no-Hyperscan test does, gives
        both plans that index)."""
        return self.plan.anchor_index

    @anchor_index.setter
    def anchor_index(self, index: AnchorIndex) -> None:
        self.plan.anchor_index = self.short_plan.anchor_index = index

    def warm_up(self) -> None:
        """Compile everything the prefilter would otherwise compile during the first jobs."""
        if self.prefilter.database is not None:
            self.prefilter.prepare()
        self.detect("warm up")

    def detect(self, text: str) -> list[Detection]:
        """Every rule's detections, overlaps included (the pipeline resolves them)."""
        return self.detect_in_view(detection_view(text))

    def detect_in_view(self, view: str) -> list[Detection]:
        """As `detect`, for a text already read through `detection_view` (the combined
        detector's, so the view is made once)."""
        with collector_paused():
            return self._detect(view)

    def _detect(self, text: str) -> list[Detection]:
        plan = self.plan if len(text) > self.prefilter.block else self.short_plan
        lowered = lower_same_length(text)
        anchor_positions = plan.anchor_index.positions(lowered)
        gates = self.prefilter.gates(text)
        at_anchors = plan.at_anchors
        trigger_windows: dict[int, list[tuple[int, int]]] = {}
        found: list[Detection] = []
        shared: dict[int, list[re.Match[str]]] = {}
        rules, match_keys = self.rules, self.match_keys
        for index in self.candidates(anchor_positions, gates, plan):
            rule, key = rules[index], match_keys[index]
            if rule.requires and not any(word in lowered for word in rule.requires):
                continue
            matches = shared.get(key)
            if matches is None:
                if rule.trigger is not None:
                    if id(rule.trigger) not in trigger_windows:
                        trigger_windows[id(rule.trigger)] = rule.trigger.windows(
                            text, gates.matches(rule.trigger.pattern, text)
                        )
                    windows = trigger_windows[id(rule.trigger)]
                    matches = list(gates.finditer_in_windows(rule.pattern, text, windows))
                elif index in at_anchors:
                    positions = anchor_positions.get(rule.anchors)
                    matches = (
                        list(iter_matches(rule, text, lowered, positions)) if positions else []
                    )
                else:
                    matches = gates.matches(rule.pattern, text)
                shared[key] = matches
            if matches:
                found.extend(_detections(rule, text, matches))
        windows = cjk_line_windows(text) if self.cjk_rules else []
        for rule in self.cjk_rules if windows else ():
            matches = [
                m
                for low, high in windows
                if any(text.find(key, low, high) >= 0 for key in rule.requires)
                for m in rule.pattern.finditer(text, low, high)
            ]
            found.extend(_detections(rule, text, matches))
        return found

    def candidates(
        self,
        anchor_positions: Collection[tuple[str, ...]],
        gates: Gates,
        plan: RulePlan | None = None,
    ) -> Iterable[int]:
        """Indexes, in order, of the rules that can match in a text: those of which an anchor
        occurs in it or whose superset (or run sentinel) fired in its block pass, and those
        that are not gated; a rule left out would find nothing, so a short text pays only for
        the few rules it can wake."""
        if gates.fired is None:
            return range(len(self.rules))
        plan = plan or self.plan
        chosen = set(plan.ungated)
        rules_by_anchors, rules_by_gate = plan.rules_by_anchors, plan.rules_by_gate
        for anchors in anchor_positions:
            chosen.update(rules_by_anchors.get(anchors, ()))
        for gate_id in gates.fired:
            chosen.update(rules_by_gate.get(gate_id, ()))
        return sorted(chosen)


def _anchored(rule: Rule) -> bool:
    return bool(rule.anchors) and rule.trigger is None


class RulePlan:
    """How a text's rules run: which of them at their anchors (`at_anchors`, found by
    `anchor_index`), and which rules each anchor set or block-pass id wakes."""

    def __init__(
        self, rules: tuple[Rule, ...], prefilter: Prefilter, at_anchors: Callable[[Rule], bool]
    ) -> None:
        self.anchor_index = AnchorIndex(*anchor_sets(rules, at_anchors))
        self.at_anchors = frozenset(i for i, rule in enumerate(rules) if at_anchors(rule))
        self.ungated: list[int] = []
        self.rules_by_anchors: dict[tuple[str, ...], list[int]] = {}
        self.rules_by_gate: dict[int, list[int]] = {}
        for index, rule in enumerate(rules):
            if index in self.at_anchors:
                self.rules_by_anchors.setdefault(rule.anchors, []).append(index)
                continue
            gated = rule.pattern if rule.trigger is None else rule.trigger.pattern
            gate_ids = prefilter.gate_ids(gated)
            if gate_ids is None:
                self.ungated.append(index)
            for gate_id in gate_ids or ():
                self.rules_by_gate.setdefault(gate_id, []).append(index)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused for the block, restored as it was (also on error).

    The match loop allocates hundreds of thousands of short-lived acyclic objects (matches,
    tuples, detections), which reference counting frees; the collector's passes over them
    found nothing and took 5-10% of `detect`.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def anchor_sets(
    rules: Iterable[Rule], at_anchors: Callable[[Rule], bool] = runs_at_anchors
) -> tuple[list[tuple[str, ...]], set[tuple[str, ...]]]:
    """The anchor sets of the rules run at their anchors (`at_anchors`), and those of them
    found only at word starts: every rule holding the set opens with a word boundary
    (`opens_with_word_boundary`) and each of its anchors starts with a word character."""
    anchored = [rule for rule in rules if at_anchors(rule)]
    sets = [rule.anchors for rule in anchored]
    not_at_word_start = {
        rule.anchors
        for rule in anchored
        if not opens_with_word_boundary(rule.pattern)
        or not all(anchor[0].isalnum() or anchor[0] == "_" for anchor in rule.anchors)
    }
    return sets, set(sets) - not_at_word_start


_PREFILTERS: dict[tuple[re.Pattern[str], ...], Prefilter] = {}


def shared_prefilter(rules: tuple[Rule, ...]) -> Prefilter:
    """The prefilter of the rules' unanchored patterns and triggers, built once per process
    (compiling the Hyperscan database takes a few seconds)."""
    patterns = tuple(
        pattern
        for rule in rules
        for pattern in (
            (rule.pattern, rule.trigger.pattern) if rule.trigger is not None else (rule.pattern,)
        )
        if not runs_at_anchors(rule)
    )
    if patterns not in _PREFILTERS:
        _PREFILTERS[patterns] = Prefilter(patterns)
    return _PREFILTERS[patterns]


def unrestricted_rules(rules: tuple[Rule, ...] = RULES) -> list[str]:
    """Ids of the rules that would search every document from end to end: no anchors, and a
    pattern (or trigger) that the shared prefilter cannot gate."""
    gated = shared_prefilter(rules).supersets
    return [
        rule.rule_id
        for rule in rules
        if (rule.trigger is not None and rule.trigger.pattern not in gated)
        or (not runs_at_anchors(rule) and rule.trigger is None and rule.pattern not in gated)
    ]


def _detections(rule: Rule, text: str, matches: list[re.Match[str]]) -> Iterator[Detection]:
    """The rule's detections from its pattern's matches: group, value check, refinement.

    `Detection` is a frozen dataclass whose `__init__` sets each field through
    `object.__setattr__`; filling a new instance's `__dict__` at once builds the same object
    in a third of the time (test_regex_engine.py checks it against the constructor)."""
    group, validate, refine = rule.group, rule.validate, rule.refine
    new = object.__new__
    category, placeholder, confidence, rule_id = (
        rule.category,
        rule.placeholder,
        rule.confidence,
        rule.rule_id,
    )
    for match in matches:
        start, end = match.span(group)
        if start < 0 or end <= start:
            continue
        if validate is not None and not validate(text[start:end]):
            continue
        if refine is not None:
            refined = refine(text, start, end)
            if refined is None:
                continue
            start, end = refined
        detection = new(Detection)
        vars(detection).update(
            start=start,
            end=end,
            category=category,
            placeholder=placeholder,
            source="regex",
            score=confidence,
            rule_id=rule_id,
        )
        yield detection


def rule_table() -> list[dict[str, str]]:
    """The rules as rows for `--list-rules`."""
    return [
        {
            "id": r.rule_id,
            "category": r.category,
            "placeholder": r.placeholder,
            "confidence": f"{r.confidence:.2f}",
            "rationale": r.rationale,
        }
        for r in RULES
    ]
