"""Deterministic regex PII detector: each rule has an id, category, confidence and rationale.

Hand-written because the seed's sanitizer is not a maintained package; the rules cover
its categories. Checksums (Luhn) cut false positives on number-like strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from anonymizer.detection.categories import placeholder_for
from anonymizer.types import Detection

HIGH, MEDIUM, LOW = 0.95, 0.75, 0.5


@dataclass(frozen=True)
class Rule:
    rule_id: str
    category: str
    pattern: re.Pattern[str]
    confidence: float
    rationale: str
    validate: Callable[[str], bool] | None = None
    group: int = 0

    @property
    def placeholder(self) -> str:
        return placeholder_for(self.category)


def luhn_valid(candidate: str) -> bool:
    digits = [int(c) for c in candidate if c.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for i, digit in enumerate(reversed(digits)):
        if i % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


RULES: tuple[Rule, ...] = (
    Rule(
        "email", "email address",
        re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b"),
        HIGH, "local@domain.tld shape",
    ),
    Rule(
        "url", "url",
        re.compile(r"\b(?:https?://|www\.)[^\s<>\"']+[^\s<>\"'.,;:!?)\]]"),
        HIGH, "scheme or www. prefix",
    ),
    Rule(
        "card_number", "card number",
        re.compile(r"\b(?:\d[ -]?){12,18}\d\b"),
        HIGH, "13–19 digits passing the Luhn checksum", validate=luhn_valid,
    ),
    Rule(
        "ipv4", "ip address",
        re.compile(r"\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b"),
        HIGH, "four dotted octets 0–255",
    ),
    Rule(
        "phone", "phone number",
        re.compile(
            r"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}"
            r"(?![\w])"
        ),
        HIGH, "digit groups in a phone layout, optional +country and (area) code",
        validate=lambda s: 7 <= sum(c.isdigit() for c in s) <= 15,
    ),
)


class RegexDetector:
    """Runs every rule; overlaps are resolved by the detection pipeline."""

    name = "regex"

    def __init__(self, rules: tuple[Rule, ...] = RULES) -> None:
        self.rules = rules

    def detect(self, text: str) -> list[Detection]:
        found: list[Detection] = []
        for rule in self.rules:
            for match in rule.pattern.finditer(text):
                start, end = match.span(rule.group)
                value = text[start:end]
                if rule.validate is not None and not rule.validate(value):
                    continue
                found.append(
                    Detection(start, end, rule.category, rule.placeholder, "regex",
                              rule.confidence, rule.rule_id)
                )
        return found


def rule_table() -> list[dict[str, str]]:
    """The rules as rows for `--list-rules`."""
    return [
        {"id": r.rule_id, "category": r.category, "placeholder": r.placeholder,
         "confidence": f"{r.confidence:.2f}", "rationale": r.rationale}
        for r in RULES
    ]
