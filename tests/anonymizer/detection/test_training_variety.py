"""The training corpus is deliberately varied: every genre, many scripts, casing and spacing
noise, names in many forms, and negatives that are never labelled."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from anonymizer.detection.training.synth import (
    AUTHORITIES,
    DEPARTMENTS,
    GENRES,
    KINSHIP,
    LAWS,
    PRODUCTS,
    WORKS,
    DocBuilder,
    Person,
    SynthGenerator,
    generate,
)

PERSON = "full person name"
NORP = "nationality or group"


@pytest.fixture(scope="module")
def docs() -> list[dict[str, Any]]:
    return generate(800, seed=31)


def _surfaces(doc: dict[str, Any], label: str) -> list[str]:
    return [doc["text"][s["start"] : s["end"]] for s in doc["spans"] if s["label"] == label]


def _covered(doc: dict[str, Any], start: int, end: int) -> bool:
    return any(s["start"] < end and start < s["end"] for s in doc["spans"])


def test_every_genre_appears_in_a_few_hundred_documents(docs: list[dict[str, Any]]) -> None:
    seen = {d["genre"] for d in docs}
    assert seen == set(GENRES)
    assert {"sms", "workchat", "email_thread", "transcript", "story", "police", "forum"} <= seen


def test_laws_works_products_departments_and_authorities_are_never_labelled(
    docs: list[dict[str, Any]],
) -> None:
    # several-word titles only: a one-word song title ("Valerie") is also somebody's name
    phrases = [p for p in LAWS + WORKS + PRODUCTS + DEPARTMENTS if " " in p]
    authority_words = {a.replace("{place}", "").strip() for a in AUTHORITIES}
    found = 0
    for doc in docs:
        for phrase in phrases + sorted(authority_words):
            for m in re.finditer(re.escape(phrase), doc["text"]):
                found += 1
                assert not _covered(doc, m.start(), m.end()), (doc["genre"], phrase)
    assert found > 300  # the negatives are really there


def test_the_place_inside_a_public_authority_is_a_location(docs: list[dict[str, Any]]) -> None:
    hits = 0
    for doc in docs:
        for m in re.finditer(r"(\S[^\n]*?) (City Council|County Court|Police)\b", doc["text"]):
            spans = [s for s in doc["spans"] if s["end"] == m.end(1)]
            if spans:
                hits += 1
                assert spans[0]["label"] == "location"
                assert not _covered(doc, m.start(2), m.end(2))
    assert hits >= 3


def test_kinship_words_stay_outside_names(docs: list[dict[str, Any]]) -> None:
    kin = {k.lower() for k in KINSHIP} | {"uncle", "auntie", "aunty", "aunt", "cousin", "grandma"}
    names = [n for d in docs for n in _surfaces(d, PERSON)]
    assert not [n for n in names if n.split()[0].lower() in kin]
    text = "\n".join(d["text"] for d in docs)
    assert re.search(r"\b(Uncle|Auntie|uncle|aunty|Cousin) \w+", text)


def test_lower_case_names_and_groups_are_labelled(docs: list[dict[str, Any]]) -> None:
    names = [n for d in docs for n in _surfaces(d, PERSON)]
    groups = [n for d in docs for n in _surfaces(d, NORP)]
    assert sum(n.islower() for n in names) > 100
    assert sum(n.islower() for n in groups) > 30
    # single first names, upper-case speaker labels and `LAST, First` all occur as names
    assert sum(" " not in n for n in names) > len(names) / 4
    assert any(n.isupper() and " " not in n for n in names)
    assert any(re.fullmatch(r"[^,]+, [^,]+", n) for n in names)


def test_names_come_in_many_scripts(docs: list[dict[str, Any]]) -> None:
    names = " ".join(n for d in docs for n in _surfaces(d, PERSON))
    scripts = {
        "cyrillic": r"[\u0400-\u04ff]",
        "arabic": r"[\u0600-\u06ff]",
        "cjk": r"[\u4e00-\u9fff]",
        "hangul": r"[\uac00-\ud7af]",
        "devanagari": r"[\u0900-\u097f]",
        "greek": r"[\u0370-\u03ff]",
        "vietnamese": r"[ơưạảấầẩậắằẳặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữự]",
    }
    missing = [s for s, pattern in scripts.items() if not re.search(pattern, names)]
    assert not missing


def test_the_same_person_is_named_in_several_forms() -> None:
    gen = SynthGenerator(5)
    person = Person(gen)
    while not person.first.isascii():
        person = Person(gen)
    doc = DocBuilder()
    for _ in range(60):
        gen.render(doc, "{A.any} ", [person])
    built = doc.build()
    forms = {built["text"][s["start"] : s["end"]] for s in built["spans"]}
    assert all(s["label"] == PERSON for s in built["spans"])
    assert len(forms) >= 4
    assert person.first in forms and person.first.lower() in forms
    assert not [f for f in forms if f.split()[0].rstrip(".") in {"Mr", "Mrs", "Ms", "Dr", "Prof"}]


def test_a_city_or_house_name_stands_alone_on_an_address_line(
    docs: list[dict[str, Any]],
) -> None:
    alone = {"location": 0, "street address": 0}
    for doc in (d for d in docs if d["genre"] == "addresses"):
        offset = 0
        for line in doc["text"].split("\n"):
            body = line.strip().rstrip(",")
            start = offset + line.index(body) if body else offset
            for s in doc["spans"]:
                if (s["start"], s["end"]) == (start, start + len(body)) and not any(
                    c.isdigit() for c in body
                ):
                    alone[s["label"]] = alone.get(s["label"], 0) + 1
            offset += len(line) + 1
    assert alone["location"] >= 20 and alone["street address"] >= 5


def test_spacing_noise_roughens_the_text_but_never_a_value() -> None:
    doc = DocBuilder(spacing_noise=random.Random(3))
    values = ["Ana María López", "St. John's Wood", "Dr. No, Inc."]
    for i in range(40):
        doc.text("Hello, this is a note. Call ")
        doc.pii(values[i % 3], PERSON)
        doc.text(" today.\n")
    built = doc.build()
    surfaces = [built["text"][s["start"] : s["end"]] for s in built["spans"]]
    assert surfaces == values * 13 + values[:1]
    assert "  " in built["text"]
    assert built["text"].count("Hello,") < 40  # some commas were dropped
    plain = DocBuilder()
    plain.text("Hello, this is a note.")
    assert plain.build()["text"] == "Hello, this is a note."


def test_padded_values_are_labelled_without_their_padding() -> None:
    doc = DocBuilder()
    doc.text("in")
    doc.pii(" Qəşəm ", "location")
    built = doc.build()
    (span,) = built["spans"]
    assert built["text"] == "in Qəşəm " and built["text"][span["start"] : span["end"]] == "Qəşəm"


def test_an_attached_age_unit_is_inside_the_age_span(docs: list[dict[str, Any]]) -> None:
    ages = [a for d in docs for a in _surfaces(d, "age")]
    assert sum(a.endswith("old") for a in ages) > 10
    texts = "\n".join(d["text"] for d in docs)
    for doc in docs:
        for s in doc["spans"]:
            after = doc["text"][s["end"] : s["end"] + 9]
            if s["label"] == "age":
                assert not re.match(r"[- ](year|yr)s?[- ]old", after), after
    assert "years old" in texts
