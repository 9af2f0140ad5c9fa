"""Inline gold markup -> plain text with character offsets, so no offset is ever typed by hand.

`[[Jane Doe|name]]` marks a gold PII span (a short alias or a full category string);
`{{Civil Rights Act|title}}` marks a deliberate negative: text a naive detector may flag but
which is not PII. Negatives are kept for error analysis and never count as gold.
"""

from __future__ import annotations

import re
from typing import Any

from anonymizer.detection.categories import CATEGORIES

ALIASES: dict[str, str] = {
    "name": "full person name",
    "email": "email address",
    "phone": "phone number",
    "ssn": "ssn",
    "natid": "national id",
    "ip": "ip address",
    "mac": "mac address",
    "url": "url",
    "passport": "passport number",
    "dob": "date of birth",
    "org": "organization",
    "addr": "street address",
    "zip": "postal code",
    "loc": "location",
    "age": "age",
    "routing": "routing number",
    "bank": "bank account number",
    "iban": "iban",
    "swift": "swift/bic",
    "card": "card number",
    "ein": "ein",
    "dl": "driver's license",
    "plate": "license plate",
    "mrn": "medical record number",
    "medlic": "medical license",
    "iid": "internal id",
    "ref": "reference id",
    "crypto": "crypto wallet",
    "handle": "handle",
    "secret": "secret",
    "date": "date",
    "nrp": "nationality or group",
}

_MARK = re.compile(
    r"\[\[(?P<gold>[^\[\]|]+)\|(?P<label>[^\[\]|]+)\]\]|\{\{(?P<neg>[^{}|]+)(?:\|(?P<note>[^{}|]*))?\}\}"
)


def category_for(alias: str) -> str:
    """The category string for a markup label (alias or full name); ValueError when unknown."""
    key = alias.strip()
    category = ALIASES.get(key, key)
    if category not in CATEGORIES:
        raise ValueError(f"unknown label {alias!r}")
    return category


def parse_markup(source: str) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """Plain text, gold spans and negatives from a marked-up document."""
    parts: list[str] = []
    spans: list[dict[str, Any]] = []
    negatives: list[dict[str, Any]] = []
    length = 0
    last = 0
    for match in _MARK.finditer(source):
        plain = source[last : match.start()]
        _check_plain(plain)
        parts.append(plain)
        length += len(plain)
        surface = match.group("gold") or match.group("neg")
        if surface != surface.strip():
            raise ValueError(f"span {surface!r} has surrounding whitespace")
        start, end = length, length + len(surface)
        if match.group("gold") is not None:
            label = category_for(match.group("label"))
            spans.append({"start": start, "end": end, "label": label, "text": surface})
        else:
            note = (match.group("note") or "").strip()
            negatives.append({"start": start, "end": end, "text": surface, "note": note})
        parts.append(surface)
        length = end
        last = match.end()
    tail = source[last:]
    _check_plain(tail)
    parts.append(tail)
    return "".join(parts), spans, negatives


def _check_plain(plain: str) -> None:
    """Unclosed or malformed markup must fail loudly rather than leak into the text."""
    for token in ("[[", "]]", "{{", "}}"):
        if token in plain:
            raise ValueError(f"stray {token!r} near {plain[-60:]!r}")
