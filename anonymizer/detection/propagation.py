"""Name propagation: once a word is known to be part of a person's name in a document, every
other whole-word occurrence of it in that document is a name too.

Detectors see names through context ("[10:42] aaron:", "Dr. Ana Müller"); the same name
written elsewhere without context ("it's aaron here", "ana said") would otherwise leak.
Only confident person detections seed it, and only words that are not on the non-name lists,
months, places or particles. A word that is also common in English ("Will", "Grace", "Big")
spreads only to mentions written exactly as the seed, capitalised; a word that is common in
English and nobody's name ("big", "three", "salesperson"; `names.py`) does not spread at all,
unless the document writes it only as a name ("Rami", "Rommel": `written_as_a_name`), and a
word common in another language and nobody's name ("Saldo") spreads only as written.
Short and pet forms of a given name ("kev", "kevvy" of Kevin), the initials of a full name
written in capitals ("TJ" of Tyler-James Mcbride) and a chat speaker's one-word name (even a
common word) spread too (`name_variants`, `speaker_words`), as do a name with a case ending
or after an elided article ("Katerynan", "Тарасе", "d'Ilyas") and a name in CJK script
inside the words it is written in ("弟の拓海は"; `inflected_mentions`).
Mentions are found in one pass over the document's words (`name_mentions`), not by a
pattern compiled for every document. User names and ids found once are likewise
found at their other exact, whole-token mentions, and confident places and organisations at
their other mentions written exactly so (`propagate_entities`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.cjk_names import CJK_RUN, HANGUL, cjk_name_like
from anonymizer.detection.line_language import word_in_any_language, word_zipf
from anonymizer.detection.names import (
    COMMON_ZIPF,
    is_common_non_name,
    is_known_name,
    known_names,
    romanised_given_name,
    zipf,
)
from anonymizer.detection.regex import ORG_SUFFIX, PARTICLES, word_alternation
from anonymizer.detection.wordlists import (
    COMMON_WORD_NAMES,
    NON_NAME,
    NOT_A_NAME,
    PLACES,
    TITLES_OF_ADDRESS,
)
from anonymizer.types import Detection

PERSON = "full person name"
MIN_SEED_SCORE = 0.6
PROPAGATED_SCORE = 0.55
MIN_WORD_LENGTH = 3

_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’-](?=[^\W\d_]))*")
_NEVER = NON_NAME | NOT_A_NAME | PLACES | PARTICLES | TITLES_OF_ADDRESS


def name_words(text: str, detections: Iterable[Detection]) -> tuple[set[str], set[str]]:
    """(rare words, to match in any case; common words, to match exactly as written)."""
    rare: set[str] = set()
    common: set[str] = set()
    name_like: dict[str, bool] = {}  # a word's `written_as_a_name`, read once per document
    for d in detections:
        if d.category != PERSON or d.score < MIN_SEED_SCORE:
            continue
        for word in _WORD.findall(text[d.start : d.end]):
            folded = word.casefold()
            cjk = CJK_RUN.fullmatch(folded) is not None
            if len(folded) < (2 if cjk else MIN_WORD_LENGTH) or (cjk and not cjk_name_like(folded)):
                continue
            if folded in _NEVER:
                continue
            if _common_word(folded) and folded not in COMMON_WORD_NAMES:
                if word not in name_like:
                    name_like[word] = written_as_a_name(text, word)
                if name_like[word]:
                    common.add(word)  # "Rami", "Rommel": names missing from the name list
                continue
            if folded in COMMON_WORD_NAMES or (
                word_in_any_language(folded) and not is_known_name(folded)
            ):  # "Saldo", "Chirurgie" (words of another language) spread as written only
                if word[:1].isupper() and not word.isupper():
                    common.add(word)
            else:
                rare.add(folded)
    return rare, common


def _common_word(folded: str) -> bool:
    """A common English word and nobody's name; a hyphenated word only when each of its parts
    is one ("jin-woo" is a name, though wordfreq rates the pair as frequent as its parts)."""
    if "-" in folded:
        if romanised_given_name(folded):
            return False
        return all(is_common_non_name(part) for part in folded.split("-") if part)
    return is_common_non_name(folded)


# A single-word name joined to a person by "+", "&" or "and" ("hemi + losa", "Tavita and
# mose"): a name the name list knows, that is no word of English or another language we read.
_JOINED_AFTER = re.compile(
    r"[ \t]*(?:\+|&|and|und|et|og|och|en|y|e)[ \t]+([^\W\d_][\w-]{1,30})(?![\w@-]|\.\w)"
)
_JOINED_BEFORE = re.compile(
    r"(?<![\w@.'’-])([^\W\d_][\w'’-]{1,30})[ \t]+(?:\+|&|and|und|et|og|och|en|y|e)[ \t]*$"
)


def _joinable_name(word: str) -> bool:
    folded = word.casefold()
    return (
        len(folded) >= MIN_WORD_LENGTH
        and folded not in _NEVER
        and is_known_name(folded)
        and not _common_word(folded)
        and not word_in_any_language(folded)
    )


def joined_names(text: str, people: Sequence[Detection]) -> list[Detection]:
    """One-word names joined to a found person by "+", "&" or "and" ("hemi + losa")."""
    taken = {(d.start, d.end) for d in people}
    spans = set()
    for d in people:
        if d.category != PERSON:
            continue
        after = _JOINED_AFTER.match(text, d.end, min(len(text), d.end + 40))
        if after and _joinable_name(after.group(1)):
            spans.add(after.span(1))
        before = _JOINED_BEFORE.search(text, max(0, d.start - 40), d.start)
        if before and _joinable_name(before.group(1)):
            spans.add(before.span(1))
    return [
        Detection(
            s, e, PERSON, placeholder_for(PERSON), "propagation", PROPAGATED_SCORE, "joined_name"
        )  # fmt: skip
        for s, e in sorted(spans - taken)
    ]


_APOSTROPHES = "'’"

# A word more frequent than this in English is a word wherever it is capitalised ("Mere",
# "Tee"); below it, a name the name list lacks ("Rami", "Anil") is told by how it is written.
NAME_LIKE_MAX_ZIPF = 3.5
MIN_NAME_LIKE_LENGTH = 4  # shorter capitalised words are titles and codes ("Smt.", "Rev")
_WORD_BEFORE = re.compile(r"([^\W\d_]+),?[ ]+$")


def written_as_a_name(text: str, word: str) -> bool:
    """The document writes the capitalised word only capitalised, at least once after a
    lower-case word of its sentence ("borrow from Rami's"): a name, whatever its frequency,
    where a word would be written in lower case somewhere ("the salesperson")."""
    if (
        len(word) < MIN_NAME_LIKE_LENGTH
        or not (word[:1].isupper() and word[1:].islower())
        or zipf(word.casefold()) >= NAME_LIKE_MAX_ZIPF
    ):
        return False
    mid_sentence = False
    for m in re.finditer(rf"(?<![\w'’-]){re.escape(word)}(?!\w)", text, re.IGNORECASE):
        if m.group() != word:
            return False
        if not mid_sentence:
            before = _WORD_BEFORE.search(text, max(0, m.start() - 40), m.start())
            mid_sentence = before is not None and before.group(1).islower()
    return mid_sentence


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
    longest = max(map(len, words), default=0)
    tokens.update(
        t[:i]
        for t in [t for t in tokens if "'" in t or "’" in t]
        for i in _apostrophes_in(t, longest)
    )
    return words & tokens


def _apostrophes_in(token: str, longest: int) -> list[int]:
    """Where the token has an apostrophe, up to offset `longest`: a part longer than every
    word sought cannot be one (and "a's" repeated 60,000 times is one token)."""
    return [i for i, c in enumerate(token[: longest + 1]) if c in _APOSTROPHES]


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
    longest_word = max(map(len, present))
    for token in _WORD.finditer(haystack):
        word, start = token.group(), token.start()
        for end in _ends_to_try(word, start, longest_word):
            if haystack[start:end] in present and _starts_a_word(text, start):
                if _ends_a_word(text, end):
                    longest[start] = end  # the ends are tried longest first
                    break
    return list(longest.items())


def _ends_to_try(word: str, start: int, longest: int) -> list[int]:
    """The token's end, then the end of each part before an apostrophe no longer than
    `longest`, longest first."""
    ends = [start + len(word)]
    if "'" in word or "’" in word:
        ends += [start + i for i in reversed(_apostrophes_in(word, longest)) if i > 0]
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


# An article or preposition elided before a name ("d'Ilyas", "l'Anna", "dell'Aquila").
_ELISION = re.compile(r"(?:[cdjlmnst]|qu|dell|all|nell|dall|sull)['’]")
MIN_INFLECTED_STEM = 4
MAX_ENDING = 3
# Case endings of the inflecting languages a name takes without an apostrophe: Slavic
# (Kateryny, Tarasovi, Olegiem, Тарасе, Тарасом), Finnish (Katerynan, -lle, -sta),
# Hungarian (-nak, -val, -ban) and Turkish without the apostrophe; not "-son" (Aaronson).
_CASE_ENDINGS = frozenset(
    "a e i n o s t u y ą ę ä ó ú ovi evi ego emu owi iem om em ou ie ej oj"
    " lle lla llä sta stä ssa ssä lta ltä ksi na nä aa ää an än en"
    " nak nek val vel ban ben hoz hez höz nál nél tól től ért"
    " ın in un ün ya ye yı yi da de ta te"
    " а е и у ю ы я ом ем ой ей ою ею ым им ові еві".split()
)


def inflected_mentions(text: str, rare: set[str]) -> list[tuple[int, int]]:
    """Mentions of the rare name words after an elided article ("d'Ilyas") or with a case
    ending of up to three lower-case letters that makes no common word ("Katerynan",
    "Тарасе"), and of names in Chinese, Japanese or Korean script inside the words they
    are written in, without spaces ("弟の拓海は", "서윤이")."""
    if not rare:
        return []
    folded = _fold_same_length(text)
    parts: dict[str, tuple[int, int] | None] = {}  # each distinct token read once
    found = []
    for match in _WORD.finditer(folded):  # one pass, however many names and forms
        token = match.group()
        if token not in parts:
            parts[token] = _inflected_part(token, rare)
        part = parts[token]
        if part is None:
            continue
        skip, end_trim = part
        start, end = match.span()
        if _starts_a_word(text, start) and _ends_a_word(text, end):
            ending = text[end - end_trim : end]
            if text[start + skip].isupper() and ending == ending.lower():
                found.append((start + skip, end))  # "Katerynan", not "małoletnich"
    return found + _cjk_mentions(text, {w for w in rare if CJK_RUN.fullmatch(w)})


def _inflected_part(token: str, rare: set[str]) -> tuple[int, int] | None:
    """(characters of an elided article to skip, length of the case ending) where the token
    is a rare name word so written; None otherwise (or when it is the word itself)."""
    skip = 0
    elided = _ELISION.match(token)
    if elided and elided.end() < len(token):
        skip = elided.end()
        if token[skip:] in rare:
            return skip, 0
    word = token[skip:]
    for k in range(1, MAX_ENDING + 1):
        stem = word[:-k]
        if len(stem) >= MIN_INFLECTED_STEM and stem in rare and word[-k:] in _CASE_ENDINGS:
            if not word_in_any_language(word) and zipf(word) < COMMON_ZIPF:
                return skip, k
    return None


MAX_CJK_NAME = 6  # longer runs are spans the model read wrongly, not names


def _cjk_mentions(text: str, words: set[str]) -> list[tuple[int, int]]:
    """Every occurrence of the names written in CJK script inside longer runs ("弟の拓海は"),
    in Korean at the start of a word (before its particle: "서윤이"): the longest name at
    each offset of each run, in one pass over the runs."""
    words = {w for w in words if len(w) <= MAX_CJK_NAME}
    if not words:
        return []
    lengths = sorted({len(w) for w in words}, reverse=True)
    firsts = {w[0] for w in words}
    found = []
    for run in CJK_RUN.finditer(text):
        for start in range(run.start(), run.end() - 1):
            if text[start] not in firsts:
                continue
            if start > run.start() and HANGUL.match(text, start) and HANGUL.match(text, start - 1):
                continue  # inside a Korean word, not at its start
            for length in lengths:
                if start + length <= run.end() and text[start : start + length] in words:
                    found.append((start, start + length))
                    break
    return found


# Endings of English and Irish pet forms built on a name's first letters ("kev" -> "kevvy",
# "Del" -> "Dels", "Sveta" from "Svetlana"), tried after the stem or after its last letter
# doubled.
DIMINUTIVE_ENDINGS = ("y", "ie", "ey", "o", "sy", "a", "i")  # no "s": "Marks", "carols"
MIN_STEM = 3
VARIANT_MAX_ZIPF = 3.5  # a variant more frequent in English is a word ("jam", "tho")
KNOWN_NAME_MAX_ZIPF = 4.9  # ... unless a known name written capitalised ("Chris", "Sam")
# Initials that notes write for something else ("NB", "PS", "GP", "A&E").
_NOT_INITIALS = frozenset(
    "nb ps pps cc re na eta aka asap fyi tbc tbd ooo pto wfh dob ni nhs gp ae ok id uk us eu"
    " hr it pm am tv pc ceo cto cfo vp mp bd od tds qds prn hb bm dv slt ot pt cbt ecg dnr"
    " ppe bmi ivf gcse roi kpi sla nda sop faq ngo".split()
)  # (clinical and office abbreviations are rare in wordfreq: the Zipf test misses them)
MAX_INITIALS_ZIPF = 3.6


def _person_names(text: str, detections: Iterable[Detection]) -> set[str]:
    """The distinct surfaces of the confident person detections."""
    return {
        text[d.start : d.end]
        for d in detections
        if d.category == PERSON and d.score >= MIN_SEED_SCORE
    }


def _given_names(names: Iterable[str]) -> set[str]:
    """The given-name word (the first) of each name, as written."""
    given = set()
    for name in names:
        words = _WORD.findall(name)
        if words and words[0].casefold() not in _NEVER:
            given.add(words[0])
    return given


def _stems(given: Iterable[str]) -> set[str]:
    """Every first part of at least `MIN_STEM` letters of the given names, folded ("kev",
    "kevi", "kevin" of "Kevin"; "tyl" ... "james" of "Tyler-James")."""
    stems = set()
    for name in given:
        for part in re.split(r"['’-]", name.casefold()):
            stems.update(part[:k] for k in range(MIN_STEM, len(part) + 1))
    return stems


def _variant_bases(word: str) -> list[str]:
    """What the word would be without a pet-form ending (and a doubled last letter)."""
    bases = [word]
    for ending in DIMINUTIVE_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= MIN_STEM:
            base = word[: -len(ending)]
            bases.append(base)
            if len(base) > MIN_STEM and base[-1] == base[-2]:
                bases.append(base[:-1])
    return bases


def _acceptable_variant(word: str) -> str | None:
    """ "rare" (match in any case), "written" (only as written, capitalised) or None for a
    word too common to be taken for a short name ("jam", "car", "Mars" in lower case)."""
    folded = word.casefold()
    if folded in _NEVER:
        return None
    capitalised = word[:1].isupper() and not word.isupper()
    known = folded in known_names()
    if folded in COMMON_WORD_NAMES:
        return None  # "Summer" (of "Summer-Rose") in "Summer Term"
    if word_zipf(folded, "en") < VARIANT_MAX_ZIPF and not word_in_any_language(folded):
        return "rare"
    if capitalised and known and word_zipf(folded, "en") < KNOWN_NAME_MAX_ZIPF:
        return "written"
    return None


def name_variants(text: str, detections: Iterable[Detection]) -> tuple[set[str], set[str]]:
    """Short and pet forms of the document's people's given names written in the same
    document (Kevin: "kev", "Kev"; kev: "kevvy"), and the initials of their full names
    ("TJ" for Tyler-James Mcbride): (words to match in any case, words to match as
    written). A form too common in English is left out (`_acceptable_variant`)."""
    names = _person_names(text, detections)
    given = _given_names(names)
    if not given:
        return set(), set()
    stems = _stems(given)
    heads = {stem[:MIN_STEM] for stem in stems}
    seeds = {name.casefold() for name in given}
    rare: set[str] = set()
    written: set[str] = set()
    for word in set(_WORD.findall(text)):
        folded = word.casefold()
        if folded[:MIN_STEM] not in heads or folded in seeds:
            continue  # (a word shorter than a stem has no head among them)
        if not any(base in stems for base in _variant_bases(folded)):
            continue
        kind = _acceptable_variant(word)
        if kind == "rare":
            rare.add(folded)
        elif kind == "written":
            written.add(word)
    written |= _initials(text, names)
    return rare, written


def _initials(text: str, names: Iterable[str]) -> set[str]:
    """Initials of the full names ("TJ", "TJM" of "Tyler-James Mcbride"; "VK" of "Vikram
    Kapoor") that the document writes as a word in capitals, and are no common abbreviation."""
    capitals = _capital_words(text)
    if not capitals:
        return set()
    found = set()
    for name in names:
        if not any(c in _NAME_SEPARATORS for c in name.strip()):
            continue  # one word: no initials to write
        words = [w for w in _WORD.findall(name) if w.casefold() not in _NEVER]
        if not words:
            continue
        parts = [p for w in words for p in re.split(r"['’-]", w) if p]
        candidates = {"".join(p[0] for p in parts)}
        first = [p for p in re.split(r"['’-]", words[0]) if p]
        candidates.add("".join(p[0] for p in first))
        if len(words) > 1:
            candidates.add(words[0][0] + words[-1][0])
        for initials in candidates:
            initials = initials.upper()
            folded = initials.casefold()
            if 2 <= len(initials) <= 3 and folded not in _NOT_INITIALS:
                if word_zipf(folded, "en") < MAX_INITIALS_ZIPF:
                    found.add(initials)
    return found & capitals


_NAME_SEPARATORS = frozenset(" -'’")


_BY_A_NUMBER = re.compile(r"\d[ ]?([A-Z]{2,3})(?![\w-])|(?<![\w'’-])([A-Z]{2,3})[ ]?\d")


def _capital_words(text: str) -> set[str]:
    """Words of two or three capitals, except those the text also writes next to a number
    (a unit or a lab value: "0.5 TJ", "HB 10.2")."""
    words = set(re.findall(r"(?<![\w'’-])[A-Z]{2,3}(?![\w-])", text))
    by_numbers = {w for pair in _BY_A_NUMBER.findall(text) for w in pair if w}
    return words - by_numbers


def speaker_words(text: str, speakers: Iterable[Detection]) -> set[str]:
    """The one-word names of chat speakers, folded, common English words included: "kev"
    speaking turn after turn is a name in this document, whatever it is elsewhere."""
    words = set()
    for d in speakers:
        found = _WORD.findall(text[d.start : d.end])
        if len(found) == 1 and len(found[0]) >= MIN_WORD_LENGTH:
            folded = found[0].casefold()
            if folded not in _NEVER and folded not in COMMON_WORD_NAMES:
                words.add(folded)
    return words


def propagate_names(
    text: str,
    detections: list[Detection],
    speakers: Iterable[Detection] = (),
    named: Iterable[Detection] = (),
) -> list[Detection]:
    """Detections for other occurrences of known name words (and of the words of
    `speakers`, chat speakers whatever the words mean elsewhere, and of `named`, one-word
    names their context proves, as written), and of their short forms and initials
    (`name_variants`) standing as a token of their own (not "olu" of an address
    "olu.bankole@..."); the input is not repeated."""
    rare, common = name_words(text, detections)
    rare |= speaker_words(text, speakers)
    common |= {
        word
        for d in named
        for word in _WORD.findall(text[d.start : d.end])
        if len(word) >= MIN_WORD_LENGTH and word.casefold() not in _NEVER
    }
    spans = name_mentions(text, rare, common) if rare or common else []
    spans += inflected_mentions(text, rare)
    variant_rare, variant_written = name_variants(text, detections)
    if variant_rare or variant_written:
        spans += [
            (start, end)
            for start, end in name_mentions(text, variant_rare, variant_written)
            if _token_starts(text, start) and _token_ends(text, end)
        ]
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
        for start, end in sorted(set(spans))
    ]


_ENTITIES = frozenset({"location", "organization"})
MIN_ENTITY_SEED = 0.75  # above the model alone on an organisation ("EcoCash", "Policie")
ENTITY_WORD_MAX_ZIPF = 3.5  # a capitalised word this common starts sentences ("Reading", "Bath")
_ORG_CORE = re.compile(rf"(.+?)[ ,]+{ORG_SUFFIX}")


def propagate_entities(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """Every other mention, written exactly so, of a place or organisation kept with
    confidence ("Kasachstan" named again three paragraphs on), and of an organisation's name
    without its legal form or kind ("Lloyds" of "Lloyds Bank")."""
    seeds: dict[str, Detection] = {}
    for d in kept:
        if d.category in _ENTITIES and d.score >= MIN_ENTITY_SEED:
            surface = text[d.start : d.end]
            core = _ORG_CORE.fullmatch(surface) if d.category == "organization" else None
            for form in (surface, core.group(1) if core else ""):
                if _spreads_as_written(form):
                    seeds.setdefault(form, d)
    if not seeds:
        return []
    spans = {(d.start, d.end) for d in kept}
    return [
        replace(
            seeds[text[start:end]],
            start=start,
            end=end,
            source="propagation",
            score=PROPAGATED_SCORE,
            rule_id="entity_propagation",
        )
        for start, end in identifier_mentions(text, set(seeds))
        if (start, end) not in spans
    ]


def _spreads_as_written(form: str) -> bool:
    """A name, not a word that a sentence may start with: several words, a rare capitalised
    word, or an abbreviation of three capitals or more that is no common one ("KZN"; not
    "PA", a state or a licence's issuer, nor "NHS")."""
    words = _WORD.findall(form)
    if not words or form != form.strip() or "\n" in form or not form[:1].isupper():
        return False
    if len(words) > 1:
        return True
    word = words[0].casefold()
    if word in _NEVER or word in _NOT_INITIALS:
        return False
    if len(word) < MIN_WORD_LENGTH:
        return False  # "PA", "MA": a state, or a licence's issuer, a board, a word
    return words[0].isupper() or zipf(word) < ENTITY_WORD_MAX_ZIPF


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
