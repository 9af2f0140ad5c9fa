"""A smaller NER cut from trained weights (fewer encoder layers, fewer labels) keeps every
weight that still has a place, saves and loads like the shipped model, and a later run can
start from what an earlier one saved."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from anonymizer.detection import learned
from anonymizer.detection.training.arch import encoder_stack, smaller_ner, truncated_encoder
from anonymizer.detection.training.train import save, start_weights

TEXTS = [
    "Ask Priya Raman at Northwind Traders about the Civil Rights Act.",
    "Mail goes to Dmitri in Odesa, 14 Harbour Street, before Christmas 2024.",
    "lol ok ping jamal then, he's in Leeds till friday",
]


@pytest.fixture(scope="module")
def shipped() -> Any:
    return learned._build_pipeline()


def _ents(nlp: Any) -> list[list[tuple[int, int, str]]]:
    return [[(e.start_char, e.end_char, e.label_) for e in d.ents] for d in nlp.pipe(TEXTS)]


def test_a_copy_of_the_same_shape_finds_the_same_entities(shipped: Any) -> None:
    ner = shipped.get_pipe("ner")
    depth = len(encoder_stack(ner.model).layers)
    copy = smaller_ner(shipped, depth, list(ner.labels))
    assert _ents(copy) == _ents(shipped)


def test_dropped_labels_disappear_and_kept_output_rows_are_copied(shipped: Any) -> None:
    ner = shipped.get_pipe("ner")
    keep = ["PERSON", "GPE", "ORG"]
    small = smaller_ner(shipped, 2, keep)
    small_ner = small.get_pipe("ner")
    assert set(small_ner.labels) == set(keep)
    assert len(encoder_stack(small_ner.model).layers) == 2
    assert len(encoder_stack(ner.model).layers) > 2  # the source is left alone
    old_names = [ner.moves.get_class_name(i) for i in range(ner.moves.n_moves)]
    old_w = ner.model.get_ref("upper").get_param("W")
    new_w = small_ner.model.get_ref("upper").get_param("W")
    for i in range(small_ner.moves.n_moves):
        name = small_ner.moves.get_class_name(i)
        np.testing.assert_array_equal(new_w[i], old_w[old_names.index(name)])
    assert {label for doc in _ents(small) for _, _, label in doc} <= set(keep)


def test_the_cut_model_saves_and_loads_through_the_detector_s_loader(
    shipped: Any, tmp_path: Any
) -> None:
    small = smaller_ner(shipped, 2, ["PERSON", "GPE"])
    save(small, tmp_path / "model", {"name": "test"})
    loaded = learned._build_pipeline(tmp_path / "model")
    assert len(encoder_stack(loaded.get_pipe("ner").model).layers) == 2
    assert _ents(loaded) == _ents(small)
    found = learned.LearnedNerDetector(tmp_path / "model").detect_all(TEXTS[0])
    assert {d.rule_id for d in found} <= {"ner:PERSON", "ner:GPE"}


def test_an_encoder_cannot_be_cut_to_nothing_or_grown(shipped: Any) -> None:
    model = shipped.get_pipe("ner").model
    depth = len(encoder_stack(model).layers)
    with pytest.raises(ValueError):
        truncated_encoder(model, 0)
    with pytest.raises(ValueError):
        truncated_encoder(model, depth + 1)
    with pytest.raises(ValueError):
        smaller_ner(shipped, 1, ["PERSON"])
    assert len(encoder_stack(model).layers) == depth


def test_a_run_can_start_from_the_weights_an_earlier_run_saved(shipped: Any, tmp_path: Any) -> None:
    earlier = smaller_ner(shipped, 2, ["PERSON", "GPE"])
    meta = {"train_docs": 12, "hand_docs": 3, "hand_share": 0.35, "command": "python -m ..."}
    save(earlier, tmp_path / "model", meta)
    nlp, note, start_meta = start_weights(str(tmp_path / "model"))
    assert _ents(nlp) == _ents(earlier)
    assert str(tmp_path / "model") in note and "3 hand-written docs at share 0.35" in note
    assert start_meta == meta  # its command goes into the new meta.json's earlier_commands
    assert "previously shipped" in start_weights("shipped")[1]
    for wrong in ("newest", str(tmp_path / "missing")):
        with pytest.raises(ValueError):
            start_weights(wrong)
