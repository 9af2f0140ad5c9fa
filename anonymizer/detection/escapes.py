"""Line breaks written as escape sequences (`\\n` in JSON strings, logs and exports) read as
breaks, at the same offsets, so rules and the model see the lines they separate."""

from __future__ import annotations

import re

# Not before a lower-case letter: `C:\new\temp` is a path, not three lines.
_ESCAPED_BREAK = re.compile(r"\\([nrt])(?![a-z])")
_BREAK = {"n": "\n", "r": "\r", "t": "\t"}


def escaped_breaks_as_breaks(text: str) -> str:
    """`text` with each escaped `\\n`, `\\r` or `\\t` replaced by a space and the character it
    stands for: same length, so every offset into the result is an offset into `text`."""
    if "\\" not in text:
        return text
    return _ESCAPED_BREAK.sub(lambda m: " " + _BREAK[m[1]], text)
