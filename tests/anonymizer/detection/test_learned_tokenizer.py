"""The NER pipeline's tokenizer reuses its splits of words it has seen (`learned.
cache_tokenizer_spans`), and gives exactly the tokens and entities of md's untouched one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from anonymizer.detection import learned
from anonymizer.detection.learned import LearnedNerDetector, plain_whitespace_special_cases
from bench import dev_sets

# Every kind of white space md's tokenizer knows, special cases next to affixes and infixes,
# contractions (special cases too), capitals, non-Latin scripts and a repeated paragraph.
TEXTS = [
    "Patient:  Jürgen  Straße-Okafor (DOB 03/04/1981), NHS 943 476 5919\n\n\n"
    "Referred by Dr. Priya Raghunathan at St Mary's Hospital, Praed Street, London W2 1NY.",
    "kev and paddy said will's mum moved to ballymount last yr lol @bally-nights\n"
    "\tdon't tell \xa0 Siobhán\xa0Byrne , she's at 14\u00a0Rue de la Paix,\r\n75002 Paris",
    "EMPLOYER: DIGI SPAIN TELECOM S.L.U., CALLE DE LA PRINCESA 31, 28008 MADRID\t\t"
    "CONTACT: VICENT PERIS ALANDETE\n \n\t\n  \n",
    "Встреча с Алексеем Петровым в Milano,\n\nthen 김민준 joined the call from Seoul :) e.g. "
    "at 10 a.m.\n" * 3,
    "\n",
    " leading and trailing  ",
]


def pipeline(cached: bool) -> Any:
    return learned._build_pipeline(cache_spans=cached)


def tokens(nlp: Any, text: str) -> list[tuple[Any, ...]]:
    """Every token with what the model and our code read from it."""
    return [
        (t.orth_, t.idx, t.whitespace_, t.norm_, t.lex_id, t.is_space, t.prefix_, t.shape_)
        for t in nlp.tokenizer(text)
    ]


def entities(nlp: Any, texts: list[str]) -> list[list[tuple]]:
    found = LearnedNerDetector()
    found.__dict__["nlp"] = nlp  # the cached property, set to this pipeline
    return [
        [(d.start, d.end, d.category, d.rule_id, d.score) for d in doc]
        for doc in found.all_many(texts)
    ]


def counting(calls: list[str], search: Callable[[str], Any]) -> Callable[[str], Any]:
    def counted(text: str) -> Any:
        calls.append(text)
        return search(text)

    return counted


def prefix_searches_on_second_reading(nlp: Any, text: str) -> list[str]:
    """The pieces the tokenizer splits again when it reads `text` a second time."""
    calls: list[str] = []
    nlp.tokenizer.prefix_search = counting(calls, nlp.tokenizer.prefix_search)  # empties the cache
    nlp.tokenizer(text)
    calls.clear()
    nlp.tokenizer(text)
    return calls


def test_only_the_white_space_that_is_one_token_anyway_loses_its_special_case() -> None:
    untouched = pipeline(cached=False)
    assert sorted(plain_whitespace_special_cases(untouched)) == sorted(["\n", "\t", " "])
    assert "\xa0" in untouched.tokenizer.rules  # its special case sets NORM: kept
    cached = pipeline(cached=True)
    assert plain_whitespace_special_cases(cached) == []
    assert "\xa0" in cached.tokenizer.rules
    assert len(cached.tokenizer.rules) == len(untouched.tokenizer.rules) - 3
    assert cached.tokenizer.max_cache_size == learned.TOKENIZER_CACHE_SPANS


def test_tokens_are_those_of_the_untouched_tokenizer_read_once_and_again() -> None:
    cached, untouched = pipeline(cached=True), pipeline(cached=False)
    for _ in range(2):  # the second reading comes from the cache
        for text in TEXTS:
            assert tokens(cached, text) == tokens(untouched, text)


def test_words_after_a_line_break_are_not_split_again_on_a_second_reading() -> None:
    text = "Dear Anna,\nthe invoice (ref. 4471-B) went to Kowalski-Byrne, Łódź.\n\tThanks"
    assert prefix_searches_on_second_reading(pipeline(cached=True), text) == []
    # md's untouched tokenizer splits everything after the first line break again
    again = prefix_searches_on_second_reading(pipeline(cached=False), text)
    assert "Kowalski-Byrne," in again


def test_the_cached_pipeline_finds_the_same_entities_on_dev_documents() -> None:
    docs = dev_sets.handwritten_dev() + dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_HARD)
    texts = TEXTS + [d["text"] for d in docs]
    cached, untouched = pipeline(cached=True), pipeline(cached=False)
    expected = entities(untouched, texts)
    assert sum(map(len, expected)) > 300
    assert entities(cached, texts) == expected
    assert entities(cached, texts[::-1]) == expected[::-1]  # every word now seen before


def test_a_dropped_special_case_that_set_an_attribute_would_be_caught() -> None:
    broken, untouched = pipeline(cached=True), pipeline(cached=False)
    broken.tokenizer.rules = {k: v for k, v in broken.tokenizer.rules.items() if k != "\xa0"}
    assert any(tokens(broken, t) != tokens(untouched, t) for t in TEXTS)
