"""Our detectors as Presidio recognizers, for teams that already run a Presidio AnalyzerEngine.

`PrivReceiptRecognizer` wraps any of our detectors (the regex rules by default, or the
combined detector) as one Presidio `EntityRecognizer`; `add_to_registry` adds it to an
engine's registry. Entity names follow Presidio's where one exists (EMAIL_ADDRESS, IBAN_CODE,
PERSON, ...) and are our category in upper case otherwise (SWIFT_BIC, SECRET, ...).

    engine = AnalyzerEngine(nlp_engine=...)
    add_to_registry(engine.registry)             # our 100+ rules next to Presidio's
    engine.analyze(text, language="en")
"""

from __future__ import annotations

import re
from typing import Any

from anonymizer.detection.categories import CATEGORIES
from anonymizer.detection.presidio import PRESIDIO_CATEGORIES
from anonymizer.types import Detector

_PREFERRED = {
    "full person name": "PERSON",
    "email address": "EMAIL_ADDRESS",
    "phone number": "PHONE_NUMBER",
    "ssn": "US_SSN",
    "ip address": "IP_ADDRESS",
    "iban": "IBAN_CODE",
    "card number": "CREDIT_CARD",
    "date": "DATE_TIME",
    "nationality or group": "NRP",
    "national id": "NATIONAL_ID",
    "passport number": "PASSPORT",
    "driver's license": "DRIVER_LICENSE",
    "bank account number": "BANK_ACCOUNT",
    "internal id": "INTERNAL_ID",
    "reference id": "REFERENCE_ID",
    "crypto wallet": "CRYPTO",
}


def presidio_entity(category: str) -> str:
    """The Presidio entity name for one of our categories."""
    if category in _PREFERRED:
        return _PREFERRED[category]
    for entity, ours in PRESIDIO_CATEGORIES.items():
        if ours == category:
            return entity
    return re.sub(r"[^A-Z0-9]+", "_", category.upper()).strip("_")


ENTITIES: dict[str, str] = {presidio_entity(c): c for c in CATEGORIES}


def recognizer_class() -> type:
    """The recognizer class (built lazily so importing this module does not need Presidio)."""
    from presidio_analyzer import AnalysisExplanation, EntityRecognizer, RecognizerResult

    class PrivReceiptRecognizer(EntityRecognizer):
        """One of our detectors behind Presidio's recognizer interface."""

        def __init__(self, detector: Detector | None = None, name: str | None = None) -> None:
            if detector is None:
                from anonymizer.detection.regex import RegexDetector

                detector = RegexDetector()
            self.detector = detector
            super().__init__(
                supported_entities=sorted(ENTITIES),
                name=name or f"PrivReceipt:{detector.name}",
                supported_language="en",
            )

        def load(self) -> None:  # the detector loads its own resources lazily
            return None

        def analyze(self, text: str, entities: list[str], nlp_artifacts: Any = None) -> list:
            wanted = set(entities or ENTITIES)
            results = []
            for d in self.detector.detect(text):
                entity = presidio_entity(d.category)
                if entity not in wanted:
                    continue
                explanation = AnalysisExplanation(
                    recognizer=self.name,
                    original_score=d.score,
                    textual_explanation=f"{d.source} {d.rule_id or ''}".strip(),
                )
                results.append(
                    RecognizerResult(
                        entity,
                        d.start,
                        d.end,
                        d.score,
                        analysis_explanation=explanation,
                        recognition_metadata={
                            RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                            RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                        },
                    )
                )
            return results

    return PrivReceiptRecognizer


def make_recognizer(detector: Detector | None = None) -> Any:
    """A Presidio recognizer running `detector` (the regex rules when None)."""
    return recognizer_class()(detector)


def add_to_registry(registry: Any, detector: Detector | None = None) -> Any:
    """Add our recognizer to a Presidio `RecognizerRegistry`; returns the recognizer."""
    recognizer = make_recognizer(detector)
    registry.add_recognizer(recognizer)
    return recognizer
