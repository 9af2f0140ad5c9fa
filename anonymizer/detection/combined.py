"""The default detector: rules and the learned NER model, combined with context, not by union.

Structured identifiers (e-mail, phone, IBAN, card, ...) come from the regex rules, whose
checksums and layouts make them reliable on their own. The context-dependent categories
(people, organisations, places, street lines, postcodes, nationalities) are proposed by both
the rules and the NER model, and each proposal gets a score (`score_candidate`):

* its own confidence (rule confidence, or the NER label's measured precision);
* agreement: a rule and the model finding the same thing (overlapping, compatible category)
  combine as a noisy-or; a weak rule (capitalised words, "in <Place>") that the model does
  not confirm loses 0.15;
* the model's counter-evidence: where it reads the span as something that is not PII (a
  LAW, WORK_OF_ART, EVENT, PRODUCT, MONEY, DATE ...), a rule's proposal loses 0.3, and so
  does a weaker rule's where the model reads another kind of PII there; a model span that
  overlaps an identifier a rule found with checksum or layout (EIN, phone, IBAN) loses 0.5;
* the text itself: money amounts, short acronyms ("NI", "HR"), field labels before a colon
  ("Desk:", "ZIP:"), digits inside a name, a "name" made only of common English words that
  are nobody's name ("salesperson", "big"; `names.py`); a run in CJK script made of a known
  surname and given name gains 0.2 ("林冠宇"; `cjk_names.py`).

Runs of words in capitals are also read by the model from a case-normalised copy
(`casing.py`), and the places after a street line are taken piece by piece (`address_tail`).
Proposals scoring at least `THRESHOLD` are kept, and names kept with a score of at least
`propagation.MIN_SEED_SCORE` are propagated to their other mentions (and their short forms
and initials), as are confident places and organisations (`propagate_entities`) and the
initials a text defines for a kept organisation ("Allied Irish Banks (AIB)",
`defined_acronyms`). Presidio is not on
this path (it stays available as the `presidio` detector and as the benchmark baseline).
Long documents are processed in overlapping chunks (`chunking.py`) in bounded memory.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import replace

from anonymizer.detection.casing import cased_copy, mapped_back
from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.chunking import detect_in_chunks
from anonymizer.detection.cjk_names import cjk_full_name
from anonymizer.detection.cv_lines import cv_employers
from anonymizer.detection.gazetteer import (
    SMALL_PLACE_RULE,
    city_countries,
    city_detections,
    city_names,
    small_place_countries,
)
from anonymizer.detection.idspans import classify_spans
from anonymizer.detection.learned import NOT_PII_SOURCE, LearnedNerDetector
from anonymizer.detection.line_language import (
    COMMON_ZIPF,
    COUNTRIES_SPEAKING,
    common_foreign_word,
    line_language,
    load_word_lists,
    word_in_any_language,
    word_zipf,
)
from anonymizer.detection.names import is_common_non_name, is_known_name, known_names
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.detection.propagation import (
    MIN_SEED_SCORE,
    identifier_mentions,
    joined_names,
    propagate_entities,
    propagate_identifiers,
    propagate_names,
)
from anonymizer.detection.regex import (
    AGE_UNIT,
    NUMBER_WORD,
    PARTICLES,
    STREET_SUFFIX,
    UNIT_WORD,
    RegexDetector,
)
from anonymizer.detection.table_columns import non_pii_keyed_numbers, table_column_detections
from anonymizer.detection.view import detection_view
from anonymizer.detection.wordlists import FIELD_LABELS, NEVER_A_NAME_ALONE, TITLES_OF_ADDRESS
from anonymizer.types import Detection

THRESHOLD = 0.5
# Rules whose context says the word is a name, whatever it means elsewhere: "Mere (goes by
# Mez)", "Tendai (Tee to all of us)".
_NAMED_BY_ITS_CONTEXT = frozenset({"person_before_nickname", "person_nickname_in_brackets"})
_GAZETTEER_RULES = frozenset({"city_gazetteer", SMALL_PLACE_RULE})
WEAK_RULE = 0.7  # rules below this confidence need the model's agreement
WEAK_ALONE_PENALTY = 0.15
COUNTER_EVIDENCE_PENALTY = 0.3
CONFLICT_PENALTY = 0.3
AGREED_ACRONYM_RELIEF = 0.2
STRUCTURED_OVERLAP_PENALTY = 0.5
STRONG_RULE = 0.9
FOREIGN_WORDS_PENALTY = 0.4
NO_STREET_PENALTY = 0.35
CJK_FULL_NAME_BONUS = 0.2
RULE_CHUNK_CHARS = 200_000
RULE_CHUNK_OVERLAP = 16_000  # longer than the longest rule match (a PEM key block)

CONTEXTUAL = frozenset(
    {
        "full person name",
        "organization",
        "location",
        "street address",
        "postal code",
        "nationality or group",
    }
)
_PLACE = frozenset({"location", "street address", "postal code"})
_MONEY = re.compile(
    r"(?i)(?:\b(?:EUR|USD|GBP|CHF|JPY|SEK|NOK|DKK|PLN|CAD|AUD)\b|[€$£¥])\s*[\d.,]+|[\d.,]+\s*(?:€|\b(?:EUR|USD|GBP|CHF)\b)"
)
_ACRONYM = re.compile(r"[A-Z&]{1,3}")
_HAS_DIGIT = re.compile(r"\d")
_CLOCK_TIME = re.compile(r"\b\d{1,2}:\d{2}\b")
_NAME_CUE = re.compile(
    r"(?i)(?:\b(?:dear|hi|hello|hey|thanks|mr|mrs|ms|mx|dr|prof|name|patient|client|signed"
    r"|regards|from|my (?:wife|husband|son|daughter|mother|father|friend|partner)))"
    r"[\s.,:]*$"
)


def compatible(a: str, b: str) -> bool:
    """Same category, or two parts of an address (place, street line, postcode)."""
    return a == b or (a in _PLACE and b in _PLACE)


LONG_COMPOUND_CHARS = 12
_LABEL_TAIL = re.compile(
    r"(?![ ](?:said|says|wrote|writes|asked|asks|replied|replies|added|adds|texted|commented"
    r"|posted|messaged|here|again|says|thinks|wants)\b)(?:[ ][a-zà-ÿ][\w-]{1,20}){1,2}[ ]?:(?!//)"
)
_MAIL_HEADER_REST = re.compile(r":[ \t]*[^<\n]{0,60}<[^>\s]+@")


def looks_like_field_label(surface: str) -> bool:
    """A form's field label rather than a chat speaker: a word of a language we read that is
    no name ("De", "Entidade"), a long compound ("Religionsbekenntnis"), or words with a
    lower-case word after the first ("Estado civil", "Odometer reading")."""
    words = surface.split()
    if len(words) == 1:
        word = words[0]
        return not is_known_name(word) and (
            word_in_any_language(word) or len(word) >= LONG_COMPOUND_CHARS
        )
    return any(w[:1].islower() and w not in PARTICLES for w in words[1:])


def text_penalty(text: str, d: Detection, cased: bool = True) -> float:
    """How much the span's own text argues against it being PII of its category."""
    surface = text[d.start : d.end]
    penalty = lower_case_penalty(surface, d) if cased else 0.0
    if d.category in ("organization", "full person name", "location") and _MONEY.search(surface):
        penalty += 0.6
    if (
        d.category != "postal code"
        and d.rule_id not in ("state_before_zip", "bank_holding_account", "financial_institution")
        and _ACRONYM.fullmatch(surface)
    ):
        penalty += 0.4
    line_start = text.rfind("\n", 0, d.start) + 1
    capitalised_name = d.category == "full person name" and surface[:1].isupper()
    label_tail = capitalised_name and _LABEL_TAIL.match(text, d.end)
    if label_tail and not text[line_start : d.start].strip() and not is_known_name(surface):
        penalty += 0.5  # "Estado civil:", "Odometer reading:" with a lower-case word before ":"
    elif text[d.end : d.end + 1] == ":" and not text[line_start : d.start].strip():
        line_end = text.find("\n", d.end)
        rest = text[d.end : line_end if line_end >= 0 else len(text)]
        if surface.lower() in FIELD_LABELS or _MAIL_HEADER_REST.match(rest):
            penalty += 0.6  # "De: Mariela Quiroga <mariela@…>" is an e-mail header
        elif len(rest) < 30 and _HAS_DIGIT.search(rest) and not is_known_name(surface):
            penalty += 0.5  # "Gesamtbetrag: 2.380,00 €" is a field, not a speaker
        elif looks_like_field_label(surface):
            penalty += 0.5
    if d.category == "full person name" and any(c.isdigit() for c in surface):
        penalty += 0.5
    if d.source == "ner" and d.category in _TRIMMED and not any(c.isalpha() for c in surface):
        penalty += 0.6  # "&", "👍", "──────"
    words = re.findall(r"[^\W\d_]+", surface)
    if (
        d.category == "full person name"
        and words
        and all(map(is_common_non_name, words))
        and d.rule_id not in _NAMED_BY_ITS_CONTEXT
        and not chat_speaker(text, d)
    ):
        penalty += 0.35
    if d.category in _TRIMMED and words and all(w.casefold() in NEVER_A_NAME_ALONE for w in words):
        penalty += 0.6  # "Beijinhos,", "Appa is home", "Reception, Riverside Vets"
    if d.category == "full person name" and len(surface.split()) > 4:
        penalty += 0.5  # a clause, not a name
    if d.category == "nationality or group" and _LANGUAGE_CONTEXT.search(
        text, max(0, d.start - 60), d.start
    ):
        penalty += 0.5  # "Languages: English, Irish"
    if d.category == "nationality or group" and _STATE_AFTER.match(text, d.end):
        penalty += 0.5
    if d.category == "street address" and d.source == "ner" and not _HAS_DIGIT.search(surface):
        if len(words) < 2:
            penalty += 0.35  # "ext.", "Nr."
    if (
        d.category == "street address"
        and d.source == "ner"
        and (not words or _CLOCK_TIME.search(surface))
    ):
        penalty += 0.5  # "01/02      01/02" in a statement, "Lisbon 22:35 → Porto 05:50"
    if d.category in ("location", "organization") and _CURRENCY_WORD.fullmatch(surface):
        penalty += 0.6  # "грн", "RM": a currency
    if d.category == "postal code" and _CURRENCY_AFTER.match(text, d.end):
        penalty += 0.5  # "6500 грн", "4000 zł": a price
    if d.source == "ner" and d.category in _NUMBERED_PLACE and is_measure(text, d):
        penalty += 0.5
    if d.category in _TRIMMED and _CODE_NAME.fullmatch(surface):
        penalty += 0.5  # "AssertionError", "Traceback" in a pasted log
    return penalty


_ADDRESS_WORD = r"(?:St|Ste|Mt|Ft)\.|[A-ZÀ-ÖØ-Þ][\w'’-]*[^\W\d_]|[A-ZÀ-ÖØ-Þ]{2}"
_PLACE_PARTICLE = r"de|del|da|do|di|la|le|am|an|upon|on"
_CODE_NAME = re.compile(r"Traceback|[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Error|Exception|Warning)")


_NUMBERED_PLACE = frozenset({"street address", "postal code"})
# A currency alone, that no place or company is called ("грн"; not "Rand", "Dong", "Lei").
_CURRENCY_WORD = re.compile(r"(?i:грн|гривень|руб(?:лей)?|zł|pln|uah|eur|usd|gbp|kč|czk|ksh)")
_CURRENCY_AFTER = re.compile(
    r"[ ]?(?:[€$£¥₴₽₹₦₱₩]|(?i:грн|гривень|руб(?:лей)?|zł|zl|pln|uah|eur|usd|gbp|chf|kč|czk|sek"
    r"|nok|dkk|huf|ron|lei|inr|rs|ngn|naira|ghs|cedis?|ksh|kes|egp|zar|rand|aud|nzd|cad|brl"
    r"|mxn|php|myr|rm|sgd|idr|rp|thb|baht|vnd|đ|dong|pesos?|euros?|dollars?|pounds?))"
    r"(?![^\W\d_])"
)
# A quantity with its unit ("Atorvastatin 40 mg", "9.2 cm", "3000ms", "MwSt 7%"); not years,
# which make an age ("56 yrs").
_MEASURE = re.compile(
    r"\d(?:[.,]\d+)?[ ]?(?:(?:mg|mcg|µg|g|kg|ml|mL|l|cm|mm|km|ms|kWh|Wh|kb|MB|GB)"
    r"(?![^\W\d_])|%)"
)


def is_measure(text: str, d: Detection) -> bool:
    """A model street line or postcode whose number carries a unit is a quantity in a
    prescription, a lab result or a receipt, not an address."""
    end = min(len(text), d.end + 4)
    return any(m.start() < d.end for m in _MEASURE.finditer(text, d.start, end))


# A state's institution that a nationality adjective names ("the Nigerian embassy", "Polish
# authorities"): a country's, not a person's group. Not documents: "KYC level 2 (Nigerian
# passport ...)" says the holder's nationality.
_STATE_AFTER = re.compile(
    r"(?i)[ ](?:embassy|consulate|high[ ]commission|government|authorities|ministry"
    r"|armed[ ]forces|army|navy|parliament|state[ ]media)\b"
)
_LANGUAGE_CONTEXT = re.compile(
    r"(?i)(?:\b(?:languages?|speaks?|spoken|speaking|fluent|translat\w*|subtitle\w*|written in"
    r"|native speaker|interpret\w*)\b[^.\n]{0,40}|\b(?:in|into)[ ])$"
)


def score_candidate(
    text: str,
    d: Detection,
    rules: Sequence[Detection],
    ner: Sequence[Detection],
    not_pii: Sequence[Detection],
    cased: bool = True,
) -> float:
    """The combined score of one proposal (see the module docstring); `cased`: the document
    is written with capitals (see `is_cased`)."""
    if d.category not in CONTEXTUAL:
        return d.score
    others = ner if d.source != "ner" else [r for r in rules if r.category in CONTEXTUAL]
    agreeing = [o for o in others if o.overlaps(d) and compatible(o.category, d.category)]
    score = d.score
    if agreeing:
        best = max(o.score for o in agreeing)
        score = 1 - (1 - score) * (1 - best)
    elif d.source != "ner" and d.score < WEAK_RULE:
        score -= WEAK_ALONE_PENALTY
    if d.source != "ner" and any(_covers_most(n, d) for n in not_pii):
        score -= COUNTER_EVIDENCE_PENALTY
    elif d.source != "ner" and d.score < STRONG_RULE and not agreeing:
        if any(o.overlaps(d) and not compatible(o.category, d.category) for o in ner):
            score -= CONFLICT_PENALTY  # "Alejandra, Lynn and Mariah" are people, not a firm
    if d.source == "ner" and any(
        r.overlaps(d) and r.category not in CONTEXTUAL and r.score >= 0.75 for r in rules
    ):
        score -= STRUCTURED_OVERLAP_PENALTY  # "EIN 58" read as an address cuts "58-1458305"
    if d.category == "full person name" and _NAME_CUE.search(text, max(0, d.start - 30), d.start):
        score += 0.1
    if d.rule_id == "person_name_caseless_script" and cjk_full_name(text[d.start : d.end]):
        score += CJK_FULL_NAME_BONUS  # a known surname and given name: "林冠宇", "石井 稔"
    if d.source == "ner" and not agreeing and foreign_words_span(text, d):
        score -= FOREIGN_WORDS_PENALTY
    if d.rule_id in _GAZETTEER_RULES and not agreeing and common_word_of_its_line(text, d):
        score -= FOREIGN_WORDS_PENALTY
    if d.source == "ner" and not agreeing and not_a_street_line(text, d):
        score -= NO_STREET_PENALTY
    if agreeing and d.category == "organization" and _ACRONYM.fullmatch(text[d.start : d.end]):
        score += AGREED_ACRONYM_RELIEF  # the rule and the model both read "DBS" as a firm
    return score - text_penalty(text, d, cased)


# A street type as a word ("Road", "rue", "ul.") or at the end of a compound street name
# ("Lindenallee", "Kungsgatan", "Hauptstr."), a building, box or house name word.
_STREET_WORD = re.compile(
    rf"(?i:\b{STREET_SUFFIX}\b)|(?i:\b(?:rue|calle|c/|avenida|avda|paseo|carrer|camino|ronda"
    r"|viale|piazza|corso|vicolo|strada|rua|praça|travessa|alameda|estrada|ulica|ul|aleja"
    r"|chemin|allée|impasse|quai|cours|largo|rte|jr|av|box|postfach|apartado|caixa|house"
    r"|cottage|farm|building|block|tower|court|hall|barn|apartments|residences?|mansions"
    r"|ул|улица|пр|проспект|пер|вул)\b)"
    r"|(?i:(?:stra(?:ß|ss)e|str\.|weg|gasse|allee|platz|ring|damm|ufer|chaussee|gatan|vägen"
    r"|gränd|gade|vej|straat|laan|gracht|kade|plein|steeg|utca|tie|katu)\b)"
)


_UNIT_WORDS = frozenset("flat apt apartment unit suite floor fl room rm lgh whg wohnung".split())


def is_numbered_street(text: str, d: Detection) -> bool:
    """The span has a street, building or box word and a number."""
    return bool(
        _STREET_WORD.search(text, d.start, d.end) and _HAS_DIGIT.search(text, d.start, d.end)
    )


def not_a_street_line(text: str, d: Detection) -> bool:
    """A model street line with no street type, building or box word, made only of common
    words (of English or of its line's language) and numbers, is a label or a table cell
    ("Kasse 2", "line 211", "coach 3", "Seats 24A"), not a street ("Onšovecká 269")."""
    if d.category != "street address" or _STREET_WORD.search(text, d.start, d.end):
        return False
    words = [w for w in _ALPHA_WORD.findall(text, d.start, d.end) if len(w) > 1]
    if not words or any(w.casefold() in _UNIT_WORDS for w in words):
        return False
    language = language_around(text, d) or "en"
    return all(
        word_zipf(w.casefold(), "en") >= COMMON_ZIPF or common_foreign_word(w, language)
        for w in words
    )


_PLACE_PREPOSITION_BEFORE = re.compile(
    r"(?i:\b(?:nach|in|im|aus|von|bei|en|à|a|au|de|desde|hacia|em|na|no|do|da|w|we|z|ze"
    r"|naar|uit|från|till|i|fra|til|din|la)[ ])$"
)


def common_word_of_its_line(text: str, d: Detection) -> bool:
    """A one-word span that is a common word of its (non-English) line's language and nobody's
    name, unless it is a city of a country speaking that language: the city list's "Hola"
    (Kenya), "Para" or "Registro" (Brazil) in a Spanish line, "Ende" (Indonesia) in German."""
    word = text[d.start : d.end]
    if not word.isalpha() or _PLACE_PREPOSITION_BEFORE.search(text, max(0, d.start - 8), d.start):
        return False  # "nach Essen", "en Como": a place after all
    language = language_around(text, d)
    if language in (None, "en") or city_countries().get(word, frozenset()) & (
        COUNTRIES_SPEAKING.get(language, frozenset())
    ):
        return False  # "Graz" is frequent in German text because it is an Austrian city
    return common_foreign_word(word, language)


def language_around(text: str, d: Detection) -> str | None:
    """The language of the span's line, or where the line is too short to tell ("Geplaatst
    door Femke", "Pago: tarjeta"), of the text around it."""
    language = line_language(_line_around(text, d))
    if language is None:  # fixed passages, so that spans close together share one look-up
        block = d.start // PASSAGE_CHARS * PASSAGE_CHARS
        low, high = max(0, block - PASSAGE_CHARS), block + 2 * PASSAGE_CHARS
        language = line_language(text[low:high])
    return language


PASSAGE_CHARS = 400


def _line_around(text: str, d: Detection) -> str:
    low = max(text.rfind("\n", 0, d.start) + 1, d.start - LINE_CONTEXT)
    high = text.find("\n", d.end)
    return text[low : min(len(text) if high < 0 else high, d.end + LINE_CONTEXT)]


LINE_CONTEXT = 300
_MAJORITY_CHECKED = frozenset({"full person name", "location"})
_ALL_CHECKED = frozenset({"organization", "street address"})


def foreign_words_span(text: str, d: Detection) -> bool:
    """A model span in a non-English line made of that language's common words, not names:
    "Bitte" or "Heizkosten" in a German post, "Fecha de" in a Spanish form. More than half
    the words of a person or place, every word of an organisation or street line; words in
    capitals ("FARMACIA SAN ROCCO", "GLS Bank") and double-barrelled words count as names."""
    if d.category not in _MAJORITY_CHECKED and d.category not in _ALL_CHECKED:
        return False
    if d.category == "street address" and is_numbered_street(text, d):
        return False  # "Av. del Puerto 112" is Spanish words and a street
    found = [
        m
        for m in _ALPHA_WORD.finditer(text, d.start, d.end)
        if m.group().casefold() not in _CONNECTORS and m.group() not in PARTICLES
    ]
    if not found:
        return False
    language = language_around(text, d)
    if language in (None, "en"):
        return False
    cities = city_names()
    words = [m.group() for m in found]
    common = sum(
        not w.isupper()
        and "-" not in w
        and w not in cities  # "Abidjan" is frequent in French text, and a place
        and not (language not in _NOUNS_CAPITALISED and _capitalised_mid_sentence(text, m))
        and common_foreign_word(w, language)
        for w, m in zip(words, found, strict=True)
    )
    if d.category in _ALL_CHECKED:
        return common == len(words)
    return 2 * common > len(words)


_ALPHA_WORD = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*")
_NOUNS_CAPITALISED = frozenset({"de"})  # German capitalises every noun
_LOWER_WORD_BEFORE = re.compile(r"[^\W\d_]*[a-zß-ÿ][,;]?[ ]+$")


def _capitalised_mid_sentence(text: str, word: re.Match[str]) -> bool:
    """A capitalised word right after a lower-case one ("nee sorry Kees"): in most languages
    a name, whatever else the word means."""
    return word.group()[0].isupper() and bool(
        _LOWER_WORD_BEFORE.search(text, max(0, word.start() - 40), word.start())
    )


_CONNECTORS = frozenset(
    "of and the for at on in & und für am an im zu sur en et e y des du la le les del della"
    " dei do dos das da di de van von der den ter ten".split()
)
CASED_SHARE = 0.08
# Lower-case nationalities and religions are normal ("she's pakistani"); postcodes have none.
_PHRASE_CHECKED = frozenset({"full person name", "organization", "location", "street address"})


def is_cased(text: str) -> bool:
    """The text capitalises at least a few of its words (most writing does; a document typed
    all in lower case does not, and there lower-case names and places are normal)."""
    words = _ALPHA_WORD.findall(text[:20_000])
    return bool(words) and sum(w[0].isupper() for w in words) >= CASED_SHARE * len(words)


def lower_case_penalty(surface: str, d: Detection) -> float:
    """In a capitalised document, a model span made mostly of lower-case words that are not
    names is a phrase ("sie wohnt selbst im EG", "atorvastatin 80"), not a name or place."""
    if d.source != "ner" or d.category not in _PHRASE_CHECKED:
        return 0.0
    content = [
        m.group()
        for m in _ALPHA_WORD.finditer(surface)
        if m.group().casefold() not in _CONNECTORS and not surface.startswith(".", m.end())
    ]  # "д." and "str." are abbreviations, not words of a phrase
    lower = [
        w
        for w in content
        if w.islower() and not (d.category == "full person name" and is_known_name(w))
    ]
    if len(lower) >= 2 and 2 * len(lower) > len(content):
        return 0.45
    if len(content) == 1 and lower and d.category != "street address":  # "flat 22" is one
        if len(lower[0]) <= 2 or is_common_non_name(lower[0]):
            return 0.35  # "na", "church"
    if len(content) == 1 and d.category == PERSON and content[0].islower():
        if not is_known_name(content[0]) and word_in_any_language(content[0]):
            return 0.35  # "else", "tab", "alleen" in a capitalised text: nobody's name
    return 0.0


def _covers_most(a: Detection, b: Detection) -> bool:
    inter = min(a.end, b.end) - max(a.start, b.start)
    return inter > 0 and inter >= 0.6 * (b.end - b.start)


class SpanIndex:
    """Detections sorted by start, to find those overlapping a span without a full scan
    (a 2 MB document has tens of thousands of proposals)."""

    LONG = 500

    def __init__(self, detections: Sequence[Detection]) -> None:
        short = sorted((d for d in detections if d.end - d.start <= self.LONG), key=_start)
        self.items = short
        self.starts = [d.start for d in short]
        # No short item starts further back than its own length before a span it overlaps.
        self.window = max((d.end - d.start for d in short), default=0)
        self.long = [d for d in detections if d.end - d.start > self.LONG]

    def overlapping(self, span: Detection) -> list[Detection]:
        low = bisect_left(self.starts, span.start - self.window)
        high = bisect_left(self.starts, span.end)
        found = [d for d in self.items[low:high] if d.end > span.start]
        return found + [d for d in self.long if d.overlaps(span)]


def _start(d: Detection) -> int:
    return d.start


_AGE_UNIT_AFTER = re.compile(AGE_UNIT, re.IGNORECASE)


def with_age_unit(text: str, d: Detection) -> Detection:
    """An age span extended over its attached unit ("61-year-old", "62 years old"), as the
    annotation guideline marks ages. The rules' ages already carry it; this holds the same
    boundary for any proposal that marks the number alone."""
    if d.category != "age":
        return d
    unit = _AGE_UNIT_AFTER.match(text, d.end)
    return replace(d, end=unit.end()) if unit else d


_TRIMMED = frozenset({"full person name", "organization", "location"})
_EDGE_PUNCTUATION = ".,;:!?-–—()[]\"'"
PERSON = "full person name"
# Titles and honorifics stay outside a name (the annotation guideline): "Dr [[Okafor]]",
# "[[Rohit]] bhaiya", "[[Sharma]] ji".
_TITLE_WORDS = (
    frozenset(
        "pt patient mr mrs ms mx miss dr prof sir dame rev herr frau fr hr mme mlle sr sra srta"
        " dott dott.ssa sig sig.ra avv ing pan pani sgt pc dc ds insp cpt capt lt col gen bey abi"
        " abla hanım hanim efendi bhaiya bhai didi ji sahib saheb san sama kun chan tita tito lola"
        " lolo kuya ate auntie aunty uncle mummy mum mom nani dadi grandpa grandma bhabhi sheriff"
        " judge officer constable detective sergeant inspector cllr councillor dci dsu pcso pc dc"
        " agent sirs madam madame".split()
    )
    | TITLES_OF_ADDRESS
    | frozenset("오전 오후 午前 午後 上午 下午".split())
)  # a chat line's "한도윤 오후 9:20": AM, PM
_NON_SPACE = re.compile(r"\S+")


def _not_a_name_word(word: str, person: bool = True) -> bool:
    """Punctuation, a title (for people) or a common lower-case word that is nobody's name."""
    bare = word.strip(_EDGE_PUNCTUATION)
    if not bare or (person and bare.casefold() in _TITLE_WORDS):
        return True
    return bare.islower() and bare not in PARTICLES and is_common_non_name(bare)


def _foreign_lower_word(word: str) -> bool:
    """A lower-case word that is no particle and nobody's name, next to a capitalised name:
    "rahi thi Vikas", "freund Lukas kommt" (any language, unlike `is_common_non_name`)."""
    bare = word.strip(_EDGE_PUNCTUATION)
    return bare.islower() and bare not in PARTICLES and not is_known_name(bare)


def _name_like(text: str, words: list[tuple[int, int]], capitalised: bool) -> bool:
    """A piece of a cut person span worth keeping: capitalised, or (in a span written all in
    lower case) made of known names."""
    if any(text[start].isupper() for start, _ in words):
        return True
    return not capitalised and is_known_name(text[words[0][0] : words[-1][1]])


def _lone_lower_word(surface: str) -> bool:
    """One lower-case word that is no title: nothing in it was swallowed."""
    return surface.isalpha() and surface.islower() and surface not in _TITLE_WORDS


def trim_span(text: str, d: Detection) -> list[Detection]:
    """A name, organisation or place without the common lower-case words and titles it
    swallowed ("Pt Ana Costa", "jane - new", "Blanchard is overdue"); a person span is also
    cut where such a word stands inside it ("Matthew joined Gilbert" is two names)."""
    if d.category not in _TRIMMED:
        return [d]
    words = [(m.start(), m.end()) for m in _NON_SPACE.finditer(text, d.start, d.end)]
    if (
        d.source == "ner"
        and d.category == PERSON
        and len(words) == 1
        and _lone_lower_word(text[d.start : d.end])
    ):
        return [d]  # the model's whole reading ("kev"); the score weighs it (`lower_case_penalty`)
    if d.rule_id == "person_speaker" and len(words) == 1 and chat_speaker(text, d):
        return [d]  # "13/05/2024, 08:30 - kev: ..." twice: a speaker, whatever the word means
    if d.category != PERSON:
        if not any(text[start].isupper() for start, _ in words):
            return [d]  # "united states" in lower-case text is still a place
        while words and _not_a_name_word(text[words[0][0] : words[0][1]], person=False):
            words.pop(0)
        while words and _not_a_name_word(text[words[-1][0] : words[-1][1]], person=False):
            words.pop()
    capitalised = any(  # a title-case word that is not a title: "Vikas", not "Dr" or "MRN"
        text[start].isupper()
        and not text[start:end].isupper()
        and not _not_a_name_word(text[start:end])
        for start, end in words
    )
    pieces: list[list[tuple[int, int]]] = [[]]
    for start, end in words:
        word = text[start:end]
        if d.category == PERSON and (
            _not_a_name_word(word)
            or (capitalised and _foreign_lower_word(word))
            or _HAS_DIGIT.search(word)  # "Kofi, 14" is a name and an age
        ):
            pieces.append([])
        else:
            pieces[-1].append((start, end))
    pieces = [piece for piece in pieces if piece]
    if len(pieces) > 1:  # of "nostro assistito, il sig. Luca Esposito" only the name is kept
        pieces = [piece for piece in pieces if _name_like(text, piece, capitalised)]
    out = []
    for piece in pieces:
        start, end = piece[0][0], piece[-1][1]
        while end > start and text[end - 1] in ",;:":
            end -= 1
        out.append(d if (start, end) == (d.start, d.end) else replace(d, start=start, end=end))
    return out


def _proposals(text: str, detections: list[Detection]) -> list[Detection]:
    out = []
    for d in detections:
        if d.source == NOT_PII_SOURCE or (d.category not in CONTEXTUAL and d.category != "age"):
            out.append(d)  # nothing to split, cut or extend
        else:
            for piece in split_at_gaps(text, d):
                for name in split_listed_names(text, piece):
                    out.extend(trim_span(text, with_age_unit(text, name)))
    return out


_NAME_LIST_SEP = re.compile(r"[ ]*[&/][ ]*|[ ]+(?:and|e|y|und|et|och|og|en|i)[ ]+")
_ORG_ONLY_SEP = re.compile(r",[ ]+")


def split_listed_names(text: str, d: Detection) -> list[Detection]:
    """People listed together and read by the model as one organisation or one person
    ("Mihaela and Bogdan", "Ivone Takahashi e Hiroshi Takahashi", "Demirtaş / Lindqvist"):
    one person span each, when every part is made of known given names or surnames."""
    if d.source != "ner" or d.category not in ("organization", PERSON):
        return [d]  # a rule's "Cociarelli, Orlando e Tommaseo" is a partnership by its layout
    bounds = [d.start]
    seps = [_NAME_LIST_SEP] + ([_ORG_ONLY_SEP] if d.category == "organization" else [])
    for sep in seps:
        for m in sep.finditer(text, d.start, d.end):
            bounds += [m.start(), m.end()]
    if len(bounds) == 1:
        return [d]
    bounds = sorted(bounds) + [d.end]
    pieces = [(a, b) for a, b in zip(bounds[::2], bounds[1::2], strict=True) if b > a]
    if len(pieces) < 2 or not all(_known_name_words(text[a:b]) for a, b in pieces):
        return [d]
    return [
        replace(d, start=a, end=b, category=PERSON, placeholder=placeholder_for(PERSON))
        for a, b in pieces
    ]


def _known_name_words(part: str) -> bool:
    words = _ALPHA_WORD.findall(part)
    return bool(words) and all(w[0].isupper() and is_known_name(w) for w in words)


_GAP = re.compile(r"[ ]{3,}|\t|\s*\n\s*")


def split_at_gaps(text: str, d: Detection) -> list[Detection]:
    """A name, organisation, place or address line cut at column gaps and line breaks
    ("Nasreen Hussaini        Relationship", "N20\nDescription"): a table cell or a line
    of an address block is one span (the annotation guideline), never two joined."""
    if d.category not in CONTEXTUAL:
        return [d]
    gaps = list(_GAP.finditer(text, d.start, d.end))
    if not gaps:
        return [d]
    bounds = [d.start, *(i for g in gaps for i in g.span()), d.end]
    pieces = zip(bounds[::2], bounds[1::2], strict=True)
    return [replace(d, start=start, end=end) for start, end in pieces if end > start]


# "Kofi, 14, has asthma", "our son Aravind (15)", "ÇELIK, Mehmet (age nineteen)", "Morag
# Campbell, 81, 7 Comely Bank Row" (an address follows), "rin.k, 34 · Utrecht", "Leah - 29 - Cork".
_AGE_AFTER_NAME = re.compile(
    rf"(?:,[ ](\d{{1,3}})(?:,[ ](?=[a-z]|\d{{1,5}}[a-z]?[ ][A-Z])|(?=[.;]|[ ](?:of|from|who|was"
    rf"|is|and|has|had|lives|said)\b|[ ]?[·•|]|[ ]*(?:\r?\n|\Z)))"
    rf"|[ ]\((?:(?i:aged?)[ ])?(\d{{1,3}}(?:[ ]?(?i:years?|yrs|J\.))?"
    rf"|(?i:{NUMBER_WORD})(?:[ ](?i:years?))?)(?:\)|,[ ])"
    rf"|[ ][–-][ ](\d{{1,3}})[ ][–-][ ])"
)
AGE_AFTER_NAME_SCORE = 0.7


def ages_after_names(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """An age written right after a person's name or handle: "Kofi, 14, has asthma",
    "Aravind (15)", "Lena (seven years)", "Ana (9, at St Mary's)", "rin.k, 34 · Utrecht"."""
    found = []
    for d in kept:
        if d.category not in (PERSON, "handle") or d.score < MIN_SEED_SCORE:
            continue
        m = _AGE_AFTER_NAME.match(text, d.end)
        if m is None:
            continue
        group = next(g for g in (1, 2, 3) if m.group(g))
        value = m.group(group)
        if value.isdecimal() and not 0 < int(value) <= 120:
            continue
        found.append(
            Detection(
                m.start(group),
                m.end(group),
                "age",
                placeholder_for("age"),
                "context",
                AGE_AFTER_NAME_SCORE,
                "age_after_name",
            )  # fmt: skip
        )
    return found


# "Declan Furlong (004102)": a staff, collar or member number in brackets right after a name
# (five to ten digits, or four with a leading zero, so never a year).
_ID_AFTER_NAME = re.compile(r"[ ]\((\d{5,10}|0\d{3,4})\)")
ID_AFTER_NAME_SCORE = 0.7


def ids_after_names(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """A number in brackets right after a person's name: their staff or member number."""
    found = []
    for d in kept:
        if d.category != PERSON or d.score < MIN_SEED_SCORE:
            continue
        m = _ID_AFTER_NAME.match(text, d.end)
        if m is not None:
            found.append(
                Detection(
                    m.start(1),
                    m.end(1),
                    "internal id",
                    placeholder_for("internal id"),
                    "context",
                    ID_AFTER_NAME_SCORE,
                    "id_after_name",
                )  # fmt: skip
            )
    return found


# "Caluire-et-Cuire (69300)", "VILLEURBANNE (69100)", "Dhaka-1216": a postcode in brackets or
# joined by a dash right after a place (not a year after the dash: "Lagos-2019").
_POSTCODE_AFTER_PLACE = re.compile(
    r"[ ]?\((?!(?:19|20)\d\d\))(\d{4,6})\)|-(?!(?:19|20)\d\d\b)(\d{4})(?![\w-])"
)
POSTCODE_AFTER_PLACE_SCORE = 0.7


def postcodes_after_places(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """A postcode written right after a kept place, in brackets or after a dash."""
    found = []
    for d in kept:
        if d.category != "location" or d.score < MIN_SEED_SCORE or not text[d.end - 1].isalpha():
            continue
        m = _POSTCODE_AFTER_PLACE.match(text, d.end)
        if m is not None:
            group = 1 if m.group(1) else 2
            found.append(
                Detection(
                    m.start(group),
                    m.end(group),
                    "postal code",
                    placeholder_for("postal code"),
                    "context",
                    POSTCODE_AFTER_PLACE_SCORE,
                    "postcode_after_place",
                )  # fmt: skip
            )
    return found


_ADDRESS_END = frozenset({"street address", "postal code"})
# The next comma-separated piece of an address line: one to three capitalised words or a
# word in capitals ("Birstwith", "Cusco", "PERÚ", "Santo Domingo Este", "GA").
_ADDRESS_PIECE = re.compile(
    rf"(?:,[ ]?|[ ][–-][ ])((?:{_ADDRESS_WORD})(?:[ ](?:{_ADDRESS_WORD}|{_PLACE_PARTICLE})){{0,3}})"
    r"(?=[ ]*(?:[,;.:)\n–-]|$))"
)
# The town written after a postcode with only a space between: "1200-389 Lisboa", "75011 Paris".
_TOWN_AFTER_POSTCODE = re.compile(
    rf"[ ]((?:{_ADDRESS_WORD})(?:[ ](?:{_ADDRESS_WORD}|{_PLACE_PARTICLE})){{0,3}})"
    r"(?=[ ]*(?:[,;.:)\n–—(-]|$))"
)
ADDRESS_TAIL_SCORE = 0.6
MAX_TAIL_PIECES = 3


def address_tail(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """The places written after a street line or a postcode, piece by comma-separated piece,
    up to the line's end ("2 Rose Cottages, Nidd Lane, Birstwith", "Jr. Ayacucho 318, dpto.
    402, Cusco, PERÚ", "Plot 1147, Cadastral Zone B06, Mabushi", "1200-389 Lisboa"): in an
    address a town, district or country is one, whatever its words mean elsewhere."""
    covered = {(d.start, d.end) for d in kept}
    found = []
    for d in kept:
        if d.category not in _ADDRESS_END or d.score < THRESHOLD:
            continue
        position = d.end
        for i in range(MAX_TAIL_PIECES):
            piece = _ADDRESS_PIECE.match(text, position)
            if piece is None and i == 0 and d.category == "postal code":
                piece = _TOWN_AFTER_POSTCODE.match(text, position)
                if piece is not None and _ACRONYM.fullmatch(piece.group(1)):
                    break  # "7853 EUR", "1010 NY": a currency or a code, not a town
            if piece is None:
                break
            start, end = piece.span(1)
            surface = piece.group(1)
            if surface.casefold() in FIELD_LABELS or not _place_like(surface):
                break
            if (start, end) not in covered:
                found.append(_address_part(start, end, "location", "address_tail"))
            position = end
    return found


# The lines of an address block below its street line: a flat or suite alone ("Suite 610",
# "Apt. 504"), or a town, country or region with its postcode ("KOTKA", "Czech Republic
# 95604", "Tegelen LI 5931 DB", "Lázne Bohdanec PA 533 41").
_SECONDARY_LINE = re.compile(rf"(?:{UNIT_WORD}|Bus|Box|Bte\.?)[ ]?#?\d{{1,5}}[A-Z]?")
_BLOCK_PLACE_LINE = re.compile(
    rf"(?P<place>(?:{_ADDRESS_WORD})(?:[ ](?:{_ADDRESS_WORD}|{_PLACE_PARTICLE})){{0,3}}?)"
    r"(?:,?[ ]+(?:(?P<region>[A-Z]{2,3})|[a-z]{2,3}(?=[ ]+\d)))?"
    r"(?:,?[ ]+(?P<code>\d{3,6}(?:[ -]\d{2,4})?(?:[ ][A-Z]{2})?))?"
)
MAX_BLOCK_LINES = 4
# A secondary unit written before the street line on the same line ("Suite 530 79227
# Platåveien 113"), and a number opening the line before the house number ("87664 1538
# Thutlwa St").
_SECONDARY_BEFORE = re.compile(
    r"(?:\b(?:Suite|Ste\.?|Apt\.?|Apartment|Unit|Flat)[ ]?#?\d{1,5}[A-Z]?|^[ \t]*\d{1,5})[ ]+$",
    re.MULTILINE,
)


def address_block_lines(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """The lines below a street line that end its address block (a suite, a town, a country,
    each with its postcode), and a unit or number written before the street on its line: in
    an address block every line locates the person, whatever its words mean elsewhere."""
    found = []
    read_below: set[int] = set()
    for d in kept:
        if d.category != "street address" or d.score < THRESHOLD:
            continue
        line_start = text.rfind("\n", 0, d.start) + 1
        before = _SECONDARY_BEFORE.search(text, line_start, d.start)
        part = before[0].strip() if before is not None else ""
        if part and (part[0].isalpha() or text[d.start].isdigit()):
            start = before.start() + before[0].index(part)  # type: ignore[union-attr]
            found.append(_address_part(start, start + len(part), "street address"))
        line_end = text.find("\n", d.end)
        if line_end not in read_below and line_end >= 0 and not text[d.end : line_end].strip():
            read_below.add(line_end)  # a street found by a rule and by the model: read once
            found += _lines_below(text, line_end)
    covered = {(d.start, d.end) for d in kept}
    unique = {(f.start, f.end, f.category): f for f in found if (f.start, f.end) not in covered}
    return list(unique.values())


def _lines_below(text: str, line_end: int) -> list[Detection]:
    """The address parts on the lines after `line_end` (a newline), up to the first line that
    is none (one blank line may stand between them)."""
    found: list[Detection] = []
    blank_lines = 0
    start = line_end + 1
    for _ in range(MAX_BLOCK_LINES + 1):
        if start > len(text):
            break
        stop = text.find("\n", start)
        stop = len(text) if stop < 0 else stop
        line = text[start:stop]
        body = line.strip()
        body_start = start + len(line) - len(line.lstrip())
        start = stop + 1
        if not body:
            blank_lines += 1
            if blank_lines > 1:
                break
            continue
        if _SECONDARY_LINE.fullmatch(body):
            found.append(_address_part(body_start, body_start + len(body), "street address"))
            continue
        m = _BLOCK_PLACE_LINE.fullmatch(body)
        if m is None or m["place"].casefold() in FIELD_LABELS or not _place_like(m["place"]):
            break
        for group, category in (
            ("place", "location"),
            ("region", "location"),
            ("code", "postal code"),
        ):
            if m[group]:
                found.append(
                    _address_part(body_start + m.start(group), body_start + m.end(group), category)
                )
    return found


def _address_part(start: int, end: int, category: str, rule_id: str = "address_block") -> Detection:
    return Detection(
        start, end, category, placeholder_for(category), "context", ADDRESS_TAIL_SCORE, rule_id
    )


def _place_like(surface: str) -> bool:
    """Not a title, a weekday or month, nor only very common English words (that are not a
    city)."""
    words = _ALPHA_WORD.findall(surface)
    if not words or words[0].casefold() in _TITLE_WORDS:
        return False
    if surface in city_names():
        return True
    return not all(
        w.casefold() in _CONNECTORS or word_zipf(w.casefold(), "en") >= COMMON_ZIPF for w in words
    )


# "Allied Irish Banks (AIB)": an organisation's initials defined in brackets right after it.
_ACRONYM_DEFINED = re.compile(r"[ ]?\(([A-Z][A-Z&]{1,7})\)")
_NOT_INITIAL = frozenset({"of", "and", "the", "for", "&", "de", "du", "des", "la", "le", "der"})
DEFINED_ACRONYM_SCORE = 0.6


def defined_acronyms(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """Every whole-token mention of the initials that the text defines for a kept
    organisation ("Allied Irish Banks (AIB) ... paid from my AIB account"): the same
    organisation, however short."""
    acronyms = {}
    for d in kept:
        if d.category != "organization" or d.score < THRESHOLD:
            continue
        m = _ACRONYM_DEFINED.match(text, d.end)
        if m and m.group(1).replace("&", "") == _initials_of(text[d.start : d.end]):
            acronyms[m.group(1)] = d
    if not acronyms:
        return []
    covered = {(d.start, d.end) for d in kept}
    return [
        Detection(
            start,
            end,
            "organization",
            placeholder_for("organization"),
            "context",
            DEFINED_ACRONYM_SCORE,
            "defined_acronym",
        )  # fmt: skip
        for start, end in identifier_mentions(text, set(acronyms))
        if (start, end) not in covered
    ]


def _initials_of(name: str) -> str:
    """The first letters of a name's words, in capitals, without "of", "and", "the"..."""
    words = [w for w in _ALPHA_WORD.findall(name) if w.casefold() not in _NOT_INITIAL]
    return "".join(w[0] for w in words).upper()


LONE_LABEL_PENALTY = 0.5
_TIME_BEFORE = re.compile(r"\d{1,2}:\d{2}")


_LABELLED = frozenset({PERSON, "organization", "location"})
# A colon right after the span, or after one short linking word ("Prescritto da:",
# "Lieferung an:", "Signed by:").
_COLON_AFTER = re.compile(
    r"(?:[ ](?:da|di|de|del|du|an|von|für|par|por|per|by|of|to|at))?[ \t]*:(?![/:\d])"
)
_INITIAL = re.compile(r"[A-Z]\.[ ]?[A-Z]")
_FORM_GAP_MARKS = ("|", "·", "•")


def _ends_after_form_gap(text: str, line_start: int, end: int) -> bool:
    """Whether text[line_start:end] ends with a column gap (two spaces or a tab, then only
    blanks), a table bar or bullet, or is blank from the document's start. Linear: a regex
    for it backtracks cubically on long runs of spaces."""
    tail = text[line_start:end]
    stripped = tail.rstrip(" \t")
    blanks = tail[len(stripped) :]
    return (
        (line_start == 0 and not stripped)
        or "  " in blanks
        or "\t" in blanks
        or stripped.endswith(_FORM_GAP_MARKS)
    )


def at_label_position(text: str, d: Detection) -> bool:
    """The span stands where a form or chat puts a label: at the start of its line (after a
    time stamp at most) or after a column gap ("QUISPE          Nombre:"), right before a
    colon."""
    if not _COLON_AFTER.match(text, d.end):
        return False
    line_start = text.rfind("\n", 0, d.start) + 1
    before = _TIME_BEFORE.sub("", text[line_start : d.start]).strip(" \t[]<")
    return (
        not before
        or _ends_after_form_gap(text, line_start, d.start)
        or bool(_STAMP.fullmatch(before))
    )


# What a chat export writes before the speaker: "12/05/2024, 21:07 - ", "[3/7/24 10:04 PM] ".
_STAMP = re.compile(r"[\d/.,:\s\[\]()–-]*+(?:[AaPp]\.?[Mm]\.?)?[\s\]–-]*+")


SPEAKER_CONTEXT = 20_000


def _labels_written(text: str, d: Detection) -> int:
    """How often the text around the span (bounded, so a long document costs no more per
    span) writes it before a colon, up to 2: a chat speaker's every turn."""
    surface = text[d.start : d.end]
    low, high = max(0, d.start - SPEAKER_CONTEXT), min(len(text), d.end + SPEAKER_CONTEXT)
    # A literal search, not one pattern opening with a look-behind, which `re` walks
    # offset by offset; same matches as `(?<!\w)SURFACE[ \t]*:` found by `finditer`.
    count, position = 0, low
    while count < 2:
        hit = text.find(surface, position, high)
        if hit < 0:
            break
        colon = _SPACES_THEN_COLON.match(text, hit + len(surface), high)
        if colon and not (hit > 0 and _WORD_CHAR.match(text, hit - 1)):
            count, position = count + 1, colon.end()
        else:
            position = hit + 1
    return count


_SPACES_THEN_COLON = re.compile(r"[ \t]*:")
_WORD_CHAR = re.compile(r"\w")


def _made_of_words(surface: str) -> bool:
    """Every word is very common in some language and nobody's name ("Nacionalidad",
    "Fecha de"): a label however often a form repeats it, never a chat speaker."""
    words = _ALPHA_WORD.findall(surface)
    return bool(words) and all(word_in_any_language(w) and not is_known_name(w) for w in words)


def chat_speaker(text: str, d: Detection) -> bool:
    """The span speaks at least twice at a label's place, and is not made of a form's words
    ("kev:" in a chat written in lower case, whatever "kev" means in English)."""
    return (
        at_label_position(text, d)
        and _labels_written(text, d) >= 2
        and not _made_of_words(text[d.start : d.end])
    )


def lone_field_label(text: str, d: Detection) -> bool:
    """A "Label:" that speaks only once, is nobody's name and has no chat time stamp before
    it is a form field ("Propriétaire:", "Sexo:", "Reviewer:", "Medikation:"), whichever
    detector proposed it."""
    if d.category not in _LABELLED or not at_label_position(text, d):
        return False
    surface = text[d.start : d.end]
    line_start = text.rfind("\n", 0, d.start) + 1
    return (
        (_labels_written(text, d) < 2 or _made_of_words(surface))
        and not is_known_name(surface)
        and not _INITIAL.match(surface)  # "Y. El Amrani:" is a commenter
        and not _TIME_BEFORE.search(text, line_start, d.start)
    )


def common_word_speakers(text: str, kept: Sequence[Detection]) -> list[Detection]:
    """Kept one-word people whose word is common in English ("kev") and who speak in the
    document's chat turns: their other mentions are the same person (`propagate_names`)."""
    return [
        d
        for d in kept
        if d.category == PERSON
        and d.score >= MIN_SEED_SCORE
        and " " not in text[d.start : d.end].strip()
        and is_common_non_name(text[d.start : d.end])
        and chat_speaker(text, d)
    ]


def combine(
    text: str,
    rules: list[Detection],
    ner_all: list[Detection],
    not_pii_numbers: set[tuple[int, int]] | None = None,
) -> list[Detection]:
    """Score every proposal, keep those above the threshold, add propagated names
    (`not_pii_numbers`: `non_pii_keyed_numbers(text)`, when the caller has it already)."""
    if not_pii_numbers is None:
        not_pii_numbers = non_pii_keyed_numbers(text)
    if not_pii_numbers:
        rules = [d for d in rules if (d.start, d.end) not in not_pii_numbers]
        ner_all = [d for d in ner_all if (d.start, d.end) not in not_pii_numbers]
    rules = _proposals(text, rules)
    ner_all = _proposals(text, ner_all)
    ner = [d for d in ner_all if d.source != NOT_PII_SOURCE]
    not_pii = [d for d in ner_all if d.source == NOT_PII_SOURCE]
    indexes = SpanIndex(rules), SpanIndex(ner), SpanIndex(not_pii)
    kept = []
    cased = is_cased(text)
    for d in [*rules, *ner]:
        if d.category in CONTEXTUAL:
            near_rules, near_ner, near_not_pii = (index.overlapping(d) for index in indexes)
            score = score_candidate(text, d, near_rules, near_ner, near_not_pii, cased)
        else:
            score = d.score  # an identifier's rule confidence is its score (`score_candidate`)
        if lone_field_label(text, d):
            score -= LONE_LABEL_PENALTY
        if score >= THRESHOLD:
            kept.append(replace(d, score=round(min(score, 0.99), 3)))
    names = propagate_names(
        text,
        kept,
        common_word_speakers(text, kept),
        [d for d in kept if d.rule_id in _NAMED_BY_ITS_CONTEXT],
    )
    return (
        kept
        + names
        + joined_names(text, [*kept, *names])
        + ages_after_names(text, kept)
        + ids_after_names(text, kept)
        + postcodes_after_places(text, kept)
        + address_tail(text, kept)
        + address_block_lines(text, kept)
        + propagate_identifiers(text, kept)
        + propagate_entities(text, kept)
        + defined_acronyms(text, kept)
    )


# An academic or fiscal year ("2024/2025", "2024-25"): no one's identifier.
_YEAR_PAIR = re.compile(r"((?:19|20)\d\d)[/–-]((?:19|20)\d\d|\d\d)")


def _year_pair(surface: str) -> bool:
    """Two consecutive years, the second maybe in two digits ("2024/2025", "1999-00")."""
    pair = _YEAR_PAIR.fullmatch(surface)
    if pair is None:
        return False
    first, second = int(pair[1]), int(pair[2])
    return second == first + 1 if len(pair[2]) == 4 else second == (first + 1) % 100


MIN_REPEATED_ID_SCORE = 0.8  # a classifier span spread to its repeats (one error is not N)


def _identifiers(
    text: str, kept: list[Detection], not_pii_numbers: set[tuple[int, int]]
) -> list[Detection]:
    """The identifier classifier's spans, less numbers given as a count, time, amount or
    year pair, and their other occurrences in the document (a file reference in the body and
    again in the subject line)."""
    found = classify_spans(text, kept)
    if not found:
        return []
    found = [
        d
        for d in found
        if (d.start, d.end) not in not_pii_numbers and not _year_pair(text[d.start : d.end])
    ]
    confident = [
        d
        for d in found
        if d.category != "handle"  # a host or a brand as often as a login
        and d.score >= MIN_REPEATED_ID_SCORE
    ]
    taken = {(d.start, d.end) for d in kept}
    repeats = [d for d in propagate_identifiers(text, confident) if (d.start, d.end) not in taken]
    return found + repeats


class CombinedDetector:
    """Regex rules with checksums plus the fine-tuned NER, scored with context."""

    name = "combined"

    def __init__(
        self,
        rules: RegexDetector | None = None,
        ner: LearnedNerDetector | None = None,
        idspans: bool = True,
    ) -> None:
        self.rules = rules or RegexDetector()
        self.ner = ner or LearnedNerDetector()
        self.idspans = idspans  # identifiers without a keyword (idspans.py), after the rest

    def warm_up(self) -> None:
        """Load the model and every word list and compile every pattern database now, so that
        the first jobs run at the same speed as later ones."""
        self.rules.warm_up()
        load_word_lists()
        known_names()
        city_names()
        small_place_countries()
        city_detections("東京")  # compiles the CJK city names' pattern
        self.detect("Warm-up: Jane Doe wrote from Boston on 3 May.\nShe said the form was done.")

    def detect(self, text: str) -> list[Detection]:
        """Every kept detection (overlaps included; the pipeline resolves them)."""
        return self.detect_many([text])[0]

    def detect_many(self, texts: Sequence[str]) -> list[list[Detection]]:
        """As `detect` for many documents, with the model batched over all of them."""
        texts = [detection_view(t) for t in texts]
        ner_all = self.ner_with_cased_copies(texts)
        not_pii = [non_pii_keyed_numbers(text) for text in texts]  # read once, used twice
        kept = [
            combine(text, self.rule_detections(text), found, numbers)
            for text, found, numbers in zip(texts, ner_all, not_pii, strict=True)
        ]
        if self.idspans:
            kept = [
                k + _identifiers(text, k, numbers)
                for text, k, numbers in zip(texts, kept, not_pii, strict=True)
            ]
        return kept

    def ner_with_cased_copies(self, texts: Sequence[str]) -> list[list[Detection]]:
        """The model's entities in each document, those written in capitals read again from a
        case-normalised copy (`casing.py`) in the same batch."""
        copies = [cased_copy(t) for t in texts]
        extra = [c.text for c in copies if c is not None]
        found = self.ner.all_many([*texts, *extra])
        out, rereads = found[: len(texts)], iter(found[len(texts) :])
        for i, copy in enumerate(copies):
            if copy is not None:
                out[i] = out[i] + mapped_back(texts[i], copy, next(rereads))
        return out

    def rule_detections(self, text: str) -> list[Detection]:
        """The regex rules' detections, the cities named in the text, the employers on the
        dated lines of a CV and the cells under a table header that names their category."""
        return (
            detect_in_chunks(
                text,
                lambda chunks: [self.rules.detect_in_view(c) for c in chunks],
                RULE_CHUNK_CHARS,
                RULE_CHUNK_OVERLAP,
            )
            + city_detections(text)
            + cv_employers(text)
            + table_column_detections(text)
        )

    def detect_resolved(self, text: str) -> list[Detection]:
        """The kept detections with overlaps resolved, for callers outside the pipeline."""
        return resolve_overlaps(self.detect(text))
