"""bench.detection_identity: the comparison of two checkouts' dumps reports what differs."""

from __future__ import annotations

import json
from pathlib import Path

from bench.detection_identity import adversarial_documents, compare


def _dump(path: Path, detections: list[list[object]], ner: list[list[object]]) -> Path:
    doc = {"id": "d1", "error": None, "detections": detections, "ner": ner}
    path.write_text(json.dumps({"anonymizer": str(path), "docs": [doc]}), encoding="utf-8")
    return path


def test_identical_dumps_have_no_differing_document(tmp_path: Path) -> None:
    spans = [[0, 4, "age", "idspans", 0.9]]
    old = _dump(tmp_path / "old.json", spans, [[0, 4, "age", "ner"]])
    new = _dump(tmp_path / "new.json", spans, [[0, 4, "age", "ner"]])
    assert compare(old, new) == 0


def test_a_changed_category_or_raw_entity_is_a_differing_document(tmp_path: Path) -> None:
    old = _dump(tmp_path / "old.json", [[0, 4, "age", "idspans", 0.9]], [])
    assert compare(old, _dump(tmp_path / "a.json", [[0, 4, "secret", "idspans", 0.9]], [])) == 1
    ner = [[5, 9, "full person name", "ner"]]
    assert compare(old, _dump(tmp_path / "b.json", [[0, 4, "age", "idspans", 0.9]], ner)) == 1


def test_the_hostile_documents_include_lines_either_side_of_the_table_line_limit() -> None:
    lengths = {d["id"]: max(map(len, d["text"].split("\n"))) for d in adversarial_documents()}
    assert lengths["adv-pipe-table-lines-4096"] == 4096
    assert lengths["adv-pipe-table-lines-4097"] == 4097
    assert lengths["adv-json-1mb-one-line"] == 1_000_000
