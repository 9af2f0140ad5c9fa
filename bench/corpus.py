"""A synthetic benchmark corpus with gold PII spans: `generate_corpus(n, seed)`.

Documents come from nine genres (e-mails, chat logs, call transcripts, clinical notes,
legal text, HR records, support tickets, finance messages, IT incident reports). Each genre
has many sentence templates; a document draws a random subset, shuffles it, and mixes in
filler and distractor sentences (numbers, versions, capitalised non-PII phrases) so that no
detector can score by learning a layout. People come from Faker in 20 locales (diacritics,
Cyrillic, Greek, CJK, Hangul, Devanagari, Arabic), sometimes written in lower or upper
case; phones, addresses, IBANs and ids use the locale's formats. Secrets and crypto
addresses are generated with valid shapes and checksums.

Gold labels are our category strings (`anonymizer.detection.categories`); every span
satisfies `text[start:end] == surface`.

    python -m bench.corpus --n 600 --seed 0 --out bench/results/corpus.jsonl
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import re
import string
import sys
import unicodedata
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from anonymizer.detection.checksums import (
    B58_ALPHABET,
    BECH32_CHARSET,
    BECH32_CONSTANT,
    bech32_hrp_expand,
    bech32_polymod,
    iban_valid,
)
from anonymizer.detection.training.synth import DocBuilder

LOCALES: dict[str, int] = {  # locale -> weight
    "en_US": 18,
    "en_GB": 8,
    "de_DE": 7,
    "fr_FR": 7,
    "es_ES": 6,
    "it_IT": 4,
    "pt_BR": 4,
    "pl_PL": 4,
    "nl_NL": 3,
    "sv_SE": 3,
    "cs_CZ": 3,
    "tr_TR": 3,
    "vi_VN": 3,
    "ga_IE": 2,
    "ru_RU": 5,
    "uk_UA": 2,
    "el_GR": 2,
    "zh_CN": 4,
    "ja_JP": 3,
    "ko_KR": 3,
    "hi_IN": 2,
    "ar_AA": 2,
}
_FAMILY_NAME_FIRST = {"zh_CN", "ja_JP", "ko_KR", "hu_HU"}
_NO_SPACE_NAMES = {"zh_CN", "ko_KR"}
MONTHS = (
    "January February March April May June July August September October November December"
).split()


def _one_line(value: str) -> str:
    return re.sub(r"\s*\n\s*", ", ", value.strip())


def _ascii(value: str) -> str:
    folded = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


class Person:
    """One consistent fictional person: name in a locale, contact details, identifiers."""

    def __init__(self, fake: Any, locale: str, rng: random.Random) -> None:
        self.locale = locale
        self.first = fake.first_name()
        self.last = fake.last_name()
        if locale in _FAMILY_NAME_FIRST:
            gap = "" if locale in _NO_SPACE_NAMES else " "
            self.full = f"{self.last}{gap}{self.first}"
        else:
            self.full = f"{self.first} {self.last}"
        user = _ascii(self.first)[:10] or fake.user_name()
        surname = _ascii(self.last)[:12] or str(rng.randint(10, 99))
        self.username = rng.choice(
            [
                f"{user}{surname}",
                f"{user}.{surname}",
                f"{user}_{rng.randint(1, 99)}",
                f"{user[:1]}{surname}{rng.randint(1, 999)}",
            ]
        )
        domain = rng.choice(
            [
                "gmail.com",
                "outlook.com",
                "yahoo.co.uk",
                "proton.me",
                "gmx.de",
                "web.de",
                "orange.fr",
                "libero.it",
                "hotmail.com",
                "icloud.com",
                fake.domain_name(),
            ]
        )
        self.email = f"{self.username}@{domain}"
        self.phone = fake.phone_number() if rng.random() < 0.6 else intl_phone(rng)
        self.street = _one_line(fake.street_address())
        self.city = fake.city()
        self.postcode = fake.postcode()
        # A fixed reference day, not today's: the corpus must not change with the clock.
        self.dob = date(2025, 6, 1) - timedelta(days=rng.randint(18 * 365 + 5, 90 * 365))
        self.age = (date(2025, 6, 1) - self.dob).days // 365
        self.iban = registry_iban(fake)
        self.title = rng.choice(["Mr", "Ms", "Mrs", "Dr", "Mx", "Prof"])
        self.job = fake.job()
        self.passport = fake.passport_number()
        self.plate = fake.license_plate()


def registry_iban(fake: Any) -> str:
    """A Faker IBAN whose length matches its country in the IBAN registry.

    Some Faker locales emit IBANs with a valid checksum but a country prefix whose registry
    length they do not follow (a 21-character GB IBAN); real IBANs never look like that.
    """
    for _ in range(20):
        iban = fake.iban()
        if iban_valid(iban):
            return iban
    return "DE89370400440532013000"


def intl_phone(rng: random.Random) -> str:
    """An international number in one of several national layouts."""
    d = lambda n: "".join(rng.choice(string.digits) for _ in range(n))  # noqa: E731
    layouts = [
        lambda: f"+44 20 {d(4)} {d(4)}",
        lambda: f"+44 7{d(3)} {d(6)}",
        lambda: f"0044 20 {d(4)} {d(4)}",
        lambda: f"+1 ({rng.randint(201, 989)}) {d(3)}-{d(4)}",
        lambda: f"({rng.randint(201, 989)}) {rng.randint(200, 999)}-{d(4)}",
        lambda: f"{rng.randint(201, 989)}-{rng.randint(200, 999)}-{d(4)}",
        lambda: f"+49 30 {d(6)}",
        lambda: f"+49 (0)171 {d(7)}",
        lambda: f"030 {d(7)}",
        lambda: f"+33 1 {d(2)} {d(2)} {d(2)} {d(2)}",
        lambda: f"06 {d(2)} {d(2)} {d(2)} {d(2)}",
        lambda: f"+34 6{d(2)} {d(3)} {d(3)}",
        lambda: f"+39 06 {d(8)}",
        lambda: f"+81 3-{d(4)}-{d(4)}",
        lambda: f"+86 138 {d(4)} {d(4)}",
        lambda: f"+91 9{d(4)} {d(5)}",
        lambda: f"+7 495 {d(3)}-{d(2)}-{d(2)}",
        lambda: f"+61 2 {d(4)} {d(4)}",
        lambda: f"+55 11 9{d(4)}-{d(4)}",
        lambda: f"+1-{rng.randint(201, 989)}-{d(3)}-{d(4)} ext. {d(3)}",
        lambda: f"07{d(3)} {d(6)}",
        lambda: f"+31 6 {d(8)}",
        lambda: f"+48 {d(3)} {d(3)} {d(3)}",
    ]
    return rng.choice(layouts)()


# --------------------------------------------------------------------------- value makers


def _date_text(day: date, rng: random.Random) -> str:
    month = MONTHS[day.month - 1]
    return rng.choice(
        [
            f"{day.day} {month} {day.year}",
            f"{month} {day.day}, {day.year}",
            f"{day.isoformat()}",
            f"{day.day:02d}/{day.month:02d}/{day.year}",
            f"{day.month}/{day.day}/{day.year}",
            f"{day.day:02d}.{day.month:02d}.{day.year}",
            f"{day.day} {month[:3]} {day.year}",
            f"{month[:3]}. {day.day}, {day.year}",
        ]
    )


def _rand(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


_ALNUM = string.ascii_letters + string.digits


def api_secret(rng: random.Random) -> str:
    """A credential in one of the common vendor formats, or a random high-entropy string."""
    b64url = _ALNUM + "-_"
    makers = [
        lambda: "sk-" + _rand(rng, _ALNUM, 48),
        lambda: "sk-proj-" + _rand(rng, b64url, 56),
        lambda: "ghp_" + _rand(rng, _ALNUM, 36),
        lambda: "github_pat_" + _rand(rng, _ALNUM + "_", 59),
        lambda: (
            f"xoxb-{_rand(rng, string.digits, 12)}-{_rand(rng, string.digits, 13)}-"
            + _rand(rng, _ALNUM, 24)
        ),
        lambda: "AKIA" + _rand(rng, string.ascii_uppercase + string.digits, 16),
        lambda: "AIza" + _rand(rng, b64url, 35),
        lambda: "glpat-" + _rand(rng, b64url, 20),
        lambda: "sk_live_" + _rand(rng, _ALNUM, 24),
        lambda: jwt(rng),
        lambda: _rand(rng, _ALNUM, rng.randint(24, 40)),
        lambda: _rand(rng, "0123456789abcdef", 40),
    ]
    return rng.choice(makers)()


def password(rng: random.Random) -> str:
    word = rng.choice(
        [
            "Sunflower",
            "dragon",
            "Autumn",
            "tiger",
            "Harbor",
            "maple",
            "Orbit",
            "violet",
            "Comet",
            "falcon",
        ]
    )
    return (
        word
        + rng.choice(["!", "#", "$", "", "&", "*"])
        + str(rng.randint(10, 9999))
        + rng.choice(["", "?", "x", "Q"])
    )


def jwt(rng: random.Random) -> str:
    def enc(obj: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")

    header = enc({"alg": "HS256", "typ": "JWT"})
    payload = enc(
        {"sub": str(rng.randint(10**6, 10**9)), "iat": rng.randint(1_600_000_000, 1_800_000_000)}
    )
    return f"{header}.{payload}.{_rand(rng, _ALNUM + '-_', 43)}"


def btc_base58(rng: random.Random) -> str:
    """A P2PKH address: version 0, a random 20-byte hash, and its Base58Check checksum."""
    payload = bytes([0]) + rng.randbytes(20)
    raw = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number = int.from_bytes(raw, "big")
    chars = ""
    while number:
        number, rem = divmod(number, 58)
        chars = B58_ALPHABET[rem] + chars
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + chars


def btc_bech32(rng: random.Random) -> str:
    """A segwit v0 address (bc1q…) with a valid Bech32 checksum."""
    program = rng.randbytes(20)
    bits = "".join(f"{b:08b}" for b in program)
    data = [0] + [int(bits[i : i + 5].ljust(5, "0"), 2) for i in range(0, len(bits), 5)]
    poly = bech32_polymod(bech32_hrp_expand("bc") + data + [0] * 6) ^ BECH32_CONSTANT
    checksum = [(poly >> 5 * (5 - i)) & 31 for i in range(6)]
    return "bc1" + "".join(BECH32_CHARSET[v] for v in data + checksum)


def eth_address(rng: random.Random) -> str:
    return "0x" + _rand(rng, "0123456789abcdefABCDEF", 40)


def grouped(value: str, rng: random.Random, size: int = 4) -> str:
    sep = rng.choice([" ", " ", "", "-"])
    return sep.join(value[i : i + size] for i in range(0, len(value), size))


# --------------------------------------------------------------------------- templates
#
# Placeholders: {p1.full} {p1.first} {p1.last} {p1.email} {p1.phone} {p1.street} {p1.city}
# {p1.postcode} {p1.dob} {p1.age} {p1.title} {p1.username} {p1.handle} {p1.iban}
# {p1.passport} {p1.plate} (and p2, p3), plus document-level values: {org} {date} {date2}
# {ssn} {ein} {card} {routing} {account} {swift} {mrn} {emp_id} {ticket} {ref} {ipv4} {ipv6}
# {mac} {url} {secret} {password} {btc} {eth} {dl} {national_id} {hospital} {uuid}.
# Words in ((...)) are non-PII fillers chosen at random from the named pool.

SUBJECTS = [
    "Quick question",
    "Re: follow-up",
    "Invoice query",
    "Meeting notes",
    "Your request",
    "Update on the Henderson file",
    "Fwd: documents",
    "Travel plans",
    "Project Atlas",
    "Account changes",
    "Next week",
    "Q3 Planning",
    "Welcome aboard",
]

GENRES: dict[str, dict[str, list[str]]] = {
    "email": {
        "head": [
            "From: {p1.full} <{p1.email}>\nTo: {p2.full} <{p2.email}>\nSubject: ((subject))\n\n",
            "From: {p1.email}\nTo: {p2.email}\nDate: {date}\nSubject: ((subject))\n\n",
            "Subject: ((subject))\n\n",
            "",
        ],
        "open": [
            "Hi {p2.first},\n\n",
            "Dear {p2.title} {p2.last},\n\n",
            "Hello {p2.first_any},\n\n",
            "{p2.first},\n\n",
            "Good morning,\n\n",
            "Hey {p2.first_lower}!\n\n",
        ],
        "body": [
            "Could you call me back on {p1.phone} after lunch?",
            "My new address is {p1.street}, {p1.postcode} {p1.city}.",
            "I have moved to {p1.street} in {p1.city}.",
            "The invoice {ref} is still open on our side.",
            "Please wire the deposit to {p1.iban} before Friday.",
            "You can also reach {p3.full} at {p3.email} while I am away.",
            "I met {p3.full} from {org} last week and she sends her regards.",
            "My mobile is {p1.phone} if anything comes up.",
            "Attached is the scan of my passport ({p1.passport}) for the booking.",
            "Our accountant, {p3.full}, will send the figures for {org}.",
            "I'll be in {p1.city} from {date} until {date2}.",
            "Please update my details: {p1.full}, born {p1.dob}.",
            "The portal link is {url} and my username is {p1.username}.",
            "For the refund, my card ending is not enough, so here is the full number: {card}.",
            "Let's ask {p3.first} whether {org} has signed yet.",
            "I spoke to {p3.title} {p3.last} about it yesterday.",
            "By the way, {p3.first_lower} says hi.",
            "Send the parcel to {p1.full}, {p1.street}, {p1.postcode} {p1.city}.",
            "My husband {p3.first} will pick up the keys.",
            "Could you forward this to {p3.email}?",
            "I'm on {p1.handle} if you prefer to message there.",
        ],
        "close": [
            "\n\nBest,\n{p1.full}",
            "\n\nThanks,\n{p1.first}",
            "\n\nRegards,\n{p1.full}\n{p1.job}\n{org}",
            "\n\nCheers, {p1.first_any}",
            "\n\nKind regards,\n{p1.title} {p1.full}\n{p1.phone}",
            "\n\n-- \n{p1.full} | {org} | {p1.phone}",
            "\n\nSent from my phone",
        ],
    },
    "chat": {
        "head": ["", "#general\n", "Chat export {date}\n"],
        "open": [""],
        "body": [
            "[09:{mm}] {p1.handle}: hey, it's {p1.first_lower} - new number is {p1.phone}",
            "[10:{mm}] {p2.first_any}: lol ok, text me at {p2.phone}",
            "[11:{mm}] {p1.first_any}: send it to {p1.email} pls",
            "[12:{mm}] {p2.handle}: {p3.first_lower} and i are at {p2.street} now",
            "[13:{mm}] {p1.first_any}: my wife {p3.first_any} said the wifi password is {password}",
            "[14:{mm}] {p2.first_any}: did {p3.full_lower} ever pay you back?",
            "[15:{mm}] {p1.first_any}: the server is {ipv4}, login as {p1.username}",
            "[16:{mm}] {p2.first_any}: here's my venmo {p2.handle} or just use iban {p2.iban}",
            "[17:{mm}] {p1.first_any}: ok see you at {p1.street} in {p1.city}",
            "[18:{mm}] {p2.first_any}: its {p2.full_lower} btw, new phone",
            "[19:{mm}] {p1.first_any}: happy birthday!! born {p1.dob} and still young",
            "[20:{mm}] {p2.first_any}: can u ping {p3.first} at {p3.phone}",
            "[21:{mm}] {p1.first_any}: paste the api key here: {secret}",
            "[22:{mm}] {p2.first_any}: tickets booked, ref {ref}",
            "[08:{mm}] {p1.first_any}: i'm {age} now, feeling old",
            "[07:{mm}] {p2.first_any}: address for the party is {p2.street}, {p2.city}",
        ],
        "close": [""],
    },
    "call": {
        "head": ["Call transcript {uuid}\n", "Recording {ticket}, {date}\n", ""],
        "open": [
            "Agent: Thank you for calling {org}, this is {p2.first}. How can I help?\n",
            "Agent: {org} support, {p2.first_any} speaking.\n",
        ],
        "body": [
            "Caller: Hi, my name is {p1.full} and I'm calling about my account.",
            "Agent: Can you confirm your date of birth? Caller: It's {p1.dob}.",
            "Caller: The account number is {account}.",
            "Agent: And the postcode on file? Caller: {p1.postcode}.",
            "Caller: I live at {p1.street}, {p1.city}.",
            "Agent: What's the best number to reach you? Caller: {p1.phone}.",
            "Caller: You can email me at {p1.email}.",
            "Caller: My social is {ssn}.",
            "Agent: I see a payment from card {card}. Caller: Yes, that's mine.",
            "Caller: My wife {p3.first} usually handles this, she's {p3.age_phrase}.",
            "Agent: I've opened case {ticket} for you.",
            "Caller: it's spelled {p1.last_lower}, {p1.first_lower}.",
            "Agent: Is {p1.street} still your address?",
            "Caller: I'm {age} years old, I don't do online banking.",
            "Caller: my driving licence number is {dl}.",
        ],
        "close": ["\nAgent: Thanks {p1.first}, have a good day.", "\nCall ended."],
    },
    "clinical": {
        "head": [
            "Patient: {p1.full}\nMRN: {mrn}\nDOB: {p1.dob}\n\n",
            "Name: {p1.full_upper}\nDate of birth: {p1.dob}\nMedical record number: {mrn}\n\n",
            "DISCHARGE SUMMARY\n{hospital}\n\n",
            "Progress note, {date}\n\n",
        ],
        "open": [""],
        "body": [
            "{p1.title} {p1.last} is a {p1.age_phrase} presenting with chest pain.",
            "Pt {p1.first_any} {p1.last_any}, {age}yo, seen in clinic today.",
            "Seen by Dr. {p3.last} at {hospital} on {date}.",
            "Lives with her daughter {p2.first} at {p1.street}, {p1.city}.",
            "Emergency contact: {p2.full}, {p2.phone}.",
            "Patient reports she was born in {p1.city}.",
            "Insurance ID {national_id}; SSN {ssn}.",
            "Referred by {p3.title} {p3.full} ({p3.email}).",
            "Follow-up appointment scheduled for {date2}.",
            "Discussed the plan with the patient's son, {p2.full}.",
            "Aged {age}, non-smoker, no known allergies.",
            "Next of kin: {p2.full_any}, tel {p2.phone}.",
            "Patient {p1.full} tolerated the procedure well.",
        ],
        "close": [
            "\n\nSigned: {p3.title} {p3.full}, {date}",
            "\n\nElectronically signed by {p3.full}.",
        ],
    },
    "legal": {
        "head": [
            "SERVICE AGREEMENT\n\n",
            "NON-DISCLOSURE AGREEMENT\n\n",
            "LEASE AGREEMENT\n\n",
            "",
        ],
        "open": [
            'This Agreement is made on {date} between {org} (the "Company") and {p1.full} '
            '(the "Contractor").\n\n',
            'THIS LEASE is entered into by {p2.full} ("Landlord") and {p1.full} ("Tenant").\n\n',
        ],
        "body": [
            "The Contractor resides at {p1.street}, {p1.postcode} {p1.city}.",
            "The Company's registered office is at {street_org}, {city_org}.",
            "Payments shall be made to account {p1.iban} (BIC {swift}).",
            "Notices to the Tenant shall be sent to {p1.email}.",
            "The Tenant's passport number is {p1.passport}.",
            "Witness: {p3.full}, {p3.street}, {p3.city}.",
            "The parties agree that {org} retains all rights in the work product.",
            "Employer Identification Number: {ein}.",
            "Mr. {p1.last} acknowledges receipt of the deposit on {date2}.",
            "Any dispute shall be referred to {p3.title} {p3.full} as sole arbitrator.",
            "The vehicle with registration {p1.plate} is excluded from the lease.",
            "The Tenant, born {p1.dob}, confirms the information above.",
        ],
        "close": [
            "\n\nSigned, {p1.full}\nDate: {date}",
            "\n\nSigned: {p1.full_upper}\nWitness: {p3.full}",
        ],
    },
    "hr": {
        "head": [
            "CONFIDENTIAL - HR RECORD\n\n",
            "Employee onboarding form\n\n",
            "Performance review\n\n",
        ],
        "open": [
            "Employee: {p1.full} (Employee ID {emp_id})\n",
            "Name: {p1.full}\nStaff number: {emp_id}\n",
        ],
        "body": [
            "Start date: {date}. Reports to {p2.full}.",
            "Salary will be paid into {p1.iban}.",
            "Home address: {p1.street}, {p1.postcode} {p1.city}.",
            "Personal email: {p1.email}; mobile {p1.phone}.",
            "SSN: {ssn}.",
            "Emergency contact: {p3.full}, {p3.phone}.",
            "{p1.first} joined {org} from {org2}.",
            "Date of birth: {p1.dob}.",
            "{p1.first_any} was rated 'exceeds expectations' by {p2.first_any} {p2.last_any}.",
            "Badge {emp_id2} was issued to {p3.full} on {date2}.",
            "Company car plate: {p1.plate}.",
            "Work permit / passport: {p1.passport}.",
            "The employee is {p1.age_phrase} and works from {p1.city}.",
        ],
        "close": ["\n\nApproved by: {p2.full}", "\n\nHR contact: {p3.email}"],
    },
    "support": {
        "head": ["Ticket {ticket}\n", "Incident {ticket} - login failures\n", "[JIRA] {ticket}\n"],
        "open": ["Reporter: {p1.email}\n", "Reported by {p1.full} ({p1.username})\n"],
        "body": [
            "User {p1.username} reported login failures from {ipv4}.",
            "Device MAC {mac} was seen on the guest network.",
            "Requests came from {ipv6} at {date}.",
            "The leaked token was {secret}; it has been revoked.",
            "Customer {p1.full} says the payment to {btc} never arrived.",
            "Refund sent to wallet {eth}.",
            "Session id {uuid} belongs to {p1.email}.",
            "Please contact {p2.full} on {p2.phone} before closing.",
            "Password for the test account was set to {password}.",
            "See {url} for the full log.",
            "Linked to ticket {ref}.",
            "{p2.first} from {org} will follow up.",
            'Config snippet: api_key = "{secret2}"',
        ],
        "close": ["\n\nAssignee: {p2.full}", ""],
    },
    "finance": {
        "head": ["Payment instruction\n\n", "Wire transfer request {ref}\n\n", ""],
        "open": ["Dear {p2.title} {p2.last},\n\n", "Hi {p2.first},\n\n"],
        "body": [
            "Please transfer the amount to {p1.full}, IBAN {p1.iban}, SWIFT {swift}.",
            "Routing number {routing}, account {account}.",
            "Charge the card {card}, expiry 09/28.",
            "Our EIN is {ein}.",
            "The beneficiary, {p1.full}, lives at {p1.street}, {p1.city}.",
            "Invoice {ref} from {org} is overdue.",
            "Send the remittance advice to {p1.email}.",
            "The account holder's date of birth is {p1.dob}.",
            "Transfer to {p1.iban_compact} with reference {ref2}.",
            "Crypto payouts go to {btc}.",
            "Direct debit mandate signed by {p1.full} on {date}.",
        ],
        "close": ["\n\nRegards,\n{p2.full}\n{org}", "\n\nThanks, {p2.first}"],
    },
    "it": {
        "head": ["Post-incident report {ticket}\n\n", "Server migration notes\n\n"],
        "open": ["Owner: {p1.full} <{p1.email}>\n\n", ""],
        "body": [
            "The database at {ipv4} was exposed for two hours.",
            "Admin login {p1.username} was used from {ipv6}.",
            "A private key was pasted into the wiki:\n{pem}\n",
            "AWS key {secret} appeared in a public commit by {p1.handle}.",
            "Rotate the token {secret2} as well.",
            "The affected laptop (MAC {mac}) belongs to {p2.full}.",
            "{p2.first} ran the rollback from {p2.city}.",
            "Escalated to {p3.full} ({p3.phone}).",
            "Monitoring dashboard: {url}",
            "Host fingerprint {uuid} matches the old server.",
        ],
        "close": ["\n\nPrepared by: {p1.full}", ""],
    },
}

FILLERS = [
    "The meeting room on the 3rd floor holds 12 people.",
    "Version 3.2.1 was deployed on schedule.",
    "We processed 1,250 requests in the last hour.",
    "The quote came to $4,500 including VAT.",
    "Q3 revenue grew 12% year on year.",
    "Please bring the signed forms to the Monday meeting.",
    "The Customer Success team will review the backlog.",
    "Our Quarterly Business Review is next week.",
    "Parking is available behind Building B.",
    "The printer on level 2 is out of toner again.",
    "Let me know if anything is unclear.",
    "Thanks again for your patience.",
    "Project Phoenix is still on track for the spring release.",
    "The office closes at 6 pm on Fridays.",
    "Temperature was 37.2 C at 08:00 and 36.9 C at 14:00.",
    "Blood pressure 128/84, pulse 72.",
    "The contract runs for 24 months with a 3-month notice period.",
    "See section 4.2 of the Terms and Conditions.",
    "Order 3 boxes of A4 paper and 2 toner cartridges.",
    "Read the Privacy Policy before signing.",
    "We expect about 40 participants from 7 countries.",
    "It took 15 minutes to restart the service.",
    "The Annual General Meeting will be held online.",
    "Use the main entrance on the ground floor.",
    "No further action is needed at this stage.",
    "Room 101 is booked from 2 to 4 pm.",
    "The Human Resources department approved the request.",
    "Call volume dropped by 8% in March.",
    "Our Service Level Agreement promises a reply within 48 hours.",
    "The team shipped 14 fixes this sprint.",
    "Please use the New York office template.",
    "The Supreme Court ruling is summarised in the annex.",
    "Tickets for the summer party cost 25 EUR.",
    "Backups run nightly at 02:30 UTC.",
]


def _order_set_built_lists(fake: Any) -> None:
    """Sort the lists Faker builds from a set (it_IT's cities), whose order, and so every
    seeded draw from them, would otherwise change with each process's string hash seed."""
    for provider in fake.get_providers():
        if type(provider).__module__ == "faker.providers.address.it_IT":
            provider.cities = sorted(provider.cities)


class _Generator:
    def __init__(self, seed: int) -> None:
        from faker import Faker

        self.rng = random.Random(seed)
        self.fakers = {}
        for i, locale in enumerate(LOCALES):
            fake = Faker(locale)
            fake.seed_instance(seed * 1000 + i)
            _order_set_built_lists(fake)
            self.fakers[locale] = fake
        self.en = self.fakers["en_US"]
        self.locales = list(LOCALES)
        self.weights = list(LOCALES.values())

    def person(self) -> Person:
        locale = self.rng.choices(self.locales, self.weights)[0]
        return Person(self.fakers[locale], locale, self.rng)

    def document(self) -> dict[str, Any]:
        rng = self.rng
        genre_name = rng.choice(list(GENRES))
        genre = GENRES[genre_name]
        people = {"p1": self.person(), "p2": self.person(), "p3": self.person()}
        values: dict[str, tuple[str, str]] = {}
        body = rng.sample(genre["body"], k=min(len(genre["body"]), rng.randint(3, 8)))
        fillers = rng.sample(FILLERS, k=rng.randint(1, 4)) + [
            self.en.sentence(nb_words=rng.randint(6, 14)) for _ in range(rng.randint(0, 2))
        ]
        sentences = body + fillers
        rng.shuffle(sentences)
        separator = "\n" if genre_name in ("chat", "call") else rng.choice([" ", " ", "\n"])
        doc = DocBuilder()
        self._render(doc, rng.choice(genre["head"]), people, values)
        self._render(doc, rng.choice(genre["open"]), people, values)
        for i, sentence in enumerate(sentences):
            if i:
                doc.text(separator)
            self._render(doc, sentence, people, values)
        self._render(doc, rng.choice(genre["close"]), people, values)
        out = doc.build()
        out["genre"] = genre_name
        return out

    def _render(
        self,
        doc: DocBuilder,
        template: str,
        people: dict[str, Person],
        values: dict[str, tuple[str, str]],
    ) -> None:
        for piece in re.split(r"(\{[\w.]+\}|\(\([\w]+\)\))", template):
            if not piece:
                continue
            if piece.startswith("(("):
                doc.text(self.rng.choice(SUBJECTS))
            elif piece.startswith("{"):
                surface, label = self._value(piece[1:-1], people, values)
                if label:
                    doc.pii(surface, label)
                else:
                    doc.text(surface)
            else:
                doc.text(piece)

    def _value(
        self, key: str, people: dict[str, Person], values: dict[str, tuple[str, str]]
    ) -> tuple[str, str]:
        """(surface, label) for a placeholder; document-level values repeat consistently."""
        if "." in key:
            who, field = key.split(".")
            return self._person_value(people[who], field)
        if key not in values or key in ("mm",):
            values[key] = self._make(key)
        return values[key]

    def _person_value(self, p: Person, field: str) -> tuple[str, str]:
        rng = self.rng
        name = "full person name"
        simple = {
            "full": (p.full, name),
            "first": (p.first, name),
            "last": (p.last, name),
            "full_lower": (p.full.lower(), name),
            "first_lower": (p.first.lower(), name),
            "last_lower": (p.last.lower(), name),
            "full_upper": (p.full.upper(), name),
            "email": (p.email, "email address"),
            "phone": (p.phone, "phone number"),
            "street": (p.street, "street address"),
            "city": (p.city, "location"),
            "postcode": (p.postcode, "postal code"),
            "username": (p.username, "handle"),
            "handle": ("@" + p.username.replace(".", "_"), "handle"),
            "iban": (grouped(p.iban, rng) if rng.random() < 0.6 else p.iban, "iban"),
            "iban_compact": (p.iban, "iban"),
            "passport": (p.passport, "passport number"),
            "plate": (p.plate, "license plate"),
            "title": (p.title, ""),
            "job": (p.job, ""),
            "dob": (_date_text(p.dob, rng), "date of birth"),
        }
        if field in simple:
            return simple[field]
        if field in ("first_any", "last_any", "full_any"):
            value = getattr(p, field[:-4])
            case = rng.random()
            value = value.lower() if case < 0.25 else value.upper() if case < 0.3 else value
            return value, name
        if field == "age_phrase":
            return rng.choice(
                [f"{p.age}-year-old", f"{p.age} year old", f"{p.age} years old"]
            ), "age"
        raise KeyError(field)

    def _make(self, key: str) -> tuple[str, str]:
        rng, en = self.rng, self.en
        fake = self.fakers[rng.choices(self.locales, self.weights)[0]]
        today = date(2025, 6, 1)
        makers: dict[str, Callable[[], tuple[str, str]]] = {
            "org": lambda: (fake.company(), "organization"),
            "org2": lambda: (
                en.company() + " " + rng.choice(["Inc.", "LLC", "Ltd", "GmbH", "S.A."]),
                "organization",
            ),
            "street_org": lambda: (_one_line(fake.street_address()), "street address"),
            "city_org": lambda: (fake.city(), "location"),
            "hospital": lambda: (
                rng.choice(
                    [
                        "St. Mary's Hospital",
                        "Royal Free Hospital",
                        "Charité Berlin",
                        "Mercy General Hospital",
                        f"{en.last_name()} Memorial Hospital",
                        f"{en.city()} Community Clinic",
                    ]
                ),
                "organization",
            ),
            "date": lambda: (_date_text(today - timedelta(days=rng.randint(1, 900)), rng), "date"),
            "date2": lambda: (_date_text(today + timedelta(days=rng.randint(1, 300)), rng), "date"),
            "ssn": lambda: (en.ssn(), "ssn"),
            "national_id": lambda: (
                rng.choice(
                    [
                        f"{_rand(rng, 'ABCDEFGHJKLMNPRSTVWXYZ', 2)}"
                        f"{_rand(rng, string.digits, 6)}{rng.choice('ABCD')}",
                        f"{rng.randint(100, 999)} {rng.randint(100, 999)} "
                        f"{rng.randint(1000, 9999)}",
                    ]
                ),
                "national id",
            ),
            "ein": lambda: (en.ein(), "ein"),
            "card": lambda: (grouped(en.credit_card_number(), rng), "card number"),
            "routing": lambda: (en.aba(), "routing number"),
            "account": lambda: (
                _rand(rng, string.digits, rng.randint(8, 12)),
                "bank account number",
            ),
            "swift": lambda: (en.swift(length=rng.choice([8, 11])), "swift/bic"),
            "mrn": lambda: (
                rng.choice(
                    [
                        _rand(rng, string.digits, 8),
                        f"MRN-{_rand(rng, string.digits, 6)}",
                        f"{rng.randint(100, 999)}-{rng.randint(1000, 9999)}",
                    ]
                ),
                "medical record number",
            ),
            "emp_id": lambda: (
                rng.choice(
                    [
                        f"E{_rand(rng, string.digits, 6)}",
                        f"EMP-{_rand(rng, string.digits, 5)}",
                        f"{rng.randint(10000, 99999)}",
                    ]
                ),
                "internal id",
            ),
            "emp_id2": lambda: (f"B-{_rand(rng, string.digits, 5)}", "internal id"),
            "ticket": lambda: (
                rng.choice(
                    [
                        f"INC-{_rand(rng, string.digits, 6)}",
                        f"#{rng.randint(10000, 999999)}",
                        f"CASE-{today.year}-{_rand(rng, string.digits, 5)}",
                        f"SUP-{rng.randint(1000, 99999)}",
                    ]
                ),
                "reference id",
            ),
            "ref": lambda: (
                rng.choice(
                    [
                        f"{_rand(rng, string.ascii_uppercase, 3)}-{today.year}-"
                        f"{_rand(rng, string.digits, 4)}",
                        f"INV{_rand(rng, string.digits, 7)}",
                        _rand(rng, string.ascii_uppercase + string.digits, 8),
                    ]
                ),
                "reference id",
            ),
            "ref2": lambda: (
                f"{_rand(rng, string.ascii_uppercase, 2)}{_rand(rng, string.digits, 9)}",
                "reference id",
            ),
            "uuid": lambda: (str(en.uuid4()), "reference id"),
            "ipv4": lambda: (en.ipv4_public(), "ip address"),
            "ipv6": lambda: (en.ipv6(), "ip address"),
            "mac": lambda: (en.mac_address(), "mac address"),
            "url": lambda: (
                rng.choice(
                    [
                        en.url() + en.uri_path(),
                        f"https://www.linkedin.com/in/{en.user_name()}",
                        f"https://github.com/{en.user_name()}",
                        en.uri(),
                    ]
                ),
                "url",
            ),
            "secret": lambda: (api_secret(rng), "secret"),
            "secret2": lambda: (api_secret(rng), "secret"),
            "password": lambda: (password(rng), "secret"),
            "pem": lambda: (
                "-----BEGIN RSA PRIVATE KEY-----\n"
                + "\n".join(_rand(rng, _ALNUM + "+/", 64) for _ in range(3))
                + "\n-----END RSA PRIVATE KEY-----",
                "secret",
            ),
            "btc": lambda: (
                btc_base58(rng) if rng.random() < 0.5 else btc_bech32(rng),
                "crypto wallet",
            ),
            "eth": lambda: (eth_address(rng), "crypto wallet"),
            "dl": lambda: (
                f"{rng.choice(string.ascii_uppercase)}{_rand(rng, string.digits, 7)}",
                "driver's license",
            ),
            "age": lambda: (str(rng.randint(19, 88)), "age"),
            "mm": lambda: (f"{rng.randint(0, 59):02d}", ""),
        }
        return makers[key]()


def generate_corpus(n: int = 600, seed: int = 0) -> list[dict[str, Any]]:
    """`n` documents, each {"id", "genre", "text", "spans": [{start, end, label}]}.

    Some Faker providers (uk_UA plates) draw from the global `random` module, so it is seeded
    for the run and put back afterwards."""
    saved_state = random.getstate()
    random.seed(seed)
    try:
        generator = _Generator(seed)
        return [{"id": i, **generator.document()} for i in range(n)]
    finally:
        random.setstate(saved_state)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.corpus", description=__doc__)
    parser.add_argument("--n", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("bench/results/corpus.jsonl"))
    args = parser.parse_args(argv)
    docs = generate_corpus(args.n, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for doc in docs:
            fh.write(json.dumps(doc, ensure_ascii=False) + "\n")
    spans = sum(len(d["spans"]) for d in docs)
    print(f"wrote {len(docs)} documents with {spans} gold spans to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
