"""Overlapping chunks: every span found once, at its document offsets, whatever the size."""

from __future__ import annotations

import re

import pytest

from anonymizer.detection.chunking import chunk_bounds, detect_in_chunks, owned_ranges
from anonymizer.types import Detection

NAME = re.compile(r"Zofia Wąsowska-Brandt")


def name_finder(calls: list[int]):
    def detect_many(texts: list[str]) -> list[list[Detection]]:
        calls.append(len(texts))
        return [
            [
                Detection(m.start(), m.end(), "full person name", "[PERSON]", "test")
                for m in NAME.finditer(t)
            ]
            for t in texts
        ]

    return detect_many


def test_chunks_cover_the_text_overlap_and_end_at_whitespace() -> None:
    text = ("word " * 5000).strip()
    bounds = chunk_bounds(text, size=1000, overlap=200)
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    for (_, e1), (s2, _) in zip(bounds, bounds[1:], strict=False):
        assert s2 < e1 and e1 - s2 == 200  # consecutive chunks overlap
        assert text[e1 - 1] == " "  # cut after a space, not inside a word
    owned = owned_ranges(bounds)
    assert owned[0][0] == 0 and owned[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in zip(owned, owned[1:], strict=False))


def test_a_short_text_is_one_chunk() -> None:
    assert chunk_bounds("short text", size=1000, overlap=100) == [(0, 10)]
    with pytest.raises(ValueError):
        chunk_bounds("x", size=100, overlap=60)


@pytest.mark.parametrize("shift", range(-25, 26, 5))
def test_an_entity_across_a_chunk_boundary_is_found_once_at_the_right_offset(shift: int) -> None:
    size, overlap = 1000, 200
    filler = "lorem ipsum dolor sit amet " * 200
    first_end = chunk_bounds(filler, size, overlap)[0][1]
    at = first_end - 10 + shift  # the name straddles (or sits near) the first chunk's end
    text = filler[:at] + " Zofia Wąsowska-Brandt " + filler[at:]
    assert len(chunk_bounds(text, size, overlap)) > 2
    calls: list[int] = []
    found = detect_in_chunks(text, name_finder(calls), size, overlap)
    assert [text[d.start : d.end] for d in found] == ["Zofia Wąsowska-Brandt"]
    assert found[0].start == at + 1
    assert calls == [len(chunk_bounds(text, size, overlap))]  # one batched call


def test_many_entities_in_a_long_text_are_each_reported_once() -> None:
    block = "Meeting with Zofia Wąsowska-Brandt at noon. " + "x" * 37 + "\n"
    text = block * 3000  # about 250,000 characters
    found = detect_in_chunks(text, name_finder([]), size=20_000, overlap=1_000)
    assert len(found) == 3000
    assert sorted(d.start for d in found) == [m.start() for m in NAME.finditer(text)]
