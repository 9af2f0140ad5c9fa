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
  are nobody's name ("salesperson", "big"; `names.py`).

Proposals scoring at least `THRESHOLD` are kept, and names kept with a score of at least
`propagation.MIN_SEED_SCORE` are propagated to their other mentions. Presidio is not on
this path (it stays available as the `presidio` detector and as the benchmark baseline).
Long documents are processed in overlapping chunks (`chunking.py`) in bounded memory.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import replace

from anonymizer.detection.chunking import detect_in_chunks
from anonymizer.detection.learned import NOT_PII_SOURCE, LearnedNerDetector
from anonymizer.detection.names import is_common_non_name, is_known_name
from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.detection.propagation import propagate_names
from anonymizer.detection.regex import RegexDetector
from anonymizer.detection.wordlists import FIELD_LABELS
from anonymizer.types import Detection

THRESHOLD = 0.5
WEAK_RULE = 0.7  # rules below this confidence need the model's agreement
WEAK_ALONE_PENALTY = 0.15
COUNTER_EVIDENCE_PENALTY = 0.3
CONFLICT_PENALTY = 0.3
STRUCTURED_OVERLAP_PENALTY = 0.5
STRONG_RULE = 0.9
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
_NAME_CUE = re.compile(
    r"(?i)(?:\b(?:dear|hi|hello|hey|thanks|mr|mrs|ms|mx|dr|prof|name|patient|client|signed"
    r"|regards|from|my (?:wife|husband|son|daughter|mother|father|friend|partner)))"
    r"[\s.,:]*$"
)


def compatible(a: str, b: str) -> bool:
    """Same category, or two parts of an address (place, street line, postcode)."""
    return a == b or (a in _PLACE and b in _PLACE)


def text_penalty(text: str, d: Detection) -> float:
    """How much the span's own text argues against it being PII of its category."""
    surface = text[d.start : d.end]
    penalty = 0.0
    if d.category in ("organization", "full person name", "location") and _MONEY.search(surface):
        penalty += 0.6
    if (
        d.category != "postal code"
        and d.rule_id != "state_before_zip"
        and _ACRONYM.fullmatch(surface)
    ):
        penalty += 0.4
    after = text[d.end : d.end + 2]
    line_start = text.rfind("\n", 0, d.start) + 1
    if after[:1] == ":" and not text[line_start : d.start].strip():
        line_end = text.find("\n", d.end)
        rest = text[d.end : line_end if line_end >= 0 else len(text)]
        if surface.lower() in FIELD_LABELS:
            penalty += 0.6
        elif len(rest) < 30 and _HAS_DIGIT.search(rest) and not is_known_name(surface):
            penalty += 0.5  # "Gesamtbetrag: 2.380,00 €" is a field, not a speaker
    if d.category == "full person name" and any(c.isdigit() for c in surface):
        penalty += 0.5
    words = re.findall(r"[^\W\d_]+", surface)
    if d.category == "full person name" and words and all(map(is_common_non_name, words)):
        penalty += 0.35
    if d.category == "full person name" and len(surface.split()) > 4:
        penalty += 0.5  # a clause, not a name
    if d.category == "nationality or group" and _LANGUAGE_CONTEXT.search(
        text, max(0, d.start - 60), d.start
    ):
        penalty += 0.5  # "Languages: English, Irish"
    if d.category == "street address" and d.source == "ner" and not _HAS_DIGIT.search(surface):
        if len(words) < 2:
            penalty += 0.35  # "ext.", "Nr."
    return penalty


_TIME_AFTER = re.compile(r"(?:[ T,]+|,[ ]?)\d{1,2}:\d{2}")
_LINE_START = re.compile(r"(?:^|\n)[ \t\[(]*$")
_LANGUAGE_CONTEXT = re.compile(
    r"(?i)\b(?:languages?|speaks?|spoken|speaking|fluent|translat\w*|subtitle\w*|written in"
    r"|native speaker)\b[^.\n]{0,40}$"
)


def structured_score(text: str, d: Detection) -> float:
    """A rule's confidence, less for a date that starts a log or chat line as its time stamp."""
    if (
        d.category == "date"
        and _TIME_AFTER.match(text, d.end)
        and _LINE_START.search(text, max(0, d.start - 4), d.start)
    ):
        return d.score - 0.5  # the time stamp that starts a log or chat line
    return d.score


def score_candidate(
    text: str,
    d: Detection,
    rules: Sequence[Detection],
    ner: Sequence[Detection],
    not_pii: Sequence[Detection],
) -> float:
    """The combined score of one proposal (see the module docstring)."""
    if d.category not in CONTEXTUAL:
        return structured_score(text, d)
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
    return score - text_penalty(text, d)


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
        self.long = [d for d in detections if d.end - d.start > self.LONG]

    def overlapping(self, span: Detection) -> list[Detection]:
        low = bisect_left(self.starts, span.start - self.LONG)
        high = bisect_left(self.starts, span.end)
        found = [d for d in self.items[low:high] if d.end > span.start]
        return found + [d for d in self.long if d.overlaps(span)]


def _start(d: Detection) -> int:
    return d.start


def combine(text: str, rules: list[Detection], ner_all: list[Detection]) -> list[Detection]:
    """Score every proposal, keep those above the threshold, add propagated names."""
    ner = [d for d in ner_all if d.source != NOT_PII_SOURCE]
    not_pii = [d for d in ner_all if d.source == NOT_PII_SOURCE]
    indexes = SpanIndex(rules), SpanIndex(ner), SpanIndex(not_pii)
    kept = []
    for d in [*rules, *ner]:
        near_rules, near_ner, near_not_pii = (index.overlapping(d) for index in indexes)
        score = score_candidate(text, d, near_rules, near_ner, near_not_pii)
        if score >= THRESHOLD:
            kept.append(replace(d, score=round(min(score, 0.99), 3)))
    return kept + propagate_names(text, kept)


class CombinedDetector:
    """Regex rules with checksums plus the fine-tuned NER, scored with context."""

    name = "combined"

    def __init__(
        self, rules: RegexDetector | None = None, ner: LearnedNerDetector | None = None
    ) -> None:
        self.rules = rules or RegexDetector()
        self.ner = ner or LearnedNerDetector()

    def detect(self, text: str) -> list[Detection]:
        """Every kept detection (overlaps included; the pipeline resolves them)."""
        return self.detect_many([text])[0]

    def detect_many(self, texts: Sequence[str]) -> list[list[Detection]]:
        """As `detect` for many documents, with the model batched over all of them."""
        ner_all = self.ner.all_many(texts)
        return [
            combine(text, self.rule_detections(text), found)
            for text, found in zip(texts, ner_all, strict=True)
        ]

    def rule_detections(self, text: str) -> list[Detection]:
        return detect_in_chunks(
            text,
            lambda chunks: [self.rules.detect(c) for c in chunks],
            RULE_CHUNK_CHARS,
            RULE_CHUNK_OVERLAP,
        )

    def detect_resolved(self, text: str) -> list[Detection]:
        """The kept detections with overlaps resolved, for callers outside the pipeline."""
        return resolve_overlaps(self.detect(text))
