"""The default detector: the union of the regex rules and Presidio.

The two miss different things: Presidio's spaCy NER finds names and places the rules cannot
know, the rules find identifiers Presidio has no recognizer for (IBAN without context,
secrets, reference ids, street addresses, international phone layouts). Names found by
either are then propagated to their other mentions in the document. `detect` returns the
raw union; the detection pipeline (`anonymizer.detection.detect`) applies the allow
list and whitelist and then `resolve_overlaps` (earliest, then longest, then most
confident), so that a span the user allows never hides a different, overlapping one.
"""

from __future__ import annotations

from collections.abc import Sequence

from anonymizer.detection.overlaps import resolve_overlaps
from anonymizer.detection.propagation import propagate_names
from anonymizer.types import Detection, Detector


class CombinedDetector:
    name = "combined"

    def __init__(self, detectors: Sequence[Detector] | None = None) -> None:
        if detectors is None:
            from anonymizer.detection.presidio import PresidioDetector
            from anonymizer.detection.regex import RegexDetector

            detectors = (RegexDetector(), PresidioDetector())
        self.detectors = tuple(detectors)

    def detect(self, text: str) -> list[Detection]:
        """Every detection of every member detector (overlaps included), plus the other
        occurrences of the person names they found (`propagation.py`).

        Where a later detector reports exactly the span an earlier one did, the earlier
        (the specific regex rule, e.g. "age" or "ein") keeps it: Presidio's scores are not
        calibrated against the rules' confidences, and its label there is generic ("date").
        """
        found: list[Detection] = []
        for detector in self.detectors:
            taken = {(d.start, d.end) for d in found}
            found.extend(d for d in detector.detect(text) if (d.start, d.end) not in taken)
        return found + propagate_names(text, found)

    def detect_resolved(self, text: str) -> list[Detection]:
        """The union with overlaps resolved, for callers outside the pipeline."""
        return resolve_overlaps(self.detect(text))
