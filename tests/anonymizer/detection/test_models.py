"""Presidio (offline), spaCy NER, gold spans and the combined detector.

Presidio and spaCy load the PyPI-packaged small English model once per process (a few s).
"""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from anonymizer.detection import presidio, spacy_ner
from anonymizer.detection.combined import CombinedDetector
from anonymizer.detection.gold import GoldDetector, category_for_label, gold_detections
from anonymizer.detection.presidio import (
    PresidioDetector,
    analyzer_engine,
    build_analyzer_engine,
    category_for_entity,
)
from anonymizer.detection.spacy_ner import SpacyNerDetector
from anonymizer.errors import MechanismUnavailable
from anonymizer.types import Detection

TEXT = (
    "Contact Jane Doe at jane.doe@example.com or +44 20 7946 0958. She moved to Berlin and "
    "works for Siemens. Visit https://example.org/profile. IBAN DE89 3704 0044 0532 0130 00."
)


def found(detections: list[Detection], text: str = TEXT) -> dict[str, str]:
    return {text[d.start : d.end]: d.category for d in detections}


@pytest.fixture
def network_attempts(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """Every DNS lookup or socket connection is recorded and refused."""
    attempts: list[tuple] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network access attempted in an offline test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    return attempts


def test_the_network_trap_catches_a_real_connection_attempt(network_attempts: list) -> None:
    with pytest.raises(OSError):
        socket.create_connection(("example.com", 443), timeout=1)
    with pytest.raises(OSError):
        socket.socket().connect(("127.0.0.1", 9))
    assert len(network_attempts) == 2


def test_presidio_builds_and_analyzes_without_any_network_attempt(network_attempts: list) -> None:
    presidio.offline_tld_extractor.cache_clear()
    engine = build_analyzer_engine()
    results = engine.analyze(
        text="Mail jane@example.com or see https://example.org.", language="en"
    )
    assert {r.entity_type for r in results} >= {"EMAIL_ADDRESS", "URL"}
    assert network_attempts == []


def test_presidio_email_recognizer_uses_the_bundled_suffix_list(network_attempts: list) -> None:
    recognizer = presidio.offline_email_recognizer()
    assert recognizer.validate_result("jane@example.co.uk")
    assert not recognizer.validate_result("jane@example.notatld")
    assert network_attempts == []


def test_presidio_engine_is_built_once_per_process() -> None:
    assert analyzer_engine() is analyzer_engine()


def test_presidio_entities_map_onto_our_categories() -> None:
    result = found(PresidioDetector().detect(TEXT))
    assert result["jane.doe@example.com"] == "email address"
    assert result["Jane Doe"] == "full person name"
    assert result["DE89 3704 0044 0532 0130 00"] == "iban"
    assert result["Berlin"] == "location"
    assert category_for_entity("US_SSN") == "ssn"
    assert category_for_entity("SOMETHING_NEW") == "custom"


def test_presidio_drops_pii_label_words_tagged_as_names() -> None:
    text = "IBAN DE89 3704 0044 0532 0130 00 and SSN 123-45-6789"
    assert not {"IBAN", "SSN"} & set(found(PresidioDetector().detect(text), text))


def test_spacy_maps_people_places_organisations_and_dates() -> None:
    text = "Angela Merkel visited Paris with Siemens on 3 May 2021."
    result = found(SpacyNerDetector().detect(text), text)
    assert result.get("Angela Merkel") == "full person name"
    assert result.get("Paris") == "location"
    assert "date" in result.values()


def test_the_default_detector_runs_without_presidio() -> None:
    """Presidio stays a detector option and the baseline, but is off the default path."""
    # spaCy itself imports presidio_analyzer (its entry points), so the check is that no
    # Presidio engine was built, not that the package was never imported.
    script = (
        "from anonymizer.detection import get_detector\n"
        "from anonymizer.settings import Settings\n"
        "found = get_detector(Settings().detector).detect('Mail Jane Doe at jane@example.com')\n"
        "assert found, found\n"
        "from anonymizer.detection import presidio\n"
        "assert presidio._engine is None, 'an AnalyzerEngine was built'\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


def test_combined_resolves_to_non_overlapping_spans() -> None:
    resolved = CombinedDetector().detect_resolved(TEXT)
    assert all(a.end <= b.start for a, b in zip(resolved, resolved[1:], strict=False))
    surfaces = {TEXT[d.start : d.end] for d in resolved}
    assert {"Jane Doe", "jane.doe@example.com", "DE89 3704 0044 0532 0130 00"} <= surfaces


def test_combined_finds_what_presidio_alone_misses() -> None:
    text = "Ticket INC-48213: key sk-proj-abcdefghijklmnopqrstuvwx123 leaked by kuno_65."
    presidio_only = found(PresidioDetector().detect(text), text)
    combined = found(CombinedDetector().detect(text), text)
    for surface in ("INC-48213", "sk-proj-abcdefghijklmnopqrstuvwx123"):
        assert surface not in presidio_only and surface in combined


def test_gold_labels_from_common_datasets_map_onto_our_categories() -> None:
    assert category_for_label("first_name") == "full person name"
    assert category_for_label("LAST_NAME") == "full person name"
    assert category_for_label("B-PER") == "full person name"
    assert category_for_label("EMAIL_ADDRESS") == "email address"
    assert category_for_label("phone_number") == "phone number"
    assert category_for_label("street address") == "street address"
    assert category_for_label("PERSON") == "full person name"
    assert category_for_label("iban") == "iban"
    assert category_for_label("swift/bic") == "swift/bic"  # our own strings pass through
    assert category_for_label("unheard_of") == "custom"


def test_gold_spans_become_detections_and_must_fit_the_text() -> None:
    text = "Jane lives in Oslo"
    spans = [
        {"start": 0, "end": 4, "label": "first_name"},
        {"start": 14, "end": 18, "label": "city"},
    ]
    detections = GoldDetector(spans).detect(text)
    assert found(detections, text) == {"Jane": "full person name", "Oslo": "location"}
    assert all(d.placeholder.startswith("[") and d.source == "gold" for d in detections)
    with pytest.raises(ValueError):
        gold_detections([{"start": 10, "end": 40, "label": "city"}], text)


def test_presidio_without_its_package_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "presidio_analyzer", None)  # makes the import fail
    with pytest.raises(MechanismUnavailable, match="pip install"):
        build_analyzer_engine()


def test_spacy_without_its_model_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spacy_ner, "_nlp", None)
    monkeypatch.setattr(spacy_ner, "SPACY_MODEL", "no_such_spacy_model")
    with pytest.raises(MechanismUnavailable, match="pip install"):
        SpacyNerDetector().detect("Angela Merkel")
