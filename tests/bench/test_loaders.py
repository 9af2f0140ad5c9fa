"""bench.loaders on small files in each supported schema."""

from __future__ import annotations

import json

import pytest

from bench.loaders import load_corpus, load_jsonl, load_tab, map_label, write_jsonl

TEXT = "Jane Doe (jane@example.com) lives in Boston. Jane Doe is 42."


def _jsonl(tmp_path, records, name="corpus.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return path


def test_start_end_label_spans_are_read_and_labels_mapped(tmp_path):
    path = _jsonl(
        tmp_path,
        [
            {
                "text": TEXT,
                "spans": [
                    {"start": 10, "end": 26, "label": "email"},
                    {"start": 0, "end": 8, "label": "full person name"},
                ],
            }
        ],
    )
    [doc] = load_jsonl(path)
    assert doc["text"] == TEXT
    assert doc["spans"] == [
        {
            "start": 0,
            "end": 8,
            "label": "full person name",
            "text": "Jane Doe",
            "source_label": "full person name",
        },
        {
            "start": 10,
            "end": 26,
            "label": "email address",
            "text": "jane@example.com",
            "source_label": "email",
        },
    ]
    assert doc["id"] == "corpus-1"


def test_nemotron_style_span_list_stored_as_a_python_literal_string(tmp_path):
    spans = "[{'start': 37, 'end': 43, 'text': 'Boston', 'label': 'city'}]"
    path = _jsonl(tmp_path, [{"uid": "n-7", "text": TEXT, "spans": spans}])
    [doc] = load_corpus(path)
    assert doc["id"] == "n-7"
    assert doc["spans"] == [
        {"start": 37, "end": 43, "label": "location", "text": "Boston", "source_label": "city"}
    ]


def test_gretel_style_pii_spans_stored_as_a_json_string(tmp_path):
    spans = json.dumps([{"start": 57, "end": 59, "label": "age"}])
    path = _jsonl(tmp_path, [{"generated_text": TEXT, "pii_spans": spans}])
    [doc] = load_corpus(path)
    assert doc["spans"][0]["text"] == "42"


def test_entity_types_spans_mark_every_occurrence_of_the_surface(tmp_path):
    path = _jsonl(
        tmp_path,
        [
            {
                "text": TEXT,
                "entities": [
                    {"entity": "Jane Doe", "types": ["name", "first_name"]},
                    {"entity": "Boston", "types": ["city"]},
                ],
            }
        ],
    )
    [doc] = load_corpus(path)
    assert [(s["start"], s["end"], s["label"]) for s in doc["spans"]] == [
        (0, 8, "full person name"),
        (37, 43, "location"),
        (45, 53, "full person name"),
    ]


def test_text_value_spans_with_and_without_offsets(tmp_path):
    path = _jsonl(
        tmp_path,
        [
            {
                "source_text": TEXT,
                "privacy_mask": [
                    {"value": "jane@example.com", "start": 10, "end": 26, "label": "EMAIL"},
                    {"text": "42", "label": "AGE"},
                ],
            }
        ],
    )
    [doc] = load_corpus(path)
    assert [(s["text"], s["label"]) for s in doc["spans"]] == [
        ("jane@example.com", "email address"),
        ("42", "age"),
    ]


def test_entity_key_naming_a_label_next_to_offsets(tmp_path):
    path = _jsonl(tmp_path, [{"text": TEXT, "spans": [{"entity": "PERSON", "start": 0, "end": 8}]}])
    assert load_corpus(path)[0]["spans"][0]["label"] == "full person name"


def test_labels_are_mapped_onto_our_categories_and_unknown_ones_become_custom():
    assert map_label("FAVOURITE_COLOUR") == "custom"
    assert map_label("B-PER") == "full person name"
    assert map_label("Email Address") == "email address"


def test_offsets_outside_the_text_are_rejected(tmp_path):
    path = _jsonl(tmp_path, [{"text": "short", "spans": [{"start": 2, "end": 50, "label": "x"}]}])
    with pytest.raises(ValueError, match="outside"):
        load_jsonl(path)


def test_a_record_without_text_is_rejected(tmp_path):
    path = _jsonl(tmp_path, [{"body": "x"}])
    with pytest.raises(ValueError, match="no text field"):
        load_jsonl(path)


def test_limit_and_blank_lines(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text('{"text": "a", "spans": []}\n\n{"text": "b"}\n{"text": "c"}\n')
    assert [d["text"] for d in load_jsonl(path)] == ["a", "b", "c"]
    assert len(load_jsonl(path, limit=2)) == 2


def _tab_document():
    text = "The applicant, Mr John Smith, was born in 1962 in Ankara. Case no. 123/45."
    return {
        "doc_id": "001-61807",
        "text": text,
        "dataset_type": "test",
        "annotations": {
            "annotator2": {"entity_mentions": []},
            "annotator1": {
                "entity_mentions": [
                    {
                        "entity_type": "PERSON",
                        "entity_mention_id": "m1",
                        "start_offset": 18,
                        "end_offset": 28,
                        "span_text": "John Smith",
                        "identifier_type": "DIRECT",
                    },
                    {
                        "entity_type": "DATETIME",
                        "entity_mention_id": "m2",
                        "start_offset": 42,
                        "end_offset": 46,
                        "span_text": "1962",
                        "identifier_type": "QUASI",
                    },
                    {
                        "entity_type": "LOC",
                        "entity_mention_id": "m3",
                        "start_offset": 50,
                        "end_offset": 56,
                        "span_text": "Ankara",
                        "identifier_type": "QUASI",
                    },
                    {
                        "entity_type": "CODE",
                        "entity_mention_id": "m4",
                        "start_offset": 67,
                        "end_offset": 73,
                        "span_text": "123/45",
                        "identifier_type": "DIRECT",
                    },
                    {
                        "entity_type": "MISC",
                        "entity_mention_id": "m5",
                        "start_offset": 4,
                        "end_offset": 13,
                        "span_text": "applicant",
                        "identifier_type": "NO_MASK",
                    },
                ]
            },
        },
    }


def test_tab_reads_the_first_annotators_maskable_mentions(tmp_path):
    path = tmp_path / "echr_test.json"
    path.write_text(json.dumps([_tab_document()]))
    [doc] = load_corpus(path)  # sniffed as TAB
    assert doc["id"] == "001-61807"
    assert [(s["text"], s["label"]) for s in doc["spans"]] == [
        ("John Smith", "full person name"),
        ("1962", "date"),
        ("Ankara", "location"),
        ("123/45", "reference id"),
    ]


def test_tab_can_keep_no_mask_mentions_and_pick_an_annotator(tmp_path):
    path = tmp_path / "echr.json"
    path.write_text(json.dumps([_tab_document()]))
    [doc] = load_tab(path, include_no_mask=True)
    assert ("applicant", "custom") in [(s["text"], s["label"]) for s in doc["spans"]]
    assert load_tab(path, annotator="annotator2")[0]["spans"] == []
    with pytest.raises(ValueError, match="no annotator"):
        load_tab(path, annotator="annotator9")


def test_a_json_array_of_plain_records_is_read_as_records(tmp_path):
    path = tmp_path / "records.json"
    path.write_text(
        json.dumps([{"text": TEXT, "spans": [{"start": 0, "end": 8, "label": "name"}]}])
    )
    assert load_corpus(path)[0]["spans"][0]["label"] == "full person name"


def test_written_jsonl_loads_back_unchanged(tmp_path):
    docs = [
        {
            "id": "d1",
            "text": TEXT,
            "spans": [
                {
                    "start": 0,
                    "end": 8,
                    "label": "full person name",
                    "text": "Jane Doe",
                    "source_label": "full person name",
                }
            ],
        }
    ]
    path = write_jsonl(docs, tmp_path / "out" / "corpus.jsonl")
    assert load_corpus(path) == docs
