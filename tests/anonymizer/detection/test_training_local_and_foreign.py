"""The training corpus names local organisations (churches, clubs, schools, GP practices,
shops, landlords) as organisations, and chats in other languages label only the names and
places among their everyday words."""

from __future__ import annotations

import re
from typing import Any

import pytest

from anonymizer.detection.training import codeswitch, community
from anonymizer.detection.training.synth import DocBuilder, Person, SynthGenerator, generate

ORG = "organization"
PERSON = "full person name"
# one word or phrase each kind's names are built around
KIND_MARKERS = {
    "church": r"Church|Parish|St\.? \w+'s$|Our Lady|Kingdom Hall|Quaker|Hillsong|Iglesia",
    "mosque": r"Mosque|Masjid|Islamic Centre",
    "temple": r"Temple|Gurdwara|Mandir|Buddhist|Synagogue|Hebrew|Sabha|Wat ",
    "club": r"FC|United|Club|Harriers|Athletic|SV |TSV |Deportivo|Scouts|Brownies|Gym",
    "school": r"School|Academy|College|Gymnasium|Lycée|Colegio|Primary|Escola",
    "nursery": r"Nursery|Busy Bees|Kita|Montessori|Pre-School|Playgroup|Childcare|Kinderladen"
    r"|Childminding",
    "gp": r"Practice|Surgery|Partners|Health Centre|Praxis|Medical Centre|Family Medicine"
    r"|Cabinet|Centro de Salud|Clinic",
    "dentist": r"Dental|Dentist|Smile|Orthodontics|Zahnarzt",
    "shop": r"Bakery|Butchers|Barbers|Takeaway|Hardware|Bäckerei|Café|Kitchen|Pharmacy|Opticians"
    r"|Cycles|Cash|Nails|Top Cuts|Pet|Garage|Cleaners|Ferretería|Sari-Sari|Toko|Warung|Florist"
    r"|Launderette|Halal|Mini Market|Sons",
    "landlord": r"Lettings|Estates|Property|Housing|Homes|Realty|Hausverwaltung|Properties|Agents",
}
HONORIFICS = set(
    "bhai bhaiya ji didi kuya ate tita lola abi abla bey hanım teyze mas mbak pak bu ibu don tía "
    "tia frau".split()
)


@pytest.fixture(scope="module")
def docs() -> list[dict[str, Any]]:
    return generate(800, seed=47)


def _surfaces(doc: dict[str, Any], label: str) -> list[str]:
    return [doc["text"][s["start"] : s["end"]] for s in doc["spans"] if s["label"] == label]


def test_every_kind_of_local_organisation_is_labelled_whole(docs: list[dict[str, Any]]) -> None:
    orgs = [o for d in docs for o in _surfaces(d, ORG)]
    for kind, marker in KIND_MARKERS.items():
        assert [o for o in orgs if re.search(marker, o)], kind
    gen = SynthGenerator(3)
    for kind in community.KINDS:
        for _ in range(20):
            name = community.local_org(gen, kind)
            assert "{" not in name and name == name.strip(), name
    # the town inside a club's name is part of the organisation, not a location of its own
    doc = DocBuilder()
    gen.render(doc, "Training with {club} on {weekday}.", [])
    (span,) = doc.build()["spans"]
    assert span["label"] == ORG and doc.build()["text"].startswith(
        "Training with " + doc.build()["text"][span["start"] : span["end"]] + " on "
    )


def test_community_sentences_fill_every_slot(docs: list[dict[str, Any]]) -> None:
    gen = SynthGenerator(9)
    people = [Person(gen) for _ in range(4)]
    for line in community.COMMUNITY_LINES:
        doc = DocBuilder()
        gen.render(doc, line, people)
        built = doc.build()
        assert "{" not in built["text"], line
        kinds = re.findall(r"\{(\w+)\}", line)
        orgs = _surfaces(built, ORG)
        assert len(orgs) >= sum(k in community.KINDS for k in kinds), line
    assert sum(d["genre"] == "community" for d in docs) > 20


def test_foreign_everyday_words_are_never_labelled(docs: list[dict[str, Any]]) -> None:
    foreign = [d for d in docs if d["genre"] == "foreign_chat"]
    assert len(foreign) > 25
    seen = 0
    for doc in foreign:
        for words in codeswitch.COMMON_WORDS.values():
            for word in words:
                for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", doc["text"]):
                    seen += 1
                    assert not any(
                        s["start"] < m.end() and m.start() < s["end"] for s in doc["spans"]
                    ), (word, doc["text"][max(0, m.start() - 30) : m.end() + 30])
    assert seen > 200


def test_names_and_places_in_foreign_lines_are_labelled_and_honorifics_stay_outside() -> None:
    gen = SynthGenerator(11)
    people = [Person(gen) for _ in range(4)]
    for language, lines in codeswitch.LINES.items():
        labelled = 0
        for line in lines:
            doc = DocBuilder()
            gen.render(doc, line, people)
            built = doc.build()
            assert "{" not in built["text"], line
            slots = re.findall(r"\{(\w+):\w+\}", line)
            assert len(built["spans"]) >= len(slots) + len(re.findall(r"\{[A-D]\.", line))
            labelled += len(built["spans"])
            for name in _surfaces(built, PERSON):
                words = {w.lower() for w in name.split()}
                assert not words & HONORIFICS, (language, line, name)
        assert labelled >= 5, language
    assert set(codeswitch.LINES) == set(codeswitch.COMMON_WORDS)
    assert len(codeswitch.LINES) >= 8
