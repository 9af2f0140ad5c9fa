"""The cheaper `combine` helpers give exactly what their straightforward forms gave."""

import math
import re
from itertools import islice

from anonymizer.detection.combined import SPEAKER_CONTEXT, SpanIndex, _labels_written
from anonymizer.detection.line_language import _frequencies, word_zipf
from anonymizer.types import Detection


def _span(start: int, end: int) -> Detection:
    return Detection(start, end, "full person name", "[NAME]", "test", 0.9, "test")


def _labels_written_by_pattern(text: str, d: Detection) -> int:
    pattern = re.compile(rf"(?<!\w){re.escape(text[d.start : d.end])}[ \t]*:")
    low, high = max(0, d.start - SPEAKER_CONTEXT), min(len(text), d.end + SPEAKER_CONTEXT)
    return len(list(islice(pattern.finditer(text, low, high), 2)))


def test_labels_written_counts_as_the_look_behind_pattern_does():
    texts = [
        "Anna: hi\nAnna: bye",  # label at the very start of the text
        "xAnna: hi\nAnna:",  # one preceded by a word character does not count
        "ÉlodieAnna: x\n_Anna: y\nAnna \t: z",
        "Zoë: salut\nZoë : ça va\nZoë:",  # non-ASCII
        "aa:aa:aa:",  # the surface overlapping itself
        "xa a a: b a a:",  # a rejected hit overlapping one that counts
        "Anna:",
    ]
    for text in texts:
        for start in range(len(text)):
            for end in range(start + 1, min(len(text), start + 6) + 1):
                d = _span(start, end)
                assert _labels_written(text, d) == _labels_written_by_pattern(text, d), (
                    text,
                    start,
                    end,
                )


def test_labels_written_stays_within_the_speaker_context():
    text = "Anna: hi\n" + "x" * SPEAKER_CONTEXT + " Anna said\n" + "y" * SPEAKER_CONTEXT + "Anna:"
    d = _span(text.index("Anna said"), text.index("Anna said") + 4)
    assert _labels_written(text, d) == _labels_written_by_pattern(text, d) == 0


def _overlapping_by_scan(detections: list[Detection], span: Detection) -> list[Detection]:
    return [d for d in detections if d.start < span.end and d.end > span.start]


def test_span_index_finds_every_overlap_short_and_long():
    detections = [
        _span(0, 3),
        _span(2, 40),  # the longest short span sets the window
        _span(10, 12),
        _span(0, 2000),  # longer than `LONG`
        _span(100, 101),
        _span(35, 50),
    ]
    index = SpanIndex(detections)
    for start in range(0, 120, 3):
        for length in (1, 5, 30):
            span = _span(start, start + length)
            found = index.overlapping(span)
            assert sorted(found, key=repr) == sorted(
                _overlapping_by_scan(detections, span), key=repr
            )


def test_word_zipf_stays_the_frequency_on_the_zipf_scale():
    frequencies = _frequencies("en")
    for word in ("the", "anna", "qzxv"):
        frequency = frequencies.get(word, 0.0)
        expected = math.log10(frequency) + 9 if frequency > 0 else 0.0
        assert word_zipf(word, "en") == expected
