"""Turning spans into what the result and review pages show: lines of highlighted segments,
server-side pages of them, and the receipt's plain-language summary."""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from anonymizer.token_dp.audit import audit_summary_line

N_CATEGORY_COLOURS = 10
PAGE_CHARS = 6000  # about two screens of text per page


def category_colour(category: str | None) -> int:
    """A stable colour index per category, so [EMAIL] chips look alike on every page."""
    if not category:
        return 0
    return zlib.crc32(category.encode("utf-8")) % N_CATEGORY_COLOURS


@dataclass(frozen=True)
class Segment:
    """One piece of a line: plain text, a replaced PII span, a rewritten chunk, or (on the
    review page) a candidate or added span with its state."""

    kind: str  # "plain" | "pii" | "chunk" | "candidate" | "added"
    output: str
    original: str | None = None
    category: str | None = None
    source: str | None = None
    score: float | None = None
    index: int | None = None
    accepted: bool = True
    start: int = 0  # offset of `original` in the document (review page)

    @property
    def colour(self) -> int:
        return category_colour(self.category)

    @property
    def changed(self) -> bool:
        return self.kind != "plain"


@dataclass
class Line:
    segments: list[Segment] = field(default_factory=list)

    @property
    def length(self) -> int:
        return sum(len(s.output) for s in self.segments) + 1


def span_output(span: dict) -> str:
    """What the output shows for one stored span (also after the original was purged)."""
    if "output" in span and span["output"] is not None:
        return span["output"]
    if span.get("is_pii"):
        return span.get("placeholder") or span.get("rewritten") or ""
    if span.get("rewritten") is not None:
        return span["rewritten"]
    return span.get("text") or ""


def result_segments(spans: list[dict]) -> list[Segment]:
    segments = []
    for span in spans:
        output = span_output(span)
        if span.get("is_pii"):
            kind = "pii"
        elif span.get("rewritten") is not None:
            kind = "chunk"
        else:
            kind = "plain"
        original = span.get("text")
        if kind == "plain" and original is None:
            original = None  # purged: the output is the same text, shown once
        segments.append(Segment(kind, output, original, span.get("category"), span.get("source")))
    return segments


def split_lines(segments: Iterable[Segment]) -> list[Line]:
    """Lines at the newlines of unchanged text (a replaced span or chunk is never split), so
    the original and the output of one line sit side by side."""
    lines = [Line()]
    for segment in segments:
        if segment.kind != "plain" or "\n" not in segment.output:
            lines[-1].segments.append(segment)
            continue
        offset = segment.start
        parts = segment.output.split("\n")
        for i, part in enumerate(parts):
            if i:
                lines.append(Line())
            if part:
                original = part if segment.original is not None else None
                lines[-1].segments.append(Segment("plain", part, original, start=offset))
            offset += len(part) + 1
    return lines


@dataclass(frozen=True)
class LinePage:
    lines: list[Line]
    number: int
    count: int

    @property
    def offsets(self) -> tuple[int, int]:
        """The document offsets this page covers (review pages, whose segments know them)."""
        segments = [s for line in self.lines for s in line.segments]
        if not segments:
            return (0, 0)
        return segments[0].start, segments[-1].start + len(segments[-1].output)

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.count

    @property
    def previous_page_number(self) -> int:
        return self.number - 1

    @property
    def next_page_number(self) -> int:
        return self.number + 1


def paginate(lines: list[Line], page: int, page_chars: int = PAGE_CHARS) -> LinePage:
    """Whole lines per page, about `page_chars` characters each; out-of-range pages clamp."""
    pages: list[list[Line]] = [[]]
    size = 0
    for line in (part for whole in lines for part in _wrap_long_line(whole, page_chars)):
        if pages[-1] and size + line.length > page_chars:
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += line.length
    number = min(max(page, 1), len(pages))
    return LinePage(pages[number - 1], number, len(pages))


def _wrap_long_line(line: Line, limit: int) -> list[Line]:
    """A line longer than a page (a document without newlines) cut at segment boundaries,
    and inside unchanged text at a space, so that no page grows without bound."""
    if line.length <= limit:
        return [line]
    parts, current, size = [], Line(), 0
    for segment in line.segments:
        pieces = [segment]
        if segment.kind == "plain" and len(segment.output) > limit:
            pieces = _cut_plain(segment, limit)
        for piece in pieces:
            if current.segments and size + len(piece.output) > limit:
                parts.append(current)
                current, size = Line(), 0
            current.segments.append(piece)
            size += len(piece.output)
    if current.segments:
        parts.append(current)
    return parts


def _cut_plain(segment: Segment, limit: int) -> list[Segment]:
    text, out, start = segment.output, [], 0
    while start < len(text):
        end = min(len(text), start + limit)
        if end < len(text):
            space = text.rfind(" ", start + limit // 2, end)
            end = space + 1 if space > 0 else end
        part = text[start:end]
        original = part if segment.original is not None else None
        out.append(Segment("plain", part, original, start=segment.start + start))
        start = end
    return out


def review_segments(
    text: str,
    candidates: list,
    decisions: dict[int, str],
    added: list,
    threshold: float,
) -> list[Segment]:
    """The document with candidate and added spans marked; an added span hides the
    candidates it overlaps (the side list still shows them)."""
    from anonymizer.review import is_accepted

    marks: list[tuple[int, int, Segment]] = []
    for i, a in enumerate(added):
        marks.append(
            (
                a.start,
                a.end,
                Segment(
                    "added",
                    text[a.start : a.end],
                    text[a.start : a.end],
                    a.category,
                    "you",
                    1.0,
                    i,
                    True,
                    a.start,
                ),
            )
        )
    for i, c in enumerate(candidates):
        accepted = is_accepted(c, decisions.get(i), threshold)
        piece = text[c.start : c.end]
        marks.append(
            (
                c.start,
                c.end,
                Segment(
                    "candidate",
                    piece,
                    piece,
                    c.category,
                    source_label(c.source, c.rule_id),
                    c.score,
                    i,
                    accepted,
                    c.start,
                ),
            )
        )
    placed: list[tuple[int, int, Segment]] = []
    for start, end, segment in marks:  # added first: they win overlaps
        if not any(start < e and s < end for s, e, _ in placed):
            placed.append((start, end, segment))
    placed.sort(key=lambda m: m[0])
    segments, cursor = [], 0
    for start, end, segment in placed:
        if start > cursor:
            segments.append(Segment("plain", text[cursor:start], text[cursor:start], start=cursor))
        segments.append(segment)
        cursor = end
    if cursor < len(text):
        segments.append(Segment("plain", text[cursor:], text[cursor:], start=cursor))
    return segments


def source_label(source: str | None, rule_id: str | None = None) -> str:
    if not source:
        return "unknown"
    if rule_id and rule_id not in (source, "deny_list", "review") and source == "regex":
        return f"regex rule {rule_id}"
    return {"deny-list": "always-redact list", "review": "you"}.get(source, source)


# --- the receipt in plain language ------------------------------------------------------

_NOUNS = {
    "full person name": ("name", "names"),
    "email address": ("email address", "email addresses"),
    "phone number": ("phone number", "phone numbers"),
    "street address": ("street address", "street addresses"),
    "location": ("place", "places"),
    "organization": ("organisation", "organisations"),
    "iban": ("IBAN", "IBANs"),
    "card number": ("card number", "card numbers"),
    "ssn": ("SSN", "SSNs"),
    "ip address": ("IP address", "IP addresses"),
    "url": ("URL", "URLs"),
    "date": ("date", "dates"),
    "date of birth": ("date of birth", "dates of birth"),
    "custom": ("listed string", "listed strings"),
}
_OPERATOR_WORDS = {
    "placeholder": "category placeholders such as [PERSON]",
    "numbered": "numbered placeholders such as [PERSON_1]",
    "mask": "masks (****)",
    "hash": "salted hashes",
    "fake": "realistic fakes",
}


def plural(n: int, singular: str, many: str | None = None) -> str:
    return f"{n} {singular if n == 1 else (many or singular + 's')}"


def category_phrase(category: str, n: int) -> str:
    singular, many = _NOUNS.get(category, (category, f"{category}s"))
    return plural(n, singular, many)


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def rounded(value: object, digits: int = 3) -> str:
    """A number for reading: 3 significant digits, ∞ for infinity, — for none."""
    if value is None:
        return "—"
    if value == "inf" or (isinstance(value, float) and math.isinf(value)):
        return "∞"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int) or float(value).is_integer() and abs(value) < 1e6:
        return f"{int(value):,}"
    return f"{value:.{digits}g}"


@dataclass(frozen=True)
class ReceiptSummary:
    sentences: list[str]
    figures: list[tuple[str, str]]
    guarantee: str
    audit: str | None = None  # the token mechanisms' attack-audit line


def receipt_summary(payload: dict, spans: list[dict] | None = None) -> ReceiptSummary:
    """The receipt's first lines for people: what was replaced, what was kept on purpose,
    how, and which guarantee holds; then its figures rounded for reading."""
    details = payload.get("details") or {}
    choices = details.get("choices") or {}
    replaced = choices.get("replaced_by_category")
    if replaced is None:
        replaced = {}
        for span in spans or []:
            if span.get("is_pii"):
                key = span.get("category") or "custom"
                replaced[key] = replaced.get(key, 0) + 1
    total = sum(replaced.values())
    ordered = sorted(replaced.items(), key=lambda kv: (-kv[1], kv[0]))
    sentences = []
    head = plural(total, "span") + " replaced"
    if ordered:
        head += ": " + _join([category_phrase(c, n) for c, n in ordered])
    sentences.append(head + ".")
    review = details.get("review") or {}
    kept = list(review.get("kept_strings") or []) + list(choices.get("allow_list") or [])
    if kept:
        quoted = ", ".join(f"“{k}”" for k in kept[:6]) + (" …" if len(kept) > 6 else "")
        sentences.append(f"{plural(len(kept), 'string')} you chose to keep: {quoted}.")
    if choices.get("kept_categories"):
        sentences.append(
            "Categories you chose to keep: " + ", ".join(choices["kept_categories"]) + "."
        )
    if review.get("added_spans"):
        sentences.append(f"{plural(review['added_spans'], 'span')} you marked yourself.")
    operator = (details.get("operator") or {}).get("name") or choices.get("operator")
    if operator and operator != "placeholder":
        how = f"Replaced with {_OPERATOR_WORDS.get(operator, operator)}"
        how += (
            "; a restore mapping is stored with this job."
            if details.get("restore_mapping")
            else "."
        )
        sentences.append(how)
    if review:
        sentences.append(f"Reviewed by {review.get('reviewer', 'you')} before the rewrite.")
    notion = payload.get("notion") or "none"
    if notion == "none":
        guarantee = "No formal privacy guarantee."
    else:
        guarantee = (
            f"Guarantee: {notion} with ε = {rounded(payload.get('epsilon_total'))}"
            + (f", δ = {rounded(payload.get('delta_total'))}" if payload.get("delta_total") else "")
            + (" — seeded run, NOT private." if payload.get("seeded") else ".")
        )
    sentences.append(guarantee)
    audit = details.get("audit")
    audit_line = audit_summary_line(audit) if audit and notion != "none" else None
    figures = [
        (label, rounded(payload.get(key)))
        for label, key in (
            ("ε total", "epsilon_total"),
            ("δ total", "delta_total"),
            ("K (chunks)", "n_chunks"),
            ("ε per chunk", "epsilon_per_chunk"),
            ("δ per chunk", "delta_per_chunk"),
            ("σ", "sigma"),
            ("sensitivity Δ", "sensitivity"),
            ("clip radius C", "clip_radius"),
        )
        if payload.get(key) is not None and not (key == "n_chunks" and not payload.get(key))
    ]
    return ReceiptSummary(sentences, figures, guarantee, audit_line)
