"""Long runs without white space cut for spaCy's tokenizer, offsets unchanged.

spaCy strips prefixes and suffixes from a space-delimited piece one at a time, copying the
rest each time, so a piece made of affix characters ("user____…", "((((…", "a's's's…") costs
time quadratic in its length: 4,000 characters take 2.5 s, 20,000 about a minute. A
same-length copy of the text with a space at least every `MAX_PIECE` characters of such runs
bounds that cost, and every offset of the copy is an offset of the original.
"""

from __future__ import annotations

import re

MAX_PIECE = 100


def _longer_than(max_piece: int) -> re.Pattern[str]:
    return re.compile(rf"\S{{{max_piece + 1},}}")


_LONG_PIECE = _longer_than(MAX_PIECE)


def split_long_pieces(text: str, max_piece: int = MAX_PIECE) -> str:
    """`text` with a space put in (replacing one character) at least every `max_piece`
    characters of any run without white space; the text itself when it has no such run."""
    if max_piece < 2:
        raise ValueError("max_piece must be at least 2")
    pattern = _LONG_PIECE if max_piece == MAX_PIECE else _longer_than(max_piece)
    if pattern.search(text) is None:
        return text
    chars = list(text)
    for run in pattern.finditer(text):
        for cut in _cuts(text, run.start(), run.end(), max_piece):
            chars[cut] = " "
    return "".join(chars)


def _cuts(text: str, start: int, end: int, max_piece: int) -> list[int]:
    """Positions in [start, end) to blank so no piece is longer than `max_piece`: the last
    character that is not a letter or digit in each window, else the window's end."""
    cuts = []
    piece_start = start
    while end - piece_start > max_piece:
        window_end = piece_start + max_piece  # the blank may sit here, just past the window
        cut = window_end
        for i in range(window_end, piece_start, -1):
            if not text[i].isalnum():
                cut = i
                break
        cuts.append(cut)
        piece_start = cut + 1
    return cuts
