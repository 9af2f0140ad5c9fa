"""Speakers of WhatsApp exports: the name between the time stamp and the colon."""

from __future__ import annotations

import pytest

from anonymizer.detection import get_detector

ANDROID = (
    "12/05/2024, 21:07 - Messages and calls are end-to-end encrypted.\n"
    "12/05/2024, 21:07 - kev: did u see the flat group\n"
    "12/05/2024, 21:09 - dawn: wait what. where's he going\n"
    "13/05/2024, 08:30 - kev: morning all, it's true\n"
    "13/05/2024, 08:33 - dawn: we'll miss u\n"
)
IOS = (
    "[5/13/24, 8:30:12 AM] kev: morning all, it's true\n"
    "[5/13/24, 8:31:40 AM] Ola K: can I view on thursday?\n"
    "[5/13/24, 8:33:02 AM] kev: sure, after 6\n"
    "[5/13/24, 8:35:19 AM] Ola K: perfect\n"
)


def people(text: str) -> list[str]:
    found = get_detector("combined").detect(text)
    return sorted(
        {text[d.start : d.end] for d in found if d.category == "full person name"},
        key=str.lower,
    )


@pytest.mark.parametrize("text", [ANDROID, IOS])
def test_every_speaker_of_an_export_is_a_person_even_a_word_like_one(text: str) -> None:
    speakers = people(text)
    assert "kev" in speakers
    assert ("dawn" if text is ANDROID else "Ola K") in speakers


def test_system_lines_and_a_one_off_label_are_not_speakers() -> None:
    text = ANDROID + "13/05/2024, 08:40 - note: bins go out on thursday\n"
    assert "note" not in people(text)
    assert not [p for p in people(text) if "Messages" in p or "encrypted" in p]
