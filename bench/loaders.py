"""Load gold-annotated corpora from local files into one shape: `{"text", "spans", "id"}`.

Every span is `{"start", "end", "label", "text", "source_label"}` with character offsets into
`text`; labels are mapped onto our category strings by `anonymizer.detection.gold` (unknown
labels become `custom`, so they still count in the over-all scores) and the dataset's own label
is kept as `source_label`.

Formats (nothing is downloaded):
- JSONL as written by `bench.corpus` and the Nemotron-PII / gretel-style datasets. The span
  schema is auto-detected per span, as the seed's benchmark does: `start/end/label`,
  `entity/types` (surface string and label list, no offsets: every occurrence of the surface
  is a gold span) or `text/value` (a surface string, with or without offsets). The span list
  may be stored as a JSON or Python-literal string (Nemotron-PII does this).
- TAB, the Text Anonymization Benchmark (ECHR court cases; Pilán et al., 2022): a JSON list of
  documents whose `annotations` map each annotator to `entity_mentions` with
  `start_offset/end_offset/entity_type/identifier_type`. Mentions marked `NO_MASK` are not
  gold PII (the benchmark says they need not be masked).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from anonymizer.detection.gold import category_for_label

Document = dict[str, Any]

TEXT_KEYS = ("text", "source_text", "generated_text", "full_text", "document")
SPAN_LIST_KEYS = ("spans", "pii_spans", "privacy_mask", "entities", "span_labels", "labels")
START_KEYS = ("start", "start_offset", "begin", "char_start")
END_KEYS = ("end", "end_offset", "char_end")
LABEL_KEYS = ("label", "entity_type", "type", "types", "category", "entity_label", "tag")
SURFACE_KEYS = ("text", "value", "entity", "span_text", "surface")

# TAB's entity types that `category_for_label` does not know under these names.
TAB_LABELS: dict[str, str] = {
    "PERSON": "full person name",
    "CODE": "reference id",
    "LOC": "location",
    "ORG": "organization",
    "DATETIME": "date",
    "DEM": "nationality or group",
    "QUANTITY": "custom",
    "MISC": "custom",
}


def map_label(label: str) -> str:
    """Our category for a dataset label; labels nobody maps become `custom`."""
    return category_for_label(TAB_LABELS.get(label.strip(), label))


# ---------------------------------------------------------------------------------------
# JSONL


def load_jsonl(path: str | Path, limit: int | None = None) -> list[Document]:
    """Documents from a JSONL file of any supported span schema (blank lines skipped)."""
    docs: list[Document] = []
    with open(path, encoding="utf-8") as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{line_no}: not JSON ({exc.msg})") from None
            docs.append(document_from_record(record, default_id=f"{Path(path).stem}-{line_no}"))
            if limit is not None and len(docs) >= limit:
                break
    return docs


def document_from_record(record: Mapping[str, Any], default_id: str = "") -> Document:
    """One document from a JSON object, auto-detecting its text key and span schema."""
    text_key = next((k for k in TEXT_KEYS if isinstance(record.get(k), str)), None)
    if text_key is None:
        raise ValueError(f"record {default_id!r} has no text field (looked for {TEXT_KEYS})")
    text = record[text_key]
    raw_spans = next((record[k] for k in SPAN_LIST_KEYS if record.get(k) is not None), [])
    spans = parse_spans(text, _decode_list(raw_spans))
    doc_id = record.get("id", record.get("uid", record.get("doc_id", default_id)))
    return {"id": str(doc_id), "text": text, "spans": spans}


def _decode_list(raw: Any) -> list[Any]:
    """A span list that may be stored as a JSON string or a Python literal string."""
    if isinstance(raw, str):
        raw = raw.strip()
        if not raw:
            return []
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError:
            raw = ast.literal_eval(raw)
    if not isinstance(raw, list):
        raise ValueError(f"span list is a {type(raw).__name__}, expected a list")
    return raw


def parse_spans(text: str, raw_spans: Iterable[Any]) -> list[dict[str, Any]]:
    """Gold spans sorted by offset, de-duplicated; offsets are checked against `text`."""
    spans: dict[tuple[int, int, str], dict[str, Any]] = {}
    for raw in raw_spans:
        for start, end, label in _offsets(text, raw):
            if not 0 <= start < end <= len(text):
                raise ValueError(f"span {start}:{end} lies outside a text of {len(text)} chars")
            category = map_label(label)
            spans[(start, end, category)] = {
                "start": start,
                "end": end,
                "label": category,
                "text": text[start:end],
                "source_label": label,
            }
    return [spans[k] for k in sorted(spans)]


def _offsets(text: str, raw: Any) -> list[tuple[int, int, str]]:
    if isinstance(raw, (list, tuple)):  # [start, end, label] triples (ai4privacy span_labels)
        if len(raw) >= 3 and isinstance(raw[0], int) and isinstance(raw[1], int):
            return [(raw[0], raw[1], str(raw[2]))]
        raise ValueError(f"cannot read span {raw!r}")
    if not isinstance(raw, Mapping):
        raise ValueError(f"cannot read span {raw!r}")
    start = _first(raw, START_KEYS)
    end = _first(raw, END_KEYS)
    label = _label(raw)
    if start is not None and end is not None:
        return [(int(start), int(end), label)]
    surface = _surface(raw)
    if surface is None:
        raise ValueError(f"span {dict(raw)!r} has neither offsets nor a surface string")
    return [(m.start(), m.end(), label) for m in re.finditer(re.escape(surface), text)]


def _first(raw: Mapping[str, Any], keys: Sequence[str]) -> Any:
    return next((raw[k] for k in keys if raw.get(k) is not None), None)


def _label(raw: Mapping[str, Any]) -> str:
    keys = LABEL_KEYS
    if "types" not in raw and _first(raw, START_KEYS) is not None:
        keys = (*LABEL_KEYS, "entity")  # {"entity": "PERSON", "start": ..} names the label
    value = _first(raw, keys)
    if isinstance(value, (list, tuple)):
        value = value[0] if value else ""
    return str(value or "pii")


def _surface(raw: Mapping[str, Any]) -> str | None:
    for key in SURFACE_KEYS:
        value = raw.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


# ---------------------------------------------------------------------------------------
# TAB (ECHR)


def load_tab(
    path: str | Path,
    annotator: str | None = None,
    include_no_mask: bool = False,
    limit: int | None = None,
) -> list[Document]:
    """Documents from a TAB JSON file, using one annotator's mentions (the first by default)."""
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    if isinstance(data, Mapping):
        data = list(data.values()) if "text" not in data else [data]
    docs: list[Document] = []
    for i, record in enumerate(data):
        annotations: Mapping[str, Any] = record.get("annotations") or {}
        if not annotations:
            mentions: list[Any] = []
        else:
            name = annotator if annotator is not None else sorted(annotations)[0]
            if name not in annotations:
                raise ValueError(f"document {record.get('doc_id', i)} has no annotator {name!r}")
            mentions = annotations[name].get("entity_mentions", [])
        kept = [
            m
            for m in mentions
            if include_no_mask or str(m.get("identifier_type", "")).upper() != "NO_MASK"
        ]
        docs.append(
            {
                "id": str(record.get("doc_id", i)),
                "text": record["text"],
                "spans": parse_spans(record["text"], kept),
            }
        )
        if limit is not None and len(docs) >= limit:
            break
    return docs


# ---------------------------------------------------------------------------------------
# Any file


def load_corpus(path: str | Path, fmt: str = "auto", limit: int | None = None) -> list[Document]:
    """Load a local corpus; `fmt` is `jsonl`, `json` (an array of records), `tab` or `auto`."""
    path = Path(path)
    if fmt == "auto":
        fmt = _sniff(path)
    if fmt == "jsonl":
        return load_jsonl(path, limit=limit)
    if fmt == "tab":
        return load_tab(path, limit=limit)
    if fmt == "json":
        records = json.loads(path.read_text(encoding="utf-8"))
        return [
            document_from_record(r, default_id=f"{path.stem}-{i}")
            for i, r in enumerate(records[:limit] if limit is not None else records)
        ]
    raise ValueError(f"unknown corpus format {fmt!r}; use jsonl, json, tab or auto")


def _sniff(path: Path) -> str:
    """`tab` for a JSON array of TAB documents, `json` for another array, else `jsonl`."""
    with open(path, encoding="utf-8") as handle:
        head = handle.read(4096).lstrip()[:1]
    if head != "[":
        return "jsonl"
    records = json.loads(path.read_text(encoding="utf-8"))
    first = records[0] if records else {}
    return "tab" if isinstance(first, Mapping) and "annotations" in first else "json"


def write_jsonl(docs: Iterable[Mapping[str, Any]], path: str | Path) -> Path:
    """Save documents as JSONL (`text`, `spans` with start/end/label, plus `id` if present)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        for doc in docs:
            handle.write(json.dumps(dict(doc), ensure_ascii=False) + "\n")
    return path
