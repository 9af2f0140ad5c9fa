"""Given names and surnames from many locales, to tell a name from a common word.

"kofi" and "salesperson" are equally rare in English text, and "Will" or "Grace" are common
words that are also names, so word frequency alone cannot say whether a lone word is a
name. The list (`data/names.txt.gz`, ~56,000 lower-case names from Faker's person providers
in every locale it has) is rebuilt with `python -m anonymizer.detection.training names`.
"""

from __future__ import annotations

import gzip
from functools import cache
from pathlib import Path

NAMES_FILE = Path(__file__).resolve().parent / "data" / "names.txt.gz"


# Korean surnames as they are romanised, which Faker lists only in Hangul (none common in
# English: not "Seo", "Son", "Moon", "Shin", "Yoo").
ROMANISED_KOREAN_SURNAMES = frozenset(
    "yoon baek jang jeon hwang kwon jeong heo noh ryu choe byun chae pyo ahn".split()
)
# Syllables of Korean and Taiwanese given names written romanised with a hyphen ("Seo-yeon",
# "Jae-hyun", "Chia-hao"); Faker lists these names only in their own scripts.
ROMANISED_SYLLABLES = frozenset(
    "ae bin bo bok bom byung byeong chae chan chang cheol chul chun chung da dae deok dong doo"
    " du eun gang geon geun gi gil gu gwang gyeong gyu ha hae han hee heon ho hoon hong hwa"
    " hwan hye hyeok hyeon hyo hyuk hyun il in ja jae jeong ji jin jo joo ju jun jung ki kook"
    " kwang kyu kyung mi min mo moon mun myung myeong na nam ok pil ra ri rin sae sang se seo"
    " seok seon seong seul shik shin si sik so sol soo sook su suk sun sung tae uk won woo wook"
    " ye yeon yeong yi yong yoo yoon young yu yul yun chia hao ting shu fen chih wei hsiao mei"
    " wen hsin pei shan ya chen tzu hsuan hui ling kuan li ming hung chieh an chiao".split()
)


@cache
def known_names() -> frozenset[str]:
    """Lower-case given names and surnames (only the romanised Korean surnames when the file
    is missing)."""
    try:
        with gzip.open(NAMES_FILE, "rt", encoding="utf-8") as handle:
            listed = frozenset(line.strip() for line in handle if line.strip())
    except OSError:
        listed = frozenset()
    return listed | ROMANISED_KOREAN_SURNAMES


# Second syllables that make a Korean place (Jung-gu, Myeong-dong, Hong-dae, Jong-ro), German
# weekday pairs of opening hours (Mo-So, Mi-So), and places and things written the same way.
_PLACE_SYLLABLES = frozenset("gu dong dae ro do si eup myeon ri".split())
_WEEKDAYS_DE = frozenset("mo di mi do fr sa so".split())
_NOT_GIVEN_NAMES = frozenset(
    "gyeong-ju gwang-ju jeon-ju cheong-ju won-ju chung-ju gong-ju yeo-ju gyeong-gi gang-won"
    " so-ju tae-bo han-bok".split()
)


def romanised_given_name(word: str) -> bool:
    """Two different syllables of `ROMANISED_SYLLABLES` joined by a hyphen ("seo-yeon"), not a
    place, an opening-hours range or a thing written so ("Jung-gu", "Mo-So", "So-ju")."""
    folded = word.casefold()
    parts = folded.split("-")
    return (
        len(parts) == 2
        and parts[0] != parts[1]
        and all(part in ROMANISED_SYLLABLES for part in parts)
        and parts[1] not in _PLACE_SYLLABLES
        and not (parts[0] in _WEEKDAYS_DE and parts[1] in _WEEKDAYS_DE)
        and folded not in _NOT_GIVEN_NAMES
    )


@cache
def zipf(word: str) -> float:
    """English word frequency on wordfreq's Zipf scale (0 when wordfreq is missing)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        return 0.0
    return zipf_frequency(word, "en")


COMMON_ZIPF = 2.7


def is_common_non_name(word: str) -> bool:
    """A word seen often in English that is not a known name ("salesperson", "big", "desk")."""
    folded = word.casefold()
    return (
        zipf(folded) >= COMMON_ZIPF
        and folded not in known_names()
        and not romanised_given_name(folded)
    )


_COLLECTIONS = (dict, tuple, list, set, frozenset)


def is_known_name(surface: str) -> bool:
    """Every word of `surface` is a known given name or surname."""
    words = surface.casefold().split()
    return bool(words) and all(w in known_names() or romanised_given_name(w) for w in words)


def build_names_file(path: Path = NAMES_FILE) -> int:
    """Collect the names from Faker's person providers (all locales); returns the count."""
    import importlib
    import pkgutil

    import faker.providers.person as people

    names: set[str] = set()
    for module in pkgutil.iter_modules(people.__path__):
        provider = importlib.import_module(f"{people.__name__}.{module.name}").Provider
        for attr, value in vars(provider).items():
            if "names" in attr and "language" not in attr and isinstance(value, _COLLECTIONS):
                names.update(
                    n.strip().casefold() for n in value if isinstance(n, str) and n.strip()
                )
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.write("\n".join(sorted(names)) + "\n")
    return len(names)
