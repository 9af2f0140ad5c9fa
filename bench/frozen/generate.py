"""Independent-generator evaluation set: short documents from our own templates and mimesis.

Written without reading `bench/corpus.py`: its own genres and templates (`templates.py`), its
own value sources (mimesis, not Faker, plus hand-written formats in `values.py`). Every
document is checked so that redacting exactly its gold spans leaves no gold string behind
(the seed's substring leak metric can reach 0), else it is drawn again.

    python -m bench.frozen.generate --seed 2026 --n 1000   # writes independent.jsonl
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mimesis.locales import Locale

from anonymizer.detection.categories import placeholder_for
from bench.frozen.handwritten import render_jsonl
from bench.frozen.templates import GENRES, NEGATIVE_FILLERS
from bench.frozen.values import COUNTRIES_EN, LATIN_LOCALES, Persona, Values

FROZEN_DIR = Path(__file__).resolve().parent
OUTPUT = FROZEN_DIR / "independent.jsonl"
COMMAND = "python -m bench.frozen.generate --seed 2026 --n 1000"

NUMBER_WORDS = ["six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
RELATIONS = ["sister", "brother", "partner", "mother", "father", "friend", "neighbour"]
RANKS = ["SGT", "SPC", "LT", "PFC", "CPT", "HM2", "SSgt"]
TITLES = ["Mr", "Mrs", "Ms", "Dr", "Prof"]

Segment = tuple[str, str | None]  # (text, label); label None = plain, "~note" = negative
_SLOT = re.compile(r"\{(?P<slot>[a-z0-9_]+)(?::(?P<k>\d))?\}")


class Document:
    """Per-document state: the people, places and values already drawn, by slot and index."""

    def __init__(self, values: Values) -> None:
        self.v = values
        self.people: dict[int, Persona] = {}
        self.cache: dict[tuple[str, int], list[Segment]] = {}
        self.military_addresses: dict[int, tuple[str, str, str]] = {}

    def person(self, k: int) -> Persona:
        if k not in self.people:
            self.people[k] = self.v.persona()
        return self.people[k]

    def home_locale(self, k: int) -> Locale:
        """Where person k lives: their own locale when we have street formats for it."""
        p = self.person(k)
        if p.home is None:
            p.home = p.locale if p.locale in LATIN_LOCALES else self.v.address_locale()
        return p.home

    def military(self, k: int) -> tuple[str, str, str]:
        if k not in self.military_addresses:
            self.military_addresses[k] = self.v.military_address()
        return self.military_addresses[k]

    def segments(self, slot: str, k: int) -> list[Segment]:
        key = (slot, k)
        if key not in self.cache:
            produce = SLOTS[slot]
            self.cache[key] = produce(self, k)
        return self.cache[key]


def gold(
    label: str, fn: Callable[[Document, int], str]
) -> Callable[[Document, int], list[Segment]]:
    return lambda doc, k: [(fn(doc, k), label)]


def negative(
    note: str, fn: Callable[[Document, int], str]
) -> Callable[[Document, int], list[Segment]]:
    return lambda doc, k: [(fn(doc, k), "~" + note)]


def plain(fn: Callable[[Document, int], str]) -> Callable[[Document, int], list[Segment]]:
    return lambda doc, k: [(fn(doc, k), None)]


def _title_name(doc: Document, k: int) -> list[Segment]:
    return [(doc.v.rng.choice(TITLES) + " ", None), (doc.person(k).last, "full person name")]


def _age_yo(doc: Document, k: int) -> list[Segment]:
    return [(f"{doc.v.age()}-year-old", "age")]


def _age_kid(doc: Document, k: int) -> list[Segment]:
    rng = doc.v.rng
    return [(rng.choice(NUMBER_WORDS) if rng.random() < 0.5 else str(rng.randint(10, 17)), "age")]


def _nationality(lower: bool) -> Callable[[Document, int], str]:
    def produce(doc: Document, k: int) -> str:
        nat = doc.v.nationality()
        return nat if lower else nat.title()

    return produce


def _military(part: int) -> Callable[[Document, int], list[Segment]]:
    labels = ("street address", "location", "postal code")

    def produce(doc: Document, k: int) -> list[Segment]:
        return [(doc.military(k)[part], labels[part])]

    return produce


def _company(doc: Document, k: int) -> str:
    return doc.v.company(doc.home_locale(k))


def _work_email(doc: Document, k: int) -> str:
    company = doc.segments("company", k)[0][0]
    return doc.v.work_email(doc.person(k), doc.v.company_domain(company))


SLOTS: dict[str, Callable[[Document, int], list[Segment]]] = {
    # people
    "name": gold("full person name", lambda d, k: d.person(k).full),
    "first": gold("full person name", lambda d, k: d.person(k).first),
    "last": gold("full person name", lambda d, k: d.person(k).last),
    "first_lc": gold("full person name", lambda d, k: d.person(k).first.lower()),
    "name_uc": gold("full person name", lambda d, k: d.person(k).full.upper()),
    "name_rev": gold(
        "full person name", lambda d, k: f"{d.person(k).last.upper()}, {d.person(k).first}"
    ),
    "nick": gold("full person name", lambda d, k: d.v.nickname()),
    "title_name": _title_name,
    # contact
    "email": gold("email address", lambda d, k: d.v.email(d.person(k))),
    "work_email": gold("email address", _work_email),
    "handle": gold("handle", lambda d, k: d.v.handle(d.person(k))),
    "at_handle": gold("handle", lambda d, k: "@" + d.v.handle(d.person(k))),
    "profile_url": gold(
        "url",
        lambda d, k: (
            d.v.rng.choice(["linkedin.com/in/", "github.com/", "https://instagram.com/"])
            + d.v.handle(d.person(k))
        ),
    ),
    "phone_nat": gold("phone number", lambda d, k: d.v.phone_national(_country(d, k))),
    "phone_intl": gold("phone number", lambda d, k: d.v.phone_international(_country(d, k))),
    # places
    "street": gold("street address", lambda d, k: d.v.street_line(d.home_locale(k))),
    "postcode": gold("postal code", lambda d, k: d.v.postal_code(d.home_locale(k))),
    "city": gold("location", lambda d, k: d.v.city(d.home_locale(k))),
    "region": gold("location", lambda d, k: d.v.region(d.home_locale(k))),
    "country_name": gold("location", lambda d, k: LATIN_LOCALES[d.home_locale(k)][0]),
    "country": gold("location", lambda d, k: d.v.rng.choice(COUNTRIES_EN)),
    "po_box": gold("street address", lambda d, k: d.v.po_box()),
    "house_name": gold("street address", lambda d, k: d.v.house_name()),
    "mil_line": _military(0),
    "mil_city": _military(1),
    "mil_zip": _military(2),
    "gps": gold("location", lambda d, k: d.v.gps()),
    # dates and ages
    "date": gold("date", lambda d, k: d.v.day_date()),
    "dob": gold("date of birth", lambda d, k: d.v.birth_date(d.person(k))),
    "age": gold("age", lambda d, k: str(d.v.age())),
    "age_years": gold("age", lambda d, k: f"{d.v.age()} years old"),
    "age_yo": _age_yo,
    "age_kid": _age_kid,
    # groups
    "nat": gold("nationality or group", _nationality(lower=False)),
    "nat_lc": gold("nationality or group", _nationality(lower=True)),
    "religion_lc": gold("nationality or group", lambda d, k: d.v.religion()),
    "ethnic_lc": gold("nationality or group", lambda d, k: d.v.ethnic_group()),
    # identifiers
    "uk_dl": gold("driver's license", lambda d, k: d.v.uk_driving_licence(d.person(k))),
    "plate_uk": gold("license plate", lambda d, k: d.v.uk_plate()),
    "plate_eu": gold("license plate", lambda d, k: d.v.eu_plate()),
    "mbi": gold("national id", lambda d, k: d.v.medicare_mbi()),
    "ni": gold("national id", lambda d, k: d.v.uk_ni_number()),
    "nhs": gold("national id", lambda d, k: d.v.nhs_number()),
    "vat": gold("national id", lambda d, k: d.v.eu_vat()),
    "ssn": gold("ssn", lambda d, k: d.v.us_ssn()),
    "passport": gold("passport number", lambda d, k: d.v.passport()),
    "mrn": gold("medical record number", lambda d, k: d.v.mrn()),
    "npi": gold("medical license", lambda d, k: d.v.npi()),
    "serial": gold("internal id", lambda d, k: d.v.device_serial()),
    "emp_id": gold("internal id", lambda d, k: d.v.employee_id()),
    "cust_id": gold("internal id", lambda d, k: d.v.customer_id()),
    "ref": gold("reference id", lambda d, k: d.v.reference()),
    "booking": gold("reference id", lambda d, k: d.v.booking_code()),
    "iban": gold("iban", lambda d, k: d.v.iban()),
    "bic": gold("swift/bic", lambda d, k: d.v.bic()),
    "card": gold("card number", lambda d, k: d.v.card_number()),
    "ipv4": gold("ip address", lambda d, k: d.v.ipv4()),
    "ipv6": gold("ip address", lambda d, k: d.v.ipv6()),
    "mac": gold("mac address", lambda d, k: d.v.mac()),
    "secret": gold("secret", lambda d, k: d.v.secret()),
    "password": gold("secret", lambda d, k: d.v.password()),
    # organisations
    "company": gold("organization", _company),
    "hospital": gold("organization", lambda d, k: d.v.hospital(d.v.city(d.home_locale(k)))),
    "school": gold("organization", lambda d, k: d.v.school(d.v.city(d.home_locale(k)))),
    "bank": gold("organization", lambda d, k: d.v.bank(d.home_locale(k))),
    # deliberate negatives
    "amount": negative("amount", lambda d, k: d.v.amount()),
    "version": negative("version", lambda d, k: d.v.version()),
    "product": negative("product", lambda d, k: d.v.product()),
    "law": negative("law title", lambda d, k: d.v.law()),
    "title": negative("song or film title", lambda d, k: d.v.title()),
    "abbr": negative("abbreviation", lambda d, k: d.v.abbreviation()),
    "field_label": negative("field label", lambda d, k: d.v.field_label()),
    "isbn": negative("isbn", lambda d, k: d.v.isbn()),
    "ean": negative("barcode", lambda d, k: d.v.ean()),
    "masked_card": negative("masked card", lambda d, k: f"{d.v.rng.randint(0, 9999):04d}"),
    # plain filler
    "relation": plain(lambda d, k: d.v.rng.choice(RELATIONS)),
    "gender_noun": plain(lambda d, k: d.v.rng.choice(["man", "woman"])),
    "rank": plain(lambda d, k: d.v.rng.choice(RANKS)),
}


def _country(doc: Document, k: int) -> str:
    """Phone numbers follow the person's home country (or their culture's country)."""
    p = doc.person(k)
    if p.locale in LATIN_LOCALES:
        return LATIN_LOCALES[p.locale][0]
    return p.country if p.country else LATIN_LOCALES[doc.home_locale(k)][0]


def render(doc: Document, template: str) -> list[Segment]:
    """The template's text split into plain, gold and negative segments."""
    out: list[Segment] = []
    last = 0
    for match in _SLOT.finditer(template):
        if match.start() > last:
            out.append((template[last : match.start()], None))
        out.extend(doc.segments(match.group("slot"), int(match.group("k") or 1)))
        last = match.end()
    if last < len(template):
        out.append((template[last:], None))
    return out


def assemble(segments: list[Segment]) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """Text, gold spans and negatives with offsets from a segment list."""
    parts: list[str] = []
    spans: list[dict[str, Any]] = []
    negatives: list[dict[str, Any]] = []
    offset = 0
    for text, label in segments:
        if label is not None and text.strip():
            start = offset + len(text) - len(text.lstrip())
            end = offset + len(text.rstrip())
            record = {"start": start, "end": end, "text": text.strip()}
            if label.startswith("~"):
                negatives.append({**record, "note": label[1:]})
            else:
                spans.append({"start": start, "end": end, "label": label, "text": text.strip()})
        parts.append(text)
        offset += len(text)
    return "".join(parts), spans, negatives


def leaks_after_gold_redaction(text: str, spans: list[dict[str, Any]]) -> list[str]:
    """Gold strings still present once every gold span is replaced by its placeholder."""
    pieces, last = [], 0
    for span in sorted(spans, key=lambda s: s["start"]):
        pieces.append(text[last : span["start"]])
        pieces.append(placeholder_for(span["label"]))
        last = span["end"]
    pieces.append(text[last:])
    redacted = "".join(pieces).casefold()
    return [s["text"] for s in spans if s["text"].casefold() in redacted]


def generate_document(values: Values, index: int) -> dict[str, Any]:
    """One document; drawn again until gold redaction leaves nothing behind."""
    rng = values.rng
    for _attempt in range(100):
        genre = rng.choice(sorted(GENRES))
        joiner, templates = GENRES[genre]
        chosen = rng.sample(templates, k=min(len(templates), rng.choice([1, 1, 1, 2, 2, 3])))
        if rng.random() < 0.35:
            chosen.insert(rng.randrange(len(chosen) + 1), rng.choice(NEGATIVE_FILLERS))
        doc = Document(values)
        segments: list[Segment] = []
        for i, template in enumerate(chosen):
            if i:
                segments.append((joiner, None))
            segments.extend(render(doc, template))
        text, spans, negatives = assemble(segments)
        if not spans or leaks_after_gold_redaction(text, spans):
            continue
        return {
            "id": f"ind-{index:04d}",
            "genre": genre,
            "text": text,
            "spans": spans,
            "negatives": negatives,
        }
    raise RuntimeError(f"document {index}: no leak-free draw in 100 attempts")


def generate(seed: int, n: int) -> list[dict[str, Any]]:
    """`n` documents, fully determined by `seed` (and the pinned mimesis version)."""
    values = Values(random.Random(seed))
    return [generate_document(values, i) for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    docs = generate(args.seed, args.n)
    args.out.write_text(render_jsonl(docs), encoding="utf-8")
    spans = sum(len(d["spans"]) for d in docs)
    print(f"wrote {len(docs)} documents with {spans} gold spans to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
