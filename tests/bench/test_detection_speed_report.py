"""The speed part of the detection benchmark: the long development documents, the CPU-seconds
in the speed table, and the side-by-side engine comparison."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from bench import dev_sets
from bench.detection_bench import markdown
from bench.regex_speed import ROOT, compare, compare_sets, set_documents


def test_long_documents_join_dev_documents_with_their_spans_shifted() -> None:
    docs = dev_sets.long_dev(3)
    assert [10_000 <= len(d["text"]) <= 70_000 for d in docs] == [True] * 3
    first, second = dev_sets.corpus_dev(400)[0], dev_sets.handwritten_dev()[0]
    long = docs[0]
    assert long["text"].startswith(first["text"] + "\n\n" + second["text"])
    shift = len(first["text"]) + 2
    expected = first["spans"] + [
        {**s, "start": s["start"] + shift, "end": s["end"] + shift} for s in second["spans"]
    ]
    assert long["spans"][: len(expected)] == expected
    for doc in docs:
        for span in doc["spans"]:
            surface = doc["text"][span["start"] : span["end"]]
            assert surface and surface == surface.strip()


def test_the_speed_table_gives_the_ratio_and_cpu_seconds_per_system() -> None:
    systems = {"iou0.5": {"precision": 1, "recall": 1, "f2": 1}, "recall_by_category": {}}
    systems["iou0.7"] = systems["iou0.5"]
    names = ("combined (batched)", "combined (one at a time)", "presidio AnalyzerEngine", "regex")
    entry = {
        "n_docs": 4,
        "n_gold": 9,
        "chars": 52_000,
        "docs_per_s": dict(zip(names, (4.0, 2.0, 1.0, 40.0), strict=True)),
        "docs_per_cpu_s": dict(zip(names, (4.0, 2.0, 4 / 3, 20.0), strict=True)),
        "cpu_seconds": dict(zip(names, (1.0, 2.0, 3.0, 0.2), strict=True)),
        "systems": {"combined": {"leak": 0.1, "uncovered": 0.1, **systems}},
    }
    result = {"sets": {"dev-long": entry}, "regex_throughput": {"mb_per_cpu_s": 2.5}}
    result["regex_throughput"] |= {"bytes": 2_000_000, "cpu_seconds": 0.8}
    row = next(line for line in markdown(result).splitlines() if line.startswith("| dev-long | 52"))
    assert "4.00×" in row and "3.00×" in row and "1.0 / 3.0 / 0.2" in row
    assert "2.50 MB per CPU-second" in markdown(result)


needs_git = pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout"
)


def head_revision() -> str:
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


@needs_git
def test_engines_of_two_revisions_run_side_by_side_and_agree() -> None:
    head = head_revision()
    text = "\n\n".join(d["text"] for d in dev_sets.handwritten_dev())
    result = compare(text, head, rounds=1)
    assert result["identical"] and result["detections"] > 300
    assert set(result["mb_per_cpu_s"]) == {"this tree", head}


@needs_git
def test_set_comparison_reports_each_set_and_refuses_frozen_sets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert compare_sets(["dev-hand"], head_revision())
    assert "dev-hand: 46 documents" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="lead only"):
        set_documents("frozen-hand")


def test_the_anchor_report_counts_each_anchored_rule_s_positions_and_matches() -> None:
    from anonymizer.detection.regex import RULES, SUPERSET_GATED_RULES
    from bench.regex_speed import anchor_report

    text = "Patient: Ana Lima. Client: Rui Costa. My patient is well."
    rows = {row[0]: row[1:] for row in anchor_report(text)}
    assert set(rows) == {r.rule_id for r in RULES if r.anchors and r.trigger is None}
    count, matches, gated = rows["person_label"]
    assert count >= 3 and 1 <= matches < count
    assert gated is ("person_label" in SUPERSET_GATED_RULES)
    assert all(matches <= count for count, matches, _ in rows.values())
