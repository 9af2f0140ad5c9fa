"""PDF text as flowing paragraphs: lines that a PDF wrapped are joined (and hyphenation
undone) before detection, so that no identifier is split over two lines and half-leaks.

PDF text has no paragraphs, only positioned lines. A line counts as wrapped when it is
nearly as long as the longest line on its page (a line a writer ended on purpose, as in an
address block or a heading, is usually shorter), unless it ends a sentence and the next line
is short (a closing such as "Regards,"); the layout itself is not kept.
"""

from __future__ import annotations

import re

FULL_LINE = 0.7  # of the page's longest line
MIN_WRAP_WIDTH = 30  # characters; pages with only shorter lines are left as they are
_BULLET = re.compile(r"^\s*(?:[-•*–]|\d{1,3}[.)]|[a-z][.)])\s")


def join_wrapped_lines(page_text: str) -> str:
    """One page's extracted text with soft line breaks joined (hyphenation removed)."""
    lines = [line.rstrip() for line in page_text.split("\n")]
    width = max((len(line) for line in lines), default=0)
    if width < MIN_WRAP_WIDTH:
        return "\n".join(lines)
    out = lines[0]
    for previous, line in zip(lines, lines[1:], strict=False):
        nxt = line.lstrip()
        if not nxt or not previous.strip() or _BULLET.match(line):
            out += "\n" + line
        elif len(previous) < FULL_LINE * width or _ends_paragraph(previous, line, width):
            out += "\n" + line
        elif previous.endswith("-") and len(previous) > 1 and previous[-2].isalpha():
            # "agree-" + "ment" is one hyphenated word; "ABC-" + "2024" an identifier
            out = (out[:-1] if nxt[:1].islower() else out) + nxt
        elif previous.endswith("-"):
            out += nxt
        else:
            out += " " + nxt
    return out


def _ends_paragraph(previous: str, line: str, width: int) -> bool:
    """A full line that ends a sentence, followed by a short one ("Regards,"): a new line."""
    return previous.endswith((".", "!", "?", ":")) and len(line) < FULL_LINE * width


def pdf_pages_text(pages: list[str]) -> str:
    """All pages as one text: wrapped lines joined, pages separated by a blank line."""
    return "\n\n".join(join_wrapped_lines(page.strip()) for page in pages)
