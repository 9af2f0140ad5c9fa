"""The NER pipeline computes only the lexical attributes it reads, and finds exactly what the
pipeline with md's full set of attribute getters finds."""

from __future__ import annotations

from typing import Any

import pytest
from spacy.attrs import IDS

from anonymizer.detection import learned
from anonymizer.detection.learned import LearnedNerDetector, read_lexical_attributes
from bench import dev_sets

TEXTS = [
    "Patient:  Jürgen  Straße-Okafor (DOB 03/04/1981), NHS 943 476 5919\n\n\n"
    "Referred by Dr. Priya Raghunathan at St Mary's Hospital, Praed Street, London W2 1NY.",
    "kev and paddy said will's mum moved to ballymount last yr lol @bally-nights",
    "EMPLOYER: DIGI SPAIN TELECOM S.L.U., CALLE DE LA PRINCESA 31, 28008 MADRID\t\t"
    "CONTACT: VICENT PERIS ALANDETE",
    "Встреча с Алексеем Петровым в Milano, then 김민준 joined the call from Seoul.",
]


def pipeline(trimmed: bool) -> Any:
    return learned._build_pipeline(trim_vocab=trimmed)


def detector_over(nlp: Any) -> LearnedNerDetector:
    found = LearnedNerDetector()
    found.__dict__["nlp"] = nlp  # the cached property, set to this pipeline
    return found


def entities(nlp: Any, texts: list[str]) -> list[list[tuple]]:
    return [
        [(d.start, d.end, d.category, d.rule_id) for d in doc]
        for doc in detector_over(nlp).all_many(texts)
    ]


def features(nlp: Any, text: str) -> list[list[int]]:
    """Per token: every lexical attribute the pipeline reads, and its vector row."""
    names = sorted(read_lexical_attributes(nlp))
    doc = nlp.make_doc(text)
    rows = doc.to_array(names).tolist()
    return [[*row, token.rank] for row, token in zip(rows, doc, strict=True)]


def test_the_read_attributes_are_the_model_s_features_and_the_ones_the_code_reads() -> None:
    read = read_lexical_attributes(pipeline(trimmed=True))
    assert read == {IDS[a] for a in ("NORM", "PREFIX", "SUFFIX", "SHAPE", "IS_SPACE", "LOWER")}


def test_new_words_compute_only_the_read_attributes() -> None:
    nlp = pipeline(trimmed=True)
    assert set(nlp.vocab.lex_attr_getters) == read_lexical_attributes(nlp)
    assert IDS["LIKE_NUM"] in pipeline(trimmed=False).vocab.lex_attr_getters


def test_every_read_attribute_of_new_words_matches_the_full_vocabulary() -> None:
    trimmed, full = pipeline(trimmed=True), pipeline(trimmed=False)
    for text in TEXTS:
        assert features(trimmed, text) == features(full, text)


def test_the_trimmed_pipeline_finds_the_same_entities_on_dev_documents() -> None:
    docs = dev_sets.handwritten_dev() + dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD)
    texts = TEXTS + [d["text"] for d in docs]
    full = entities(pipeline(trimmed=False), texts)
    assert sum(map(len, full)) > 300
    assert entities(pipeline(trimmed=True), texts) == full


@pytest.mark.parametrize("dropped", ["NORM", "SHAPE", "IS_SPACE"])
def test_a_pipeline_missing_a_read_getter_is_caught(dropped: str) -> None:
    broken, full = pipeline(trimmed=True), pipeline(trimmed=False)
    getters = broken.vocab.lex_attr_getters
    broken.vocab.lex_attr_getters = {a: f for a, f in getters.items() if a != IDS[dropped]}
    assert any(features(broken, t) != features(full, t) for t in TEXTS)
