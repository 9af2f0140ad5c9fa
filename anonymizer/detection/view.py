"""The text as the rules and the model read it: the same length as the document, so every
offset into it is an offset into the document, with the writing habits that hide a text's
structure undone: line breaks written as escapes (`\\n` in JSON strings, logs and exports),
reply quote markers (`> `), Windows and old Mac line ends, and the no-break and
typographic spaces of text copied from web pages, word processors and PDFs (spaCy and the
rules split words at ASCII spaces only)."""

from __future__ import annotations

import re

# Not before a lower-case letter (`C:\new\temp` is a path, not three lines) unless the text
# writes escapes (breaks or quotes) elsewhere too: then "\nbtw, see you" is a line that
# starts in lower case.
_ESCAPED_BREAK = re.compile(r"\\([nrt])(?![a-z])")
_ANY_ESCAPED_BREAK = re.compile(r"\\([nrt])")
_ESCAPED_QUOTE = re.compile(r'\\"(\w)?')
MIN_ESCAPES = 2  # escapes in a text that mark it as escaped throughout (a JSON string, a log)
_BREAK = {"n": "\n", "r": "\r", "t": "\t"}
# Reply quote markers at a line's start ("> ", ">> ", "> > "): the quoted line starts after
# them. Searched from the ">" (a literal the engine finds fast), the line start checked after.
_QUOTE_MARKERS = re.compile(r">(?:[ \t]*>)*(?=[ \t\r\n]|$)")
_LONE_CR = re.compile(r"\r(?!\n)")
# No-break, figure, narrow no-break, en/em/thin/hair spaces; CR before LF. Not the ideographic
# space: CJK text writes it between a name and what follows, and the CJK rules read it so.
_AS_SPACE = str.maketrans(
    dict.fromkeys([0x00A0, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x0D], " ")
)
_UNUSUAL = re.compile(r"[\u00a0\u2000-\u200a\u202f\u205f\r]")


def escaped_breaks_as_breaks(text: str) -> str:
    """`text` with each escaped `\\n`, `\\r` or `\\t` replaced by a space and the character it
    stands for, and in an escaped text each `\\"` by a quote and a space on the side away from
    its word: same length, so every offset into the result is an offset into `text`."""
    if "\\" not in text:
        return text
    strong = len(_ESCAPED_BREAK.findall(text)) + text.count('\\"')
    if strong == 0:
        return text
    escaped = strong >= MIN_ESCAPES
    pattern = _ANY_ESCAPED_BREAK if escaped else _ESCAPED_BREAK
    text = pattern.sub(lambda m: " " + _BREAK[m[1]], text)
    if escaped and '\\"' in text:
        text = _ESCAPED_QUOTE.sub(lambda m: ' "' + m[1] if m[1] else '" ', text)
    return text


def quote_markers_as_spaces(text: str) -> str:
    """`text` with the reply quote markers at line starts ("> ", ">> ") as spaces: same
    length, same offsets."""
    if ">" not in text:
        return text
    pieces, last = [], 0
    for m in _QUOTE_MARKERS.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if m.start() < last or text[line_start : m.start()].strip(" \t"):
            continue
        pieces += [text[last : m.start()], " " * (m.end() - m.start())]
        last = m.end()
    return "".join(pieces) + text[last:] if pieces else text


def detection_view(text: str) -> str:
    """`text` with escaped breaks read as breaks, reply quote markers as spaces, a lone CR as
    a line break, a CR before LF and every unusual space as an ASCII space: same length, same
    offsets."""
    text = quote_markers_as_spaces(escaped_breaks_as_breaks(text))
    if (text.isascii() and "\r" not in text) or _UNUSUAL.search(text) is None:
        return text
    return _LONE_CR.sub("\n", text).translate(_AS_SPACE)
