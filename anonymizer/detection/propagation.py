"""Name propagation: once a word is known to be part of a person's name in a document, every
other whole-word occurrence of it in that document is a name too.

Detectors see names through context ("[10:42] aaron:", "Dr. Ana Müller"); the same name
written elsewhere without context ("it's aaron here", "ana said") would otherwise leak.
Only confident person detections seed it, and only words that are not on the non-name lists,
months, places or particles. A word that is also common in English ("Will", "Grace", "Big")
spreads only to mentions written exactly as the seed, capitalised; a word that is common in
English and nobody's name ("big", "three", "salesperson"; `names.py`) does not spread at all,
and a word common in another language and nobody's name ("Saldo") spreads only as written.
Mentions are found in one pass over the document's words (`name_mentions`), not by a
pattern compiled for every document. User names and ids found once are likewise
found at their other exact, whole-token mentions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.line_language import word_in_any_language
from anonymizer.detection.names import is_common_non_name, is_known_name
from anonymizer.detection.regex import PARTICLES, word_alternation
from anonymizer.detection.wordlists import COMMON_WORD_NAMES, NON_NAME, NOT_A_NAME, PLACES
from anonymizer.types import Detection

PERSON = "full person name"
MIN_SEED_SCORE = 0.6
PROPAGATED_SCORE = 0.55
MIN_WORD_LENGTH = 3

_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*")
_NEVER = NON_NAME | NOT_A_NAME | PLACES | PARTICLES


def name_words(text: str, detections: Iterable[Detection]) -> tuple[set[str], set[str]]:
    """(rare words, to match in any case; common words, to match exactly as written)."""
    rare: set[str] = set()
    common: set[str] = set()
    for d in detections:
        if d.category != PERSON or d.score < MIN_SEED_SCORE:
            continue
        for word in _WORD.findall(text[d.start : d.end]):
            folded = word.casefold()
            if len(folded) < MIN_WORD_LENGTH or folded in _NEVER:
                continue
            if is_common_non_name(folded) and folded not in COMMON_WORD_NAMES:
                continue
            if folded in COMMON_WORD_NAMES or (
                word_in_any_language(folded) and not is_known_name(folded)
            ):  # "Saldo", "Chirurgie" (words of another language) spread as written only
                if word[:1].isupper() and not word.isupper():
                    common.add(word)
            else:
                rare.add(folded)
    return rare, common


_APOSTROPHES = "'’"


def _is_word_char(text: str, i: int) -> bool:
    """`text[i]` is a regex word character (`\\w`: alphanumeric or "_")."""
    return 0 <= i < len(text) and (text[i].isalnum() or text[i] == "_")


def _ends_a_word(text: str, end: int) -> bool:
    """Nothing word-like follows: no letter, digit, "_" or hyphen, no "'xx" (but "'s" may)."""
    if _is_word_char(text, end) or text[end : end + 1] == "-":
        return False
    return not (
        text[end : end + 1] in _APOSTROPHES
        and _is_word_char(text, end + 1)
        and _is_word_char(text, end + 2)
    )


def _fold_same_length(text: str) -> str:
    """The text case-folded offset for offset, as `re.IGNORECASE` compares characters ("ς"
    and "σ" alike); a character that folds to two ("ß" to "ss") is only lower-cased."""
    folded = text.casefold()
    if len(folded) == len(text):
        return folded
    return text.translate({ord(c): _fold_char(c) for c in set(text)})


def _fold_char(char: str) -> str:
    """One character case-folded, else lower-cased; "İ", the one character whose lower case
    is two, compares with "i" (its simple lower case, which the regex engine uses)."""
    for folded in (char.casefold(), char.lower()):
        if len(folded) == 1:
            return folded
    return "i"


def _starts_a_word(text: str, start: int) -> bool:
    """Nothing word-like before: no letter, digit, "_", apostrophe or hyphen."""
    return start == 0 or not (_is_word_char(text, start - 1) or text[start - 1] in "'’-")


def _present(haystack: str, words: set[str]) -> set[str]:
    """The words that occur in the text as a word or as a word's part before an apostrophe
    ("anna" in "anna's"): a quick set intersection that leaves most documents nothing to
    search."""
    tokens = set(_WORD.findall(haystack))
    tokens.update(
        t[:i] for t in [t for t in tokens if "'" in t or "’" in t] for i in _apostrophes_in(t)
    )
    return words & tokens


def _apostrophes_in(token: str) -> list[int]:
    return [i for i, c in enumerate(token) if c in _APOSTROPHES]


# Up to this many characters searched in all (words present x text length), each word is
# found by `str.find`; past it (a long document naming many people), one pass over the words.
FIND_BUDGET = 20_000_000


def _mentions(text: str, haystack: str, words: set[str]) -> list[tuple[int, int]]:
    """Whole-word occurrences of the words in `haystack` (the text, or its folded copy of
    the same length), the longest where several start at one offset."""
    present = _present(haystack, words)
    if not present:
        return []
    longest: dict[int, int] = {}
    if len(present) * len(haystack) <= FIND_BUDGET:
        for word in present:
            start = haystack.find(word)
            while start >= 0:
                end = start + len(word)
                if _starts_a_word(text, start) and _ends_a_word(text, end):
                    longest[start] = max(end, longest.get(start, end))
                start = haystack.find(word, start + 1)
        return list(longest.items())
    for token in _WORD.finditer(haystack):
        word, start = token.group(), token.start()
        for end in _ends_to_try(word, start):
            if haystack[start:end] in present and _starts_a_word(text, start):
                if _ends_a_word(text, end):
                    longest[start] = end  # the ends are tried longest first
                    break
    return list(longest.items())


def _ends_to_try(word: str, start: int) -> list[int]:
    """The token's end, then the end of each part before an apostrophe, longest first."""
    ends = [start + len(word)]
    if "'" in word or "’" in word:
        ends += [start + i for i in range(len(word) - 1, 0, -1) if word[i] in _APOSTROPHES]
    return ends


def name_mentions(text: str, rare: set[str], common: set[str]) -> list[tuple[int, int]]:
    """Every whole-word mention of the rare words in any case and of the common words as
    written, sorted: the longest word that ends where a word ends, characters compared as
    `re.IGNORECASE` does. One pass over the text's words per word set, whatever the text's
    length and the number of names (no pattern compiled per document)."""
    found = _mentions(text, text, common) if common else []
    if rare:
        found += _mentions(text, _fold_same_length(text), {_fold_same_length(w) for w in rare})
    return sorted(found)


def propagate_names(text: str, detections: list[Detection]) -> list[Detection]:
    """Detections for other occurrences of known name words (the input is not repeated)."""
    rare, common = name_words(text, detections)
    if not rare and not common:
        return []
    return [
        Detection(
            start,
            end,
            PERSON,
            placeholder_for(PERSON),
            "propagation",
            PROPAGATED_SCORE,
            "name_propagation",
        )  # fmt: skip
        for start, end in name_mentions(text, rare, common)
    ]


_REPEATED = frozenset({"handle", "internal id", "reference id", "secret", "national id"})
MIN_REPEATED_LENGTH = 5


def propagate_identifiers(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """Every other occurrence of a user name or id found once in the document ("mausi_87"
    in a post's header and again in a reply), as a whole token."""
    values = {
        text[d.start : d.end]: d
        for d in kept
        if d.category in _REPEATED and d.end - d.start >= MIN_REPEATED_LENGTH
    }
    if not values:
        return []
    spans = {(d.start, d.end) for d in kept}
    return [
        replace(values[text[start:end]], start=start, end=end, rule_id="id_propagation")
        for start, end in identifier_mentions(text, set(values))
        if (start, end) not in spans
    ]


def identifier_mentions(text: str, values: set[str]) -> list[tuple[int, int]]:
    """Whole-token occurrences of the values, left to right and not overlapping, the longest
    where several start at one offset (as `finditer` over their alternation finds them). A
    few values are searched one by one (`FIND_BUDGET`); many, in one pass of a compiled
    alternation."""
    if len(values) * len(text) > FIND_BUDGET:
        pattern = rf"(?<![\w@.-])(?:{word_alternation(frozenset(values))})(?![\w@-]|\.\w)"
        return [m.span() for m in re.finditer(pattern, text)]
    found = []
    for value in values:
        start = text.find(value)
        while start >= 0:
            end = start + len(value)
            if _token_starts(text, start) and _token_ends(text, end):
                found.append((start, end))
            start = text.find(value, start + 1)
    out: list[tuple[int, int]] = []
    for start, end in sorted(found, key=lambda span: (span[0], -span[1])):
        if not out or start >= out[-1][1]:
            out.append((start, end))
    return out


def _token_starts(text: str, start: int) -> bool:
    return start == 0 or not (_is_word_char(text, start - 1) or text[start - 1] in "@.-")


def _token_ends(text: str, end: int) -> bool:
    if _is_word_char(text, end) or text[end : end + 1] in ("@", "-"):
        return False
    return not (text[end : end + 1] == "." and _is_word_char(text, end + 1))
