"""Which language a line is written in, from word frequencies, to doubt the model there.

The NER model was trained on English text; in a German forum post or a Spanish hotel form
it reads capitalised nouns and form labels as names and places ("Bitte", "Fecha de",
"Heizkosten"). A span whose words are common words of the line's own (non-English)
language and nobody's name is that kind of reading. Frequencies come from wordfreq's small
word lists (loaded lazily, ~5 MB per language).
"""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache

from anonymizer.detection.names import is_known_name

LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "pl", "tr", "fil", "id", "sv", "da", "ro")
COMMON_ZIPF = 3.5  # a word this frequent in the line's language is a common word there
MIN_WORDS = 3
MAX_WORDS = 24
_LOWER_WORD = re.compile(r"(?<![\w'’-])[^\W\d_A-Z]{2,}(?![\w'’-])")


@cache
def _frequencies(language: str) -> dict[str, float]:
    """wordfreq's small word list for the language (empty without wordfreq)."""
    try:
        from wordfreq import get_frequency_dict
    except ImportError:
        return {}
    return get_frequency_dict(language, wordlist="small")


def load_word_lists() -> None:
    """Load every language's word list now (about 0.5 s) rather than on the first line."""
    for language in LANGUAGES:
        _frequencies(language)


@lru_cache(maxsize=1 << 16)
def word_zipf(word: str, language: str) -> float:
    """The (lower-case, single) word's frequency in the language on the Zipf scale; a dict
    look-up, much cheaper than tokenising through `wordfreq.zipf_frequency`."""
    frequency = _frequencies(language).get(word, 0.0)
    return math.log10(frequency) + 9 if frequency > 0 else 0.0


@lru_cache(maxsize=4096)
def line_language(line: str) -> str | None:
    """The language whose word frequencies best explain the line's lower-case words ("die",
    "an" and "so" are English words too, so a share of English words is not enough); None
    when the line has too few of them to tell."""
    words = [w for w in _LOWER_WORD.findall(line) if w.islower()][:MAX_WORDS]
    if len(words) < MIN_WORDS:
        return None
    return max(LANGUAGES, key=lambda lang: sum(word_zipf(w, lang) for w in words))


# The countries (ISO codes) where each of `LANGUAGES` other than English is spoken: there a
# city's name is frequent in the language because it is a place ("Graz" in German text).
COUNTRIES_SPEAKING: dict[str, frozenset[str]] = {
    language: frozenset(codes.split())
    for language, codes in {
        "de": "DE AT CH LI LU BE",
        "fr": "FR BE CH LU MC CA SN CI CM ML BF NE TG BJ GA CG CD MG HT DZ MA TN",
        "es": "ES MX AR CO CL PE VE EC GT CU BO DO HN PY SV NI CR PA UY PR GQ",
        "it": "IT CH SM VA",
        "pt": "PT BR AO MZ CV GW ST TL",
        "nl": "NL BE SR",
        "pl": "PL",
        "tr": "TR CY",
        "fil": "PH",
        "id": "ID",
        "sv": "SE FI",
        "da": "DK",
        "ro": "RO MD",
    }.items()
}

VERY_COMMON_ZIPF = 4.0  # a word this frequent in some language is a word before a name


def word_in_any_language(word: str) -> bool:
    """The lower-case word is very common in one of `LANGUAGES` ("else", "tab", "alleen",
    "apellido"), unlike a rare given name ("kev", "chintu")."""
    folded = word.casefold()
    return any(word_zipf(folded, language) >= VERY_COMMON_ZIPF for language in LANGUAGES)


def common_foreign_word(word: str, language: str) -> bool:
    """A common word of a non-English language that is not a known name ("Bitte" in
    German, "Fecha" in Spanish; not "Lukas")."""
    folded = word.casefold()
    return (
        language != "en"
        and word_zipf(folded, language) >= COMMON_ZIPF
        and not is_known_name(folded)
    )
