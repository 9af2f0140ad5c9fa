"""The hand-written training sets (`train-hand-a`, `train-hand-b`, …) are well-formed, exactly what
the builder makes from their sources, and share no text with any evaluation set."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.dev_hard import build
from bench.dev_hard.checks import unmarked_occurrences
from bench.dev_sets import (
    HANDWRITTEN_BLIND,
    HANDWRITTEN_DEV,
    HANDWRITTEN_FRESH,
    HANDWRITTEN_FRESH2,
    HANDWRITTEN_HARD,
    HANDWRITTEN_OPEN,
    HANDWRITTEN_OPEN2,
    HANDWRITTEN_OPEN3,
    HANDWRITTEN_OPEN4,
    HANDWRITTEN_OPEN5,
    HANDWRITTEN_OPEN6,
    HANDWRITTEN_WILD,
    HANDWRITTEN_WILD_BLIND,
    handwritten_dev,
)

# the fewest documents each set has had since it landed
MIN_DOCS = {"train-hand-a": 90, "train-hand-b": 90, "train-hand-c": 130, "train-hand-d": 120}
MIN_DOCS |= {"train-hand-e": 120, "train-hand-f": 140}
MIN_DOCS |= {"train-hand-g": 141, "train-hand-h": 133, "train-hand-i": 107, "train-hand-j": 147}
MIN_DOCS |= {"train-hand-k": 82, "train-hand-l": 107, "train-hand-m": 112, "train-hand-n": 109}
MIN_DOCS |= {"train-hand-o": 70, "train-hand-p": 70, "train-hand-q": 70, "train-hand-r": 70}
TRAIN_SETS = tuple(MIN_DOCS)
FROZEN = Path(__file__).resolve().parents[2] / "bench" / "frozen"
WINDOW = 80  # characters: a shared run this long means copied text, not a shared phrase


def _training_docs() -> list[dict]:
    return [d for name in TRAIN_SETS for d in handwritten_dev(build.BUILDS[name].output)]


def _evaluation_texts() -> list[str]:
    paths = (HANDWRITTEN_DEV, HANDWRITTEN_BLIND, HANDWRITTEN_HARD, HANDWRITTEN_WILD)
    paths += (HANDWRITTEN_WILD_BLIND, HANDWRITTEN_FRESH, HANDWRITTEN_FRESH2)
    paths += (HANDWRITTEN_OPEN, HANDWRITTEN_OPEN2, HANDWRITTEN_OPEN3)
    paths += (HANDWRITTEN_OPEN4, HANDWRITTEN_OPEN5, HANDWRITTEN_OPEN6)
    texts = [d["text"] for path in paths if path.is_file() for d in handwritten_dev(path)]
    for name in ("handwritten.jsonl", "independent.jsonl"):  # compared by code, never read
        with (FROZEN / name).open(encoding="utf-8") as lines:
            texts += [json.loads(line)["text"] for line in lines if line.strip()]
    return texts


# Wording that law prescribes, which writers reproduce independently: the declaration of a
# witness statement (Criminal Justice Act 1967 s.9 in England, its NSW counterpart).
STATUTORY_FORMS = re.compile(
    r"true to the best of my knowledge and belief and I make it knowing that, if it is "
    r"tendered in evidence, I (?:will|shall) be liable to prosecution if I have wilfully "
    r"stated in it anything (?:that|which) I know to be false, or do not believe to be true\."
)


def _squashed(text: str) -> str:
    """The text with runs of white space made one space and statutory forms left out."""
    return STATUTORY_FORMS.sub(" ", " ".join(text.split()))


def _windows(text: str) -> set[str]:
    squashed = _squashed(text)
    return {squashed[i : i + WINDOW] for i in range(0, max(1, len(squashed) - WINDOW + 1), 20)}


@pytest.mark.parametrize("name", TRAIN_SETS)
def test_the_file_is_exactly_what_the_builder_makes_and_has_no_unmarked_gold(name):
    docs = build.build_set(name)
    assert len(docs) >= MIN_DOCS[name]
    assert build.problems(docs, substring_leaks_refused=False) == []
    raw = build.BUILDS[name].output.read_text(encoding="utf-8")
    assert build.serialise(docs) == raw
    for doc in docs:
        assert unmarked_occurrences(doc) == [], doc["id"]


def test_every_training_folder_is_checked_here():
    built = {name for name in build.BUILDS if name.startswith("train-hand-")}
    assert built == set(TRAIN_SETS)
    assert not any(build.BUILDS[name].substring_leaks_refused for name in built)


def test_training_text_may_hold_a_name_inside_a_word_but_evaluation_text_may_not():
    doc = {
        "id": "t",
        "genre": "chat",
        "text": "Cal: can you call me back",
        "spans": [{"start": 0, "end": 3, "label": "full person name", "text": "Cal"}],
        "negatives": [],
    }
    assert build.problems([doc], substring_leaks_refused=False) == []
    assert any("substring leak" in p for p in build.problems([doc]))
    unmarked = dict(doc, text="Cal: can you ask Cal to call")
    assert any("unmarked" in p for p in build.problems([unmarked], substring_leaks_refused=False))


def test_no_training_document_shares_a_long_run_of_text_with_an_evaluation_set():
    evaluation = set().union(*(_windows(text) for text in _evaluation_texts()))
    for doc in _training_docs():
        squashed = _squashed(doc["text"])
        runs = {squashed[i : i + WINDOW] for i in range(max(1, len(squashed) - WINDOW + 1))}
        assert not runs & evaluation, doc["id"]


def test_the_overlap_check_catches_a_copied_paragraph():
    copied = "x " * 10 + _evaluation_texts()[0][:200] + " y"
    squashed = " ".join(copied.split())
    runs = {squashed[i : i + WINDOW] for i in range(len(squashed) - WINDOW + 1)}
    assert runs & _windows(_evaluation_texts()[0])
