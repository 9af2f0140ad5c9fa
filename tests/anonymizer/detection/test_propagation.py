"""Name propagation: a name found once is redacted wherever else it is mentioned."""

from __future__ import annotations

import random
import re

import pytest

from anonymizer.detection import propagation
from anonymizer.detection.categories import placeholder_for
from anonymizer.detection.combined import CombinedDetector
from anonymizer.detection.propagation import name_mentions, propagate_names
from anonymizer.detection.regex import RegexDetector, word_alternation
from anonymizer.types import Detection


def person(text: str, surface: str, score: float = 0.8) -> Detection:
    start = text.index(surface)
    return Detection(
        start,
        start + len(surface),
        "full person name",
        placeholder_for("full person name"),
        "test",
        score,
    )


def surfaces(text: str, detections: list[Detection]) -> list[str]:
    return [text[d.start : d.end] for d in detections]


def test_other_mentions_of_a_found_name_are_detected_in_any_case() -> None:
    text = "[10:42] Aaron Sato: hi\nit's aaron here, AARON said. Aaronson is someone else."
    found = propagate_names(text, [person(text, "Aaron Sato")])
    assert surfaces(text, found) == ["Aaron", "Sato", "aaron", "AARON"]
    assert all(d.source == "propagation" and d.category == "full person name" for d in found)


def test_possessives_count_but_longer_words_do_not() -> None:
    text = "Dr. Ana Müller called. Müller's notes; Müllerstraße is a street."
    found = propagate_names(text, [person(text, "Ana Müller")])
    assert surfaces(text, found) == ["Ana", "Müller", "Müller"]


def test_weak_seeds_common_words_and_other_categories_do_not_propagate() -> None:
    text = "Thanks Team. The team met. Kim went home; kim is a name."
    weak = person(text, "Kim", score=0.5)
    common = person(text, "Team")
    email = Detection(0, 6, "email address", "[EMAIL]", "test", 1.0)
    assert propagate_names(text, [weak, common, email]) == []


class NoModel:
    """Stands in for the NER model, so that the rules and propagation are tested alone."""

    def all_many(self, texts: list[str]) -> list[list[Detection]]:
        return [[] for _ in texts]


def test_common_words_do_not_spread_and_word_names_spread_only_as_written() -> None:
    text = "Big Three, Salesperson Mo, Grace Hart. the big three, a salesperson, grace. Grace?"
    seeds = [person(text, "Big Three"), person(text, "Salesperson Mo"), person(text, "Grace Hart")]
    assert surfaces(text, propagate_names(text, seeds)) == ["Grace", "Hart", "Grace"]


def test_combined_detector_redacts_unmarked_mentions_of_a_speaker() -> None:
    text = "[10:42] aaron: see you soon\n[10:43] bea: it's aaron's car, tell aaron"
    detector = CombinedDetector(RegexDetector(), NoModel())
    combined = surfaces(text, detector.detect_resolved(text))
    assert combined.count("aaron") == 3


_PIECES = [
    "Anna", "anna", "ANNA", "Annabel", "Anna's", "Anna’s", "Anna'ss", "Anna-Lena", "anna_b",
    "Anna2", "O'Neil", "o'neil", "O'Neil's", "Jean-Luc", "jean", "Will", "will", "WILL",
    "Strauß", "STRAUSS", "strauss", "Γαρυφαλίδης", "ΓΑΡΥΦΑΛΊΔΗΣ", "İrem", "irem", "Kelvin",
    "Kelvin", "-Anna", "'anna", "x", "7", " ", " ", "\n", ", ", ". ", "’", "'", "-", "_",
]  # fmt: skip


_BEFORE = r"(?<![\w'’-])"
_AFTER = r"(?![\w-]|['’]\w\w)"


def compiled_mentions(text: str, rare: set[str], common: set[str]) -> list[tuple[int, int]]:
    """The reference the word search is checked against: one compiled alternation per word
    set (rare words in any case, common ones as written), whole words, longest first."""
    spans = []
    for words, flags in ((rare, re.IGNORECASE), (common, 0)):
        if words:
            alternation = word_alternation(frozenset(words))
            pattern = re.compile(f"{_BEFORE}(?:{alternation}){_AFTER}", flags)
            spans += [m.span() for m in pattern.finditer(text)]
    return sorted(spans)


@pytest.mark.parametrize("budget", [propagation.FIND_BUDGET, 0])  # 0: the one-pass path
def test_the_word_search_finds_what_a_compiled_alternation_finds_on_random_text(
    monkeypatch, budget: int
) -> None:
    monkeypatch.setattr(propagation, "FIND_BUDGET", budget)
    rng = random.Random(12)
    rare = {"anna", "o'neil", "jean-luc", "strauss", "γαρυφαλίδησ", "irem", "kelvin"}
    common = {"Will", "Anna"}
    for _ in range(400):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 40)))
        words = set(rng.sample(sorted(rare), rng.randint(0, len(rare))))
        commons = set(rng.sample(sorted(common), rng.randint(0, len(common))))
        expected = compiled_mentions(text, words, commons)
        assert name_mentions(text, words, commons) == expected, text


def test_a_word_of_another_language_spreads_only_as_written() -> None:
    text = "IMPORTE SALDO Saldo\nsaldo anterior, Saldo final. Kwabenyah paid; kwabenyah left."
    seeds = [person(text, "Saldo"), person(text, "Kwabenyah")]
    assert surfaces(text, propagate_names(text, seeds)) == [
        "Saldo",
        "Saldo",
        "Kwabenyah",
        "kwabenyah",
    ]


_ID_PIECES = [
    "mausi_87", "mausi_876", "MAUSI_87", "ab-12345", "ab-1234", "x.mausi_87", "@", ".", "-",
    " ", "\n", "a", "7", ".com", "@mail", "ab-12345.", "_",
]  # fmt: skip


@pytest.mark.parametrize("budget", [0, 10**9])
def test_identifier_search_finds_what_the_alternation_finds(monkeypatch, budget: int) -> None:
    monkeypatch.setattr(propagation, "FIND_BUDGET", budget)
    rng = random.Random(14)
    values = ["mausi_87", "ab-12345", "ab-1234", "mausi_876"]
    for _ in range(400):
        text = "".join(rng.choice(_ID_PIECES) for _ in range(rng.randint(1, 30)))
        chosen = set(rng.sample(values, rng.randint(1, len(values))))
        pattern = rf"(?<![\w@.-])(?:{word_alternation(frozenset(chosen))})(?![\w@-]|\.\w)"
        expected = [m.span() for m in re.finditer(pattern, text)]
        assert propagation.identifier_mentions(text, chosen) == expected, text
