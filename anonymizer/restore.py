"""Putting originals back into text that came back (e.g. an assistant's answer quoting
`[PERSON_2]`), from the mapping a reversible operator returned."""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBERED = re.compile(r"^\[([A-Z][A-Z_]*_\d+)\]$")


@dataclass(frozen=True)
class Restored:
    text: str
    replaced: int  # occurrences put back
    distinct: int  # distinct replacements found


def restore_text(text: str, mapping: dict[str, str]) -> Restored:
    """Replace every known replacement in `text` by its original, longest first.

    Numbered placeholders are also found without their brackets (`PERSON_2`), which
    assistants often drop; fakes are matched as whole words only, case-sensitively.
    """
    if not mapping or not text:
        return Restored(text, 0, 0)
    originals: dict[str, str] = {}
    patterns = []
    for replacement in sorted(mapping, key=len, reverse=True):
        numbered = _NUMBERED.match(replacement)
        if numbered:
            label = numbered.group(1)
            originals[label] = mapping[replacement]
            patterns.append(rf"\[{re.escape(label)}\]|(?<![\w\[]){re.escape(label)}(?![\w\]])")
        else:
            originals[replacement] = mapping[replacement]
            patterns.append(rf"(?<!\w){re.escape(replacement)}(?!\w)")
    found: set[str] = set()

    def put_back(match: re.Match[str]) -> str:
        key = match.group() if match.group() in originals else match.group().strip("[]")
        found.add(key)
        return originals[key]

    restored, count = re.subn("|".join(f"(?:{p})" for p in patterns), put_back, text)
    return Restored(restored, count, len(found))
