"""Inline markup for the hand-written dev set, turned into character offsets.

Gold PII is written `⟦Jane Doe|per⟧` (text, then a label alias or a full category name after
the last `|`); a negative is written `⟪Civil Rights Act|law title⟫` (text, then a free note).
The white square/angle brackets never occur in the documents themselves, so logs, JSON and
config files need no escaping. Offsets are always computed, never typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from anonymizer.detection.categories import CATEGORIES

GOLD_OPEN, GOLD_CLOSE = "⟦", "⟧"
NEG_OPEN, NEG_CLOSE = "⟪", "⟫"

LABEL_ALIASES: dict[str, str] = {
    "per": "full person name",
    "email": "email address",
    "phone": "phone number",
    "ssn": "ssn",
    "nid": "national id",
    "ip": "ip address",
    "mac": "mac address",
    "url": "url",
    "pass": "passport number",
    "dob": "date of birth",
    "org": "organization",
    "addr": "street address",
    "zip": "postal code",
    "loc": "location",
    "age": "age",
    "rout": "routing number",
    "acct": "bank account number",
    "iban": "iban",
    "bic": "swift/bic",
    "card": "card number",
    "dl": "driver's license",
    "plate": "license plate",
    "mrn": "medical record number",
    "medlic": "medical license",
    "iid": "internal id",
    "ref": "reference id",
    "wallet": "crypto wallet",
    "handle": "handle",
    "secret": "secret",
    "date": "date",
    "nrp": "nationality or group",
}

_MARK = re.compile(r"⟦([^⟦⟧⟪⟫]+)⟧|⟪([^⟦⟧⟪⟫]+)⟫")


class MarkupError(ValueError):
    """A source file whose markup cannot be read (unknown label, stray bracket, empty span)."""


@dataclass
class Marked:
    """Plain text with its gold spans and negatives, offsets into `text`."""

    text: str
    spans: list[dict[str, Any]] = field(default_factory=list)
    negatives: list[dict[str, Any]] = field(default_factory=list)


def category_for_alias(alias: str) -> str:
    """The category string for an alias or a full category name."""
    key = alias.strip()
    category = LABEL_ALIASES.get(key, key)
    if category not in CATEGORIES:
        raise MarkupError(f"unknown label {alias!r}")
    return category


def _split_last_bar(body: str, where: int) -> tuple[str, str]:
    if "|" not in body:
        raise MarkupError(f"mark at char {where} has no '|label' part: {body!r}")
    value, _, tag = body.rpartition("|")
    if not value or value != value.strip():
        raise MarkupError(f"mark at char {where} is empty or has outer spaces: {body!r}")
    return value, tag.strip()


def parse(source: str) -> Marked:
    """Strip the markup from `source`, recording where each marked piece lands."""
    out: list[str] = []
    marked = Marked(text="")
    cursor = 0
    length = 0
    for match in _MARK.finditer(source):
        before = source[cursor : match.start()]
        _reject_stray_brackets(before, cursor)
        out.append(before)
        length += len(before)
        gold_body, neg_body = match.group(1), match.group(2)
        value, tag = _split_last_bar(gold_body or neg_body, match.start())
        start, end = length, length + len(value)
        if gold_body is not None:
            marked.spans.append(
                {"start": start, "end": end, "label": category_for_alias(tag), "text": value}
            )
        else:
            if not tag:
                raise MarkupError(f"negative at char {match.start()} has no note")
            marked.negatives.append({"start": start, "end": end, "text": value, "note": tag})
        out.append(value)
        length = end
        cursor = match.end()
    rest = source[cursor:]
    _reject_stray_brackets(rest, cursor)
    out.append(rest)
    marked.text = "".join(out)
    return marked


def _reject_stray_brackets(chunk: str, offset: int) -> None:
    for bracket in (GOLD_OPEN, GOLD_CLOSE, NEG_OPEN, NEG_CLOSE):
        at = chunk.find(bracket)
        if at >= 0:
            raise MarkupError(f"stray {bracket!r} at char {offset + at}")
