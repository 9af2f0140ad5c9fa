"""Names in Chinese, Japanese and Korean script: told from words by the name lists."""

from __future__ import annotations

import pytest

from anonymizer.detection.cjk_names import cjk_full_name, cjk_name_like
from anonymizer.detection.combined import CombinedDetector


@pytest.mark.parametrize("run", ["林冠宇", "王建国", "石井 稔", "김민준", "高橋 明美"])
def test_a_known_surname_and_given_name_read_as_a_full_name(run: str) -> None:
    assert cjk_full_name(run)


@pytest.mark.parametrize(
    "run",
    [
        "東京",  # a word (Tokyo)
        "会社員",  # a word (office worker)
        "高速公路",  # starts with a surname (高), a word (motorway)
        "李路",  # a surname and a road: Li Road
        "深圳市福田区",  # too long, a district
        "下北こころクリニック",  # a clinic
        "A B",  # not CJK
    ],
)
def test_words_places_and_long_runs_are_not_full_names(run: str) -> None:
    assert not cjk_full_name(run)


def test_frequent_words_are_not_name_like_but_rare_runs_and_known_names_are() -> None:
    assert cjk_name_like("拓海") and cjk_name_like("佐藤") and cjk_name_like("서윤")
    assert not cjk_name_like("어머님") and not cjk_name_like("建国") and not cjk_name_like("先生")


def test_the_default_detector_keeps_a_cjk_full_name_with_no_cue_but_a_label() -> None:
    text = "父 Father：林冠宇　手機 0935-116-284\n母 Mother：阮氏秋\nshipper: 王建国, tel +86"
    found = {text[d.start : d.end] for d in CombinedDetector().detect(text)}
    assert {"林冠宇", "王建国"} <= found
