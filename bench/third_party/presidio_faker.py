"""Build evaluation sets with a third-party generator: presidio-evaluator's PresidioSentenceFaker.

Its templates and value sources (Faker, FakeNameGenerator records from many countries) were
written by Microsoft's Presidio team, not here, so they test the detector on sentences nobody in
this project chose. The templates are split in two by a hash of their text: the `dev` set draws
from one half and may be studied; the `frozen` set draws only from the other half and is scored
only for aggregate figures (`bench/frozen/README.md`).

The generator is not a dependency of the project (it pulls transformers, pandas and plotly), so
this script runs in a throw-away environment; the JSONL it writes is committed:

    python3.11 -m venv /tmp/pe && /tmp/pe/bin/pip install presidio-evaluator==0.3.2  # GENERATOR
    PYTHONPATH=. /tmp/pe/bin/python -m bench.third_party.presidio_faker --split dev
    PYTHONPATH=. /tmp/pe/bin/python -m bench.third_party.presidio_faker --split frozen

Gold spans are the generator's own, mapped onto our categories (`CATEGORY_OF`); the types our
annotation guideline does not treat as PII (job titles, honorifics, a year or a weekday alone)
are dropped, as is the generator's "nan" (an empty field of its records printed as text). A
sentence in which one gold string also occurs outside every gold span is skipped, since no
detector could redact it without redacting the other occurrence (the frozen sets' rule).
Sentences without PII stay: they are where false positives show.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import random
import sys
from collections import Counter
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUTPUTS = {
    "dev": HERE / "presidio_dev.jsonl",
    "frozen": HERE.parent / "frozen" / "presidio_faker.jsonl",
}
SEEDS = {"dev": 11, "frozen": 2027}
SIZES = {"dev": 600, "frozen": 1000}
GENERATOR = "presidio-evaluator==0.3.2"
DATES_END = datetime(2026, 11, 24)
COMMAND = "PYTHONPATH=. python -m bench.third_party.presidio_faker --split frozen"
LOCALE = "en_US"
LOWER_CASE_RATIO = 0.05  # the generator's documented default

# The generator's template field -> our category; None: not PII under our guideline.
CATEGORY_OF: dict[str, str | None] = {
    "person": "full person name",
    "name": "full person name",
    "name_female": "full person name",
    "name_male": "full person name",
    "first_name": "full person name",
    "first_name_male": "full person name",
    "first_name_female": "full person name",
    "first_name_nonbinary": "full person name",
    "last_name": "full person name",
    "last_name_male": "full person name",
    "last_name_female": "full person name",
    "address": "street address",
    "street_name": "street address",
    "building_number": "street address",
    "secondary_address": "street address",
    "city": "location",
    "country": "location",
    "state": "location",
    "state_abbr": "location",
    "postcode": "postal code",
    "zipcode": "postal code",
    "organization": "organization",
    "credit_card_number": "card number",
    "credit_card": "card number",
    "iban": "iban",
    "phone_number": "phone number",
    "email": "email address",
    "url": "url",
    "ip_address": "ip address",
    "ssn": "ssn",
    "us_driver_license": "driver's license",
    "date_time": "date",
    "date_of_birth": "date of birth",
    "birthday": "date of birth",
    "age": "age",
    "nationality": "nationality or group",
    "nation_woman": "nationality or group",
    "nation_man": "nationality or group",
    "nation_plural": "nationality or group",
    "year": None,
    "day_of_week": None,
    "job": None,
    "prefix": None,
    "prefix_male": None,
    "prefix_female": None,
}


def template_half(template: str) -> str:
    """'dev' or 'frozen': which set a template belongs to (first byte of its SHA-256)."""
    return "dev" if hashlib.sha256(template.encode("utf-8")).digest()[0] % 2 == 0 else "frozen"


def to_document(sample: Any, doc_id: str) -> dict[str, Any] | None:
    """One generated sentence in the frozen sets' JSONL shape, or None when it must be skipped."""
    text: str = sample.full_text
    spans = []
    for span in sample.spans:
        field = span.entity_type
        if field not in CATEGORY_OF:
            raise ValueError(f"unmapped generator field {field!r}")
        start, end = span.start_position, span.end_position
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        value = text[start:end]
        if CATEGORY_OF[field] is None or not value or value.lower() == "nan":
            continue
        spans.append(
            {
                "start": start,
                "end": end,
                "label": CATEGORY_OF[field],
                "text": value,
                "source_label": field,
            }
        )
    spans.sort(key=lambda s: (s["start"], s["end"]))
    if any(a["end"] > b["start"] for a, b in zip(spans, spans[1:], strict=False)):
        return None
    if _gold_string_outside_gold(text, spans):
        return None
    genre = f"template-{sample.template_id}"
    return {"id": doc_id, "genre": genre, "text": text, "spans": spans, "negatives": []}


@lru_cache(maxsize=1)
def _placeholders() -> dict[str, str]:
    """Our placeholders, read from the module file: the generator's environment cannot import
    the `anonymizer` package (it lacks the project's dependencies)."""
    path = HERE.parent.parent / "anonymizer" / "detection" / "categories.py"
    spec = importlib.util.spec_from_file_location("_categories", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.PLACEHOLDERS


def _gold_string_outside_gold(text: str, spans: list[dict[str, Any]]) -> bool:
    """True when redacting exactly the gold spans would still leave a gold string in the text
    (the leak metric's check, `anonymizer.metrics.leaked_surfaces`: "CO" is in "[POSTAL_CODE]")."""
    placeholders = _placeholders()
    pieces, last = [], 0
    for s in spans:
        pieces += [text[last : s["start"]], placeholders[s["label"]]]
        last = s["end"]
    pieces.append(text[last:])
    redacted = "".join(pieces).casefold()
    return any(s["text"].casefold() in redacted for s in spans)


def _fix_the_end_of_faker_dates() -> None:
    """Faker's `date_time` draws up to *now*, so a rebuild on another day drew other dates:
    end its range at a fixed day instead."""
    from faker.providers.date_time import Provider

    drawn_until_now = Provider.date_time
    if getattr(drawn_until_now, "fixed_end", False):
        return

    def date_time(self: Any, tzinfo: Any = None, end_datetime: Any = None) -> Any:
        return drawn_until_now(self, tzinfo, end_datetime or DATES_END)

    date_time.fixed_end = True  # type: ignore[attr-defined]
    Provider.date_time = date_time  # type: ignore[method-assign]


def build(split: str) -> tuple[list[dict[str, Any]], Counter[str]]:
    """The documents of one split, and why sentences were skipped."""
    from presidio_evaluator.data_generator import (
        PresidioSentenceFaker,
        presidio_templates_file_path,
    )

    templates = [
        line.strip()
        for line in presidio_templates_file_path.read_text().splitlines()
        if line.strip() and template_half(line.strip()) == split
    ]
    _fix_the_end_of_faker_dates()
    random.seed(SEEDS[split])  # the records' name formats are drawn before the faker seeds itself
    faker = PresidioSentenceFaker(
        locale=LOCALE,
        lower_case_ratio=LOWER_CASE_RATIO,
        sentence_templates=templates,
        entity_type_mapping={field: field for field in CATEGORY_OF},
        random_seed=SEEDS[split],
    )
    documents: list[dict[str, Any]] = []
    skipped: Counter[str] = Counter()
    while len(documents) < SIZES[split]:
        for sample in faker.generate_new_fake_sentences(SIZES[split]):
            doc = to_document(sample, f"pf-{split}-{len(documents):04d}")
            if doc is None:
                skipped["overlapping spans or a gold string outside gold"] += 1
                continue
            documents.append(doc)
            if len(documents) == SIZES[split]:
                break
    return documents, skipped


def render(documents: list[dict[str, Any]]) -> str:
    """The JSONL text of a set, exactly as committed."""
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=sorted(OUTPUTS), required=True)
    args = parser.parse_args(argv)
    documents, skipped = build(args.split)
    out = OUTPUTS[args.split]
    out.write_text(render(documents), encoding="utf-8")
    labels = Counter(s["label"] for d in documents for s in d["spans"])
    print(
        f"{out}: {len(documents)} sentences, {sum(labels.values())} spans, skipped {dict(skipped)}",
        file=sys.stderr,
    )
    print(dict(labels.most_common()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
