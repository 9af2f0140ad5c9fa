# ruff: noqa: E501  (templates stay one line each, so they read like the documents they make)
"""Local organisations for the training corpus: churches, mosques, temples, sports clubs,
schools, nurseries, GP practices, dental surgeries, small shops, landlords and letting agents.

The annotation guideline (`bench/frozen/README.md`) labels every organisation a person
belongs to or deals with, but Faker's `company()` only makes firms ("Schmidt GmbH"), so a
model trained on it reads "St Aidan's Church" or "Holloway Rovers FC" as a place or nothing.
Names are built from hand-written patterns (no library generates these) filled with Faker's
surnames, first names, towns and street names, and the sentences put them in the contexts
they appear in (school letters, chats, neighbourhood posts, GP letters, tenancy complaints).
The whole name is one `organization` span, the town inside it included ("[[Holloway Rovers
FC]]"), unlike a public authority, where only the place is labelled.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

SAINTS = "Mary Michael Peter Paul John Andrew Luke Mark Aidan Patrick Bride Columba Stephen Joseph Anne Catherine Margaret Chad Cuthbert Hilda Swithun Barnabas Thomas James Matthew Nicholas George David Alban".split()

# kind -> patterns; {town} a town, {last} a surname, {first} a first name, {street} a street
# name, {saint} a saint's name.
PATTERNS: dict[str, list[str]] = {
    "church": [
        "St {saint}'s Church",
        "St. {saint}'s Parish Church",
        "St {saint}'s",
        "Holy Trinity Church",
        "Christ Church {town}",
        "{town} Baptist Church",
        "Grace Baptist Church",
        "{town} Methodist Church",
        "Bethel Pentecostal Church",
        "Redeemed Christian Church of God",
        "New Life Church {town}",
        "Our Lady of Lourdes",
        "St {saint}'s Catholic Church",
        "{town} Evangelical Church",
        "Iglesia Ni Cristo {town}",
        "Church of the Good Shepherd",
        "Kingdom Hall {town}",
        "{town} Quaker Meeting",
        "Hillsong {town}",
        "Elim Church {town}",
    ],
    "mosque": [
        "{town} Central Mosque",
        "Al-Noor Mosque",
        "Masjid Al-Falah",
        "Jamia Masjid {town}",
        "Masjid-e-Noor",
        "{town} Islamic Centre",
        "Madina Mosque",
        "Baitul Futuh Mosque",
        "Masjid Abu Bakr",
        "Al-Rahma Islamic Centre",
    ],
    "temple": [
        "Shri Venkateswara Temple",
        "Guru Nanak Gurdwara",
        "{town} Gurdwara",
        "Sri Murugan Temple",
        "Shree Ram Mandir",
        "BAPS Shri Swaminarayan Mandir",
        "{town} Buddhist Centre",
        "Wat Buddhapadipa",
        "Beth Shalom Synagogue",
        "{town} Hebrew Congregation",
        "Sri Guru Singh Sabha",
        "Hindu Temple of {town}",
    ],
    "club": [
        "{town} Rovers FC",
        "{town} United",
        "{town} Cricket Club",
        "{town} Harriers",
        "{town} Rugby Club",
        "{town} Tennis Club",
        "{town} Swimming Club",
        "Riverside Tennis Club",
        "{town} Athletic",
        "SV {town}",
        "TSV {town} 1860",
        "{town} Judo Club",
        "{town} Running Club",
        "{town} Golf Club",
        "{town} Rowing Club",
        "FC {town}",
        "Club Deportivo {town}",
        "{town} Chess Club",
        "{town} Scouts",
        "1st {town} Brownies",
        "{town} Boxing Gym",
        "{town} Youth FC",
    ],
    "school": [
        "{last} Primary School",
        "{town} Primary School",
        "St {saint}'s C of E Primary",
        "St {saint}'s Catholic Primary School",
        "{town} High School",
        "{town} Academy",
        "{town} Grammar School",
        "{town} Community College",
        "{last} Academy",
        "{town} Sixth Form College",
        "Gymnasium {town}",
        "Lycée {last}",
        "Colegio San {saint}",
        "{town} Middle School",
        "{last} Elementary School",
        "{town} Infant School",
        "{town} Secondary School",
        "Escola Básica de {town}",
        "{town} International School",
    ],
    "nursery": [
        "Little Acorns Nursery",
        "Sunshine Day Nursery",
        "Busy Bees {town}",
        "Kita Sonnenschein",
        "{town} Montessori",
        "Tiny Steps Nursery",
        "Rainbow Pre-School",
        "{town} Playgroup",
        "Happy Days Nursery",
        "Little Stars Childcare",
        "Kinderladen {last}",
        "{first}'s Childminding",
    ],
    "gp": [
        "{town} Medical Practice",
        "The {street} Surgery",
        "{last} & Partners",
        "{town} Health Centre",
        "Praxis Dr. {last}",
        "{street} Medical Centre",
        "{town} Family Practice",
        "{last} Family Medicine",
        "The {town} Surgery",
        "{town} Group Practice",
        "Cabinet Médical {last}",
        "Centro de Salud {town}",
        "{town} Walk-in Clinic",
    ],
    "dentist": [
        "{town} Dental Care",
        "Smile Dental Surgery",
        "{last} Dental Practice",
        "{street} Dental",
        "Bright Smile Dentistry",
        "{town} Orthodontics",
        "{last} & {last} Dentists",
        "Zahnarztpraxis {last}",
        "{town} Dental Studio",
        "Perfect Smile Clinic",
    ],
    "shop": [
        "{first}'s Bakery",
        "{last} & Sons",
        "{last} Butchers",
        "Corner Mini Market",
        "{first}'s Barbers",
        "Golden Dragon Takeaway",
        "{last} Hardware",
        "Bäckerei {last}",
        "Café {first}",
        "{first}'s Kitchen",
        "{town} Pharmacy",
        "{last} Opticians",
        "{town} Cycles",
        "Sharma Cash & Carry",
        "{first}'s Nails",
        "Top Cuts",
        "{town} Pet Supplies",
        "{last}'s Garage",
        "{town} Dry Cleaners",
        "Ferretería {last}",
        "Sari-Sari ni {first}",
        "Toko {first}",
        "Warung {first}",
        "{last} Florist",
        "{town} Launderette",
        "{first} Halal Meats",
    ],
    "landlord": [
        "{last} Lettings",
        "{town} Property Management",
        "{last} Estates",
        "Homely Lettings Ltd",
        "{town} Housing Association",
        "{last} & Co Estate Agents",
        "{town} Residential Lettings",
        "{last} Property Group",
        "Hausverwaltung {last}",
        "{street} Properties Ltd",
        "Open Door Lettings",
        "{town} Homes",
        "{last} Realty",
    ],
}
KINDS = tuple(PATTERNS)

# Sentences that put local organisations where people write about them. {church}, {school}
# ... are organisations of that kind; the rest are the generator's usual slots.
COMMUNITY_LINES = [
    "We go to {church} every Sunday, {A.first} sings in the choir.",
    "{A.first_lc}: see you after mass at {church}?",
    "The funeral will be held at {church} on {date}.",
    "My dad prays at {mosque} on Fridays.",
    "{B.first} volunteers at the food bank run by {mosque}.",
    "The wedding reception is at {temple}, langar after.",
    "{C.first} teaches Sunday school at {temple}.",
    "{A.first} has football training with {club} on {weekday}.",
    "{B.first_lc}: match vs {club} moved to {hh}:{mm}",
    "{D.full} was elected treasurer of {club}.",
    "{C.first} started at {school} in September.",
    "Letter from {school}: {A.first} was absent on {date}.",
    "{B.first_lc}: parents evening at {school} is on {weekday}",
    "Dear parents, {school} will close early on {date}.",
    "Pick up from {nursery} is at {hh}:{mm}, {kin} will get her.",
    "{D.first} has a place at {nursery} from {month}.",
    "I am registered with {gp} and saw {C.title} {C.last} there.",
    "Referral from {gp}, {D.street}, for {A.full}.",
    "{A.first_lc}: cant come, got a GP appt at {gp}",
    "Booked a check-up at {dentist} for {B.first}.",
    "{dentist} charged me {money} for one filling!!",
    "Order for {A.full}, collect from {shop} after {hh}:{mm}.",
    "{C.first} works weekends at {shop} on {C.street}.",
    "Ask {B.first} at {shop}, he knows everyone.",
    "Our landlord, {landlord}, still has not fixed the boiler.",
    "The deposit of {money} was paid to {landlord} on {date}.",
    "{A.first_lc}: {landlord} wants to put the rent up again",
    "Tenancy managed by {landlord}, {A.addr}.",
    "Thanks to everyone at {church} and {club} for the support.",
    "{B.full} (head of year, {school}) will call you.",
]


def local_org(gen: Any, kind: str | None = None) -> str:
    """A local organisation's name of `kind` (any kind when None)."""
    rng: random.Random = gen.rng
    kind = kind or rng.choice(KINDS)
    pattern = rng.choice(PATTERNS[kind])
    fake = gen.faker(
        rng.choice(["en_GB", "en_GB", "en_GB", "en_US", "en_IE", "en_AU", "de_DE", "en_IN"])
    )
    fill: dict[str, Callable[[], str]] = {
        "town": lambda: fake.city(),
        "last": lambda: fake.last_name(),
        "first": lambda: fake.first_name(),
        "street": lambda: fake.street_name(),
        "saint": lambda: rng.choice(SAINTS),
    }
    out = pattern
    for key, make in fill.items():
        while "{" + key + "}" in out:
            out = out.replace("{" + key + "}", make(), 1)
    return out
