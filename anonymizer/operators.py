"""Replacement operators for placeholder spans: category placeholder, numbered placeholder,
mask, salted hash and realistic fakes, each consistent (one string, one replacement).

A mechanism's output marks each replaced PII span with its category placeholder
(`[PERSON]`); `apply_operator` turns those into the chosen replacement. It always starts
from the spans' original text, so applying it again (with the user's salt or a
cross-document memory) recomputes rather than stacks. Mask and hash use presidio-anonymizer's
operators; numbering and fakes need a memory across spans (presidio's operators are
stateless), which `ReplacementMemory` is. Numbered placeholders and fakes are reversible
with the `mapping` the call returns; placeholders, masks and hashes are not.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
import re
import string
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from anonymizer.detection.categories import placeholder_for
from anonymizer.errors import InvalidSettings
from anonymizer.types import RewriteResult, Span

if TYPE_CHECKING:
    from anonymizer.settings import Settings

OPERATORS = ("placeholder", "numbered", "mask", "hash", "fake")
REVERSIBLE = frozenset({"numbered", "fake"})
OPERATOR_TITLES = {
    "placeholder": "Category placeholder ([PERSON])",
    "numbered": "Numbered placeholder ([PERSON_1], same string → same number; restorable)",
    "mask": "Mask (****)",
    "hash": "Salted hash ([PERSON:3f9a…]; same string → same hash for you, not reversible)",
    "fake": "Realistic fake (Faker; restorable; no formal guarantee)",
}
FIXED_MASK = "****"
HASH_HEX_CHARS = 12  # 48 bits: collisions are negligible within a user's documents
FAKE_LOCALES = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL")

CONSISTENT_CAVEAT = (
    "Replacements are consistent: every occurrence of one string gets the same replacement, "
    "so the output shows which replaced spans refer to the same thing."
)
FAKE_CAVEAT = (
    "Realistic fakes (Faker, locale {locale}) carry no formal guarantee: they may coincide "
    "with real people, places or numbers, and a reader cannot tell them from real data."
)
MASK_LENGTH_CAVEAT = "Masks keep the length of each replaced string, which the output shows."
HASH_CAVEAT = (
    "Hashes are salted with a secret salt ({salt}); without it they cannot be recomputed, but "
    "equal strings give equal hashes wherever that salt is used."
)


@dataclass(frozen=True)
class OperatorConfig:
    """Which operator, and its parameters (the salt is a secret and never stored in a receipt)."""

    name: str = "placeholder"
    mask_keep_length: bool = True
    locale: str = "en_US"
    salt: bytes | None = None
    salt_scope: str = "random per run"

    def __post_init__(self) -> None:
        if self.name not in OPERATORS:
            raise InvalidSettings(
                "operator", f"unknown operator {self.name!r}; use {', '.join(OPERATORS)}"
            )
        if self.locale not in FAKE_LOCALES:
            raise InvalidSettings(
                "fake_locale", f"unknown locale {self.locale!r}; use {', '.join(FAKE_LOCALES)}"
            )

    @property
    def reversible(self) -> bool:
        return self.name in REVERSIBLE


@dataclass
class ReplacementMemory:
    """Replacements already given (per category and normalised string) and the numbers used;
    kept per document, or across a user's named set of documents. With `key_secret` the
    strings are stored only as keyed hashes, so a stored memory holds no original text."""

    forward: dict[str, str] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    key_secret: bytes | None = field(default=None, repr=False)

    def key(self, operator: str, category: str, text: str) -> str:
        plain = f"{operator}\x1f{category}\x1f{normalised(text)}"
        if self.key_secret is None:
            return plain
        return hmac.new(self.key_secret, plain.encode("utf-8"), hashlib.sha256).hexdigest()

    def used(self) -> set[str]:
        return set(self.forward.values())

    def to_dict(self) -> dict[str, Any]:
        return {"forward": dict(self.forward), "counters": dict(self.counters)}

    @classmethod
    def from_dict(
        cls, data: dict[str, Any] | None, key_secret: bytes | None = None
    ) -> ReplacementMemory:
        data = data or {}
        return cls(dict(data.get("forward", {})), dict(data.get("counters", {})), key_secret)


def normalised(text: str) -> str:
    """The key under which two mentions count as the same string (case, spacing ignored)."""
    return " ".join(text.split()).casefold()


def apply_operator(
    result: RewriteResult, config: OperatorConfig, memory: ReplacementMemory | None = None
) -> tuple[RewriteResult, dict[str, str]]:
    """The result with its placeholder spans replaced by `config`'s operator, and the
    mapping replacement → original for reversible operators (empty otherwise)."""
    memory = memory if memory is not None else ReplacementMemory()
    replacer = _Replacer(config, memory)
    mapping: dict[str, str] = {}
    spans: list[Span] = []
    for span in result.spans:
        if not span.is_pii or (span.placeholder is None and span.rewritten is None):
            spans.append(span)
            continue
        if span.placeholder is None and span.chunk_idx is not None:
            spans.append(span)  # a token mechanism's surrogate: the mechanism's own output
            continue
        category = span.category or "custom"
        replacement = replacer.replacement(span.text, category, _base_placeholder(span))
        if config.name in ("placeholder", "numbered"):
            spans.append(replace(span, placeholder=replacement, rewritten=None))
        else:
            spans.append(replace(span, placeholder=None, rewritten=replacement))
        if config.reversible:
            mapping.setdefault(replacement, span.text)
    output = "".join(s.output_text for s in spans)
    receipt = result.receipt
    receipt = replace(
        receipt,
        caveats=list(dict.fromkeys([*receipt.caveats, *operator_caveats(config)])),
        details={**receipt.details, "operator": operator_record(config, len(mapping), False)},
    )
    return RewriteResult(result.original, output, spans, receipt), mapping


def operator_caveats(config: OperatorConfig) -> list[str]:
    """What the chosen operator adds to the receipt's list of things not covered."""
    caveats = [] if config.name in ("placeholder", "mask") else [CONSISTENT_CAVEAT]
    if config.name == "mask" and config.mask_keep_length:
        caveats.append(MASK_LENGTH_CAVEAT)
    if config.name == "hash":
        caveats.append(HASH_CAVEAT.format(salt=config.salt_scope))
    if config.name == "fake":
        caveats.append(FAKE_CAVEAT.format(locale=config.locale))
    return caveats


def config_from_settings(settings: Settings, **secrets: Any) -> OperatorConfig:
    """The operator the settings name; `salt`/`salt_scope` come from the caller, never settings."""
    return OperatorConfig(
        settings.operator, settings.mask_keep_length, settings.fake_locale, **secrets
    )


def operator_record(config: OperatorConfig, n_mapped: int, mapping_stored: bool) -> dict:
    """The receipt's record of the operator choice (no salt, no strings)."""
    record: dict[str, Any] = {"name": config.name, "reversible": config.reversible}
    if config.name == "mask":
        record["keep_length"] = config.mask_keep_length
    if config.name == "hash":
        record["salt"] = config.salt_scope
        record["algorithm"] = f"sha256, first {HASH_HEX_CHARS} hex digits"
    if config.name == "fake":
        record["locale"] = config.locale
    record["mapping_stored"] = mapping_stored
    record["mapped_strings"] = n_mapped
    return record


def _base_placeholder(span: Span) -> str:
    """The category placeholder ("[PERSON]") even if the span was already numbered."""
    try:
        return placeholder_for(span.category or "custom")
    except KeyError:
        return span.placeholder or "[REDACTED]"


class _Replacer:
    def __init__(self, config: OperatorConfig, memory: ReplacementMemory) -> None:
        self.config = config
        self.memory = memory
        self.salt = config.salt if config.salt is not None else os.urandom(32)
        self.rng = random.Random(int.from_bytes(os.urandom(16), "big"))
        self.taken = memory.used()

    def replacement(self, text: str, category: str, placeholder: str) -> str:
        name = self.config.name
        if name == "placeholder":
            return placeholder
        if name == "mask":
            return _mask(text, self.config.mask_keep_length)
        if name == "hash":
            return _hash(text, self.salt, placeholder)
        key = self.memory.key(name, category, text)
        if key in self.memory.forward:
            return self.memory.forward[key]
        if name == "numbered":
            value = self._next_number(placeholder)
        else:
            value = self._unused_fake(text, category)
        self.memory.forward[key] = value
        self.taken.add(value)
        return value

    def _next_number(self, placeholder: str) -> str:
        label = placeholder.strip("[]") or "REDACTED"
        while True:
            self.memory.counters[label] = self.memory.counters.get(label, 0) + 1
            value = f"[{label}_{self.memory.counters[label]}]"
            if value not in self.taken:
                return value

    def _unused_fake(self, text: str, category: str) -> str:
        for _ in range(50):
            value = fake_like(text, category, self.config.locale, self.rng)
            if value not in self.taken and normalised(value) != normalised(text):
                return value
        return f"{value} {len(self.taken) + 1}"


def _mask(text: str, keep_length: bool) -> str:
    from presidio_anonymizer.operators import Mask

    if not keep_length:
        return FIXED_MASK
    params = {"masking_char": "*", "chars_to_mask": len(text), "from_end": False}
    return Mask().operate(text, params)


def _hash(text: str, salt: bytes, placeholder: str) -> str:
    from presidio_anonymizer.operators import Hash

    digest = Hash().operate(normalised(text), {"hash_type": "sha256", "salt": salt})
    return f"[{placeholder.strip('[]')}:{digest[:HASH_HEX_CHARS]}]"


# --- realistic fakes --------------------------------------------------------------------


@cache
def _faker(locale: str):  # type: ignore[no-untyped-def]
    from faker import Faker

    return Faker(locale)


_DATE = re.compile(r"^(\d{1,4})([./\- ])(\d{1,2})\2(\d{1,4})$")


def fake_like(text: str, category: str, locale: str, rng: random.Random) -> str:
    """A realistic replacement of the same category, in the original's format where it has one
    (digit groups, separators and letter case are kept for numbers and identifiers)."""
    faker = _faker(locale)
    faker.seed_instance(rng.getrandbits(64))
    generators = {
        "full person name": lambda: _same_case(text, faker.name()),
        "email address": lambda: faker.email(safe=True),
        "street address": lambda: faker.street_address(),
        "location": lambda: faker.city(),
        "organization": lambda: faker.company(),
        "url": lambda: faker.url(),
        "handle": lambda: ("@" if text.startswith("@") else "") + faker.user_name(),
        "ip address": lambda: faker.ipv6() if ":" in text else faker.ipv4(),
        "mac address": lambda: _regroup(faker.mac_address().replace(":", ""), text),
        "iban": lambda: _fake_iban(text, faker),
        "card number": lambda: _regroup(_luhn_digits(_count_alnum(text), rng), text),
        "swift/bic": lambda: faker.swift(length=11 if len(text.strip()) == 11 else 8),
        "date": lambda: _fake_date(text, rng),
        "date of birth": lambda: _fake_date(text, rng),
    }
    make = generators.get(category)
    return make() if make else same_format(text, rng)


def same_format(text: str, rng: random.Random) -> str:
    """Every digit replaced by a digit and every letter by a letter of the same case."""
    out = []
    for ch in text:
        if ch.isdigit():
            out.append(rng.choice(string.digits))
        elif ch.isalpha() and ch.isascii():
            pool = string.ascii_uppercase if ch.isupper() else string.ascii_lowercase
            out.append(rng.choice(pool))
        else:
            out.append(ch)
    return "".join(out)


def _same_case(original: str, fake: str) -> str:
    return fake.upper() if original.isupper() and len(original) > 1 else fake


def _count_alnum(text: str) -> int:
    return sum(1 for c in text if c.isalnum())


def _regroup(chars: str, template: str) -> str:
    """Lay `chars` out in the template's grouping (its separators stay where they were)."""
    it = iter(chars)
    out = []
    for ch in template:
        out.append(next(it, "0") if ch.isalnum() else ch)
    return "".join(out)


def _luhn_digits(n: int, rng: random.Random) -> str:
    body = [rng.randrange(10) for _ in range(max(n, 2) - 1)]
    total = 0
    for i, d in enumerate(reversed(body)):
        d = d * 2 if i % 2 == 0 else d
        total += d - 9 if d > 9 else d
    return "".join(map(str, body)) + str((10 - total % 10) % 10)


def _fake_iban(text: str, faker) -> str:  # type: ignore[no-untyped-def]
    compact = faker.iban()
    if " " in text.strip():
        return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))
    return compact


def _fake_date(text: str, rng: random.Random) -> str:
    """A valid date in the same layout (d/m/y, m/d/y or y-m-d, same separators and widths)."""
    match = _DATE.match(text.strip())
    if not match:
        return same_format(text, rng)
    first, sep, middle, last = match.groups()
    year, month, day = rng.randrange(1950, 2020), rng.randrange(1, 13), rng.randrange(1, 29)

    def width(part: str, value: int) -> str:
        return str(value).zfill(len(part)) if len(part) > 1 else str(value)

    if len(first) == 4:
        return f"{year}{sep}{width(middle, month)}{sep}{width(last, day)}"
    y = str(year)[-len(last) :] if len(last) < 4 else str(year)
    # 25.03.2024 and 25/03/2024 are day-first; 03/25/2024 and other slashed dates month-first
    day_first = int(first) > 12 or (sep != "/" and int(middle) <= 12)
    if day_first:
        return f"{width(first, day)}{sep}{width(middle, month)}{sep}{y}"
    return f"{width(first, month)}{sep}{width(middle, day)}{sep}{y}"
