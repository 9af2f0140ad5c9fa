"""anonymizer.metrics on hand-made examples."""

from __future__ import annotations

import math

import numpy as np
import pytest

from anonymizer.metrics import (
    covered_iou,
    f_beta,
    leak_counts,
    leak_rate,
    leaked_surfaces,
    length_ratio,
    mean,
    semantic_similarity,
    span_iou,
    span_scores,
)
from anonymizer.types import Detection


def test_leak_is_case_insensitive_substring_matching():
    assert leaked_surfaces("Call JANE DOE today", ["Jane Doe", "jane@x.org"]) == ["Jane Doe"]


def test_leak_rate_is_micro_averaged_over_all_surfaces():
    outputs = ["[PERSON] wrote to jane@x.org", "nothing left"]
    gold = [["Jane Doe", "jane@x.org"], ["Bob", "Paris", "42"]]
    assert leak_counts(outputs, gold) == (1, 5)
    assert leak_rate(outputs, gold) == pytest.approx(0.2)


def test_leak_rate_ignores_blank_surfaces_and_is_none_without_gold():
    assert leak_rate(["a b"], [[" ", ""]]) is None
    assert leak_rate([], []) is None


def test_leak_rate_rejects_mismatched_lengths():
    with pytest.raises(ValueError):
        leak_rate(["a"], [])


def test_span_iou_of_disjoint_nested_and_partial_spans():
    assert span_iou((0, 5), (5, 10)) == 0.0
    assert span_iou((0, 10), (0, 10)) == 1.0
    assert span_iou((0, 10), (2, 8)) == pytest.approx(0.6)
    assert span_iou((0, 10), (3, 13)) == pytest.approx(7 / 13)


def test_a_partial_overlap_below_the_threshold_is_a_miss_and_a_false_positive():
    # gold 0..10, prediction 0..6: IoU 0.6 < 0.7
    scores = span_scores([[(0, 6, "full person name")]], [[(0, 10, "full person name")]])
    assert (scores.precision, scores.recall, scores.f2) == (0.0, 0.0, 0.0)


def test_a_partial_overlap_above_the_threshold_is_a_match():
    # gold 0..10, prediction 0..8: IoU 0.8 >= 0.7
    scores = span_scores([[(0, 8, "full person name")]], [[(0, 10, "full person name")]])
    assert (scores.precision, scores.recall, scores.f2) == (1.0, 1.0, 1.0)


def test_the_threshold_itself_counts_as_a_match():
    scores = span_scores([[(0, 7, "x")]], [[(0, 10, "x")]])
    assert scores.recall == 1.0


def test_several_predictions_are_combined_to_cover_one_annotation():
    # "Jane Doe" found as "Jane" and "Doe": each alone has IoU < 0.7, together 7/8
    gold = [[(0, 8, "full person name")]]
    pred = [[(0, 4, "full person name"), (5, 8, "full person name")]]
    assert covered_iou((0, 8), [(0, 4, ""), (5, 8, "")]) == pytest.approx(7 / 8)
    scores = span_scores(pred, gold)
    assert scores.recall == 1.0
    assert scores.precision == 1.0  # both predictions took part in the match
    assert scores.credited == 2 and scores.found == 1


def test_one_long_prediction_over_two_annotations_matches_neither():
    scores = span_scores([[(0, 20, "x")]], [[(0, 8, "x"), (12, 20, "x")]])
    assert scores.recall == 0.0 and scores.precision == 0.0


def test_f2_weighs_recall_four_times_as_much_as_precision():
    assert f_beta(0.5, 1.0) == pytest.approx(5 * 0.5 * 1.0 / (4 * 0.5 + 1.0))
    assert f_beta(1.0, 0.5) == pytest.approx(5 * 0.5 / (4 + 0.5))
    assert f_beta(0.0, 0.0) == 0.0
    assert f_beta(None, 0.0) == 0.0
    assert f_beta(1.0, None) is None


def test_f2_over_a_corpus_is_micro_averaged():
    gold = [[(0, 4, "a"), (10, 14, "a")], [(0, 3, "b")]]
    pred = [[(0, 4, "a"), (20, 25, "a")], []]
    scores = span_scores(pred, gold)
    assert scores.n_pred == 2 and scores.n_gold == 3
    assert scores.precision == pytest.approx(1 / 2)
    assert scores.recall == pytest.approx(1 / 3)
    p, r = 1 / 2, 1 / 3
    assert scores.f2 == pytest.approx(5 * p * r / (4 * p + r))


def test_overall_scores_ignore_labels_but_per_category_scores_require_them():
    gold = [[(0, 8, "full person name"), (12, 30, "email address")]]
    pred = [[(0, 8, "organization"), (12, 30, "email address")]]
    scores = span_scores(pred, gold)
    assert scores.recall == 1.0 and scores.precision == 1.0
    cats = scores.per_category
    assert cats["email address"].recall == 1.0 and cats["email address"].precision == 1.0
    assert cats["full person name"].recall == 0.0
    assert cats["full person name"].precision is None  # nothing predicted with that label
    assert cats["organization"].precision == 0.0
    assert cats["organization"].recall is None  # no gold with that label


def test_span_scores_accept_dicts_and_detections():
    gold = [[{"start": 0, "end": 4, "label": "age"}]]
    pred = [[Detection(0, 4, "age", "[AGE]", "regex")]]
    assert span_scores(pred, gold).per_category["age"].f2 == 1.0


def test_span_scores_on_empty_inputs():
    nothing = span_scores([[]], [[]])
    assert (nothing.precision, nothing.recall, nothing.f2) == (None, None, None)
    no_pred = span_scores([[]], [[(0, 3, "x")]])
    assert no_pred.precision is None and no_pred.recall == 0.0 and no_pred.f2 == 0.0
    no_gold = span_scores([[(0, 3, "x")]], [[]])
    assert no_gold.precision == 0.0 and no_gold.recall is None and no_gold.f2 is None
    assert span_scores([], []).n_gold == 0


def test_zero_length_spans_are_ignored():
    scores = span_scores([[(3, 3, "x")]], [[(5, 5, "x")]])
    assert scores.n_pred == 0 and scores.n_gold == 0


def test_scores_serialise_with_sorted_categories():
    data = span_scores([[(0, 4, "b"), (5, 9, "a")]], [[(0, 4, "b")]]).to_dict()
    assert list(data["per_category"]) == ["a", "b"]
    assert data["n_pred"] == 2 and data["found"] == 1


class _FakeEmbedder:
    """Maps each text to a fixed vector so cosines are known exactly."""

    vectors = {"a": [1.0, 0.0], "b": [0.0, 2.0], "c": [1.0, 1.0]}

    def encode(self, texts):  # type: ignore[no-untyped-def]
        return np.array([self.vectors[t] for t in texts])


def test_semantic_similarity_is_the_cosine_per_document():
    sims = semantic_similarity(["a", "a", "a"], ["a", "b", "c"], _FakeEmbedder())
    assert sims == pytest.approx([1.0, 0.0, 1 / math.sqrt(2)])
    assert semantic_similarity([], [], _FakeEmbedder()) == []


def test_length_ratio_per_document():
    assert length_ratio(["abcd", "", ""], ["ab", "", "x"]) == [0.5, 1.0, math.inf]


def test_mean_skips_missing_values():
    assert mean([1.0, None, 3.0]) == 2.0
    assert mean([None]) is None


@pytest.mark.slow
def test_minilm_similarity_ranks_a_paraphrase_above_an_unrelated_text():
    from anonymizer.metrics import minilm

    sims = semantic_similarity(
        ["The meeting moved to Friday afternoon."] * 2,
        ["The meeting was rescheduled to Friday.", "Bananas are rich in potassium."],
        minilm(),
    )
    assert sims[0] > 0.6 > sims[1]
