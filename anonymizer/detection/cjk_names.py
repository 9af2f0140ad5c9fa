"""Names written in Chinese, Japanese or Korean script: no capitals and no spaces mark them,
so a run of these characters is told from a word by the name lists and word frequencies.

A run is a possible name when it is a known name or a sequence no word list has ("拓海"),
not a frequent word ("建国", "founding"; "오후", "afternoon"). It reads as a full name when it
splits into a known surname and a known given name ("林冠宇", "石井 稔").
"""

from __future__ import annotations

import re

from anonymizer.detection.line_language import word_zipf
from anonymizer.detection.names import known_names
from anonymizer.detection.regex import CJK

CJK_LANGUAGES = ("ja", "ko", "zh")  # word lists read only for runs in these scripts
_CJK = f"[{CJK}]"
CJK_RUN = re.compile(f"{_CJK}{{2,}}")
_CJK_WORD = re.compile(f"{_CJK}+")
HANGUL = re.compile(r"[\uac00-\ud7af]")
WORD_ZIPF = 4.6  # a name this frequent in Japanese, Korean or Chinese is a word too
NOT_A_WORD_ZIPF = 3.0  # below this, a sequence is in no word list to speak of
MAX_FULL_NAME = 4
# Last characters of street, district and town names ("李路" is Li Road, not Mr Li Lu).
_PLACE_ENDINGS = frozenset("路街道区區市县縣号號巷弄町村里")


def cjk_frequency(word: str) -> float:
    """The word's highest Zipf frequency in Japanese, Korean and Chinese."""
    return max(word_zipf(word, language) for language in CJK_LANGUAGES)


def cjk_name_like(word: str) -> bool:
    """A run in CJK script that may be a name: a known name or a sequence no word list has,
    not a frequent word a wrong span brought in ("어머님", "mother")."""
    frequency = cjk_frequency(word)
    if frequency >= WORD_ZIPF:
        return False
    return frequency < NOT_A_WORD_ZIPF or word in known_names()


def cjk_full_name(run: str) -> bool:
    """A known surname and a known given name, apart ("石井 稔") or together in two to four
    characters that make no word ("林冠宇", "김민준")."""
    parts = run.split()
    names = known_names()
    if not parts or not all(_CJK_WORD.fullmatch(p) for p in parts):
        return False
    if parts[-1][-1] in _PLACE_ENDINGS:
        return False
    if len(parts) == 2:
        return parts[0] in names and parts[1] in names
    word = parts[0]
    if len(parts) != 1 or not 2 <= len(word) <= MAX_FULL_NAME:
        return False
    if cjk_frequency(word) >= NOT_A_WORD_ZIPF:
        return False
    return any(word[:i] in names and word[i:] in names for i in (1, 2) if i < len(word))
