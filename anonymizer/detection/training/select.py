"""Checkpoint selection on the hand-written dev sets the team may study (`dev-hand-hard`,
`dev-hand-wild`), scored the way the product runs: the combined detector (rules, combiner and
these weights) with the detection bench's leak and span precision at IoU 0.5.

The generator's own dev split says little about hand-written text (the previous model reached
F1 0.993 on it and still missed a third of the names the hand-written sets hold), so the
checkpoint kept is the one with the lowest `selection_cost` on these sets. Blind and frozen
sets are never read here.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from spacy.language import Language

SELECTION_SETS = ("dev-hand-hard", "dev-hand-wild")
# One point of leak (0.01) is worth four points of precision (0.04): leak is what the issue's
# target is about, precision its side condition (>= 0.90).
PRECISION_WEIGHT = 0.25


def selection_cost(figures: dict[str, dict[str, float]]) -> float:
    """Mean over the sets of leak + PRECISION_WEIGHT * (1 - precision); lower is better."""
    return statistics.mean(
        f["leak"] + PRECISION_WEIGHT * (1 - f["precision"]) for f in figures.values()
    )


def combined_figures(
    model_dir: Path, sets: dict[str, list[dict[str, Any]]], rules: Any = None
) -> dict[str, dict[str, float]]:
    """Leak / precision / recall per set of the combined detector with the weights in
    `model_dir` (`rules`: a RegexDetector to share between calls)."""
    from anonymizer.detection.combined import CombinedDetector
    from anonymizer.detection.learned import LearnedNerDetector
    from bench.ner_weights_compare import quality

    detector = CombinedDetector(rules=rules, ner=LearnedNerDetector(model_dir))
    return {
        name: quality(docs, detector.detect_many([d["text"] for d in docs]))
        for name, docs in sets.items()
    }


def selection_sets(set_names: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
    """The documents of each named set; ValueError for a blind, lead-only or frozen set, or
    one with no hand-written documents (a typo, or a generated set)."""
    from bench.detection_bench import AGGREGATE_ONLY, load_set

    if any(name in AGGREGATE_ONLY or name.startswith("frozen") for name in set_names):
        raise ValueError("checkpoints are selected on studyable dev sets only")
    sets = {name: load_set(name, 0)[0] or [] for name in set_names}
    empty = [name for name, docs in sets.items() if not docs]
    if empty:
        raise ValueError(f"no documents in selection set(s) {', '.join(empty)}")
    return sets


class Selection:
    """Saves checkpoints under `directory`, scores each, and remembers the best."""

    def __init__(self, directory: Path, log: TextIO, set_names: tuple[str, ...] = SELECTION_SETS):
        from anonymizer.detection.regex import RegexDetector

        self.directory = directory
        self.log = log
        self.sets = selection_sets(set_names)
        self.rules = RegexDetector()
        self.best: dict[str, Any] | None = None
        self.history: list[dict[str, Any]] = []

    def score(self, nlp: Language, name: str, where: dict[str, Any]) -> float:
        """Save `nlp`'s NER as checkpoint `name`, score it, keep it if it is the best."""
        from anonymizer.detection.training.train import save

        started = time.perf_counter()
        path = self.directory / name
        save(nlp, path, {"checkpoint": where})
        figures = combined_figures(path, self.sets, self.rules)
        cost = selection_cost(figures)
        entry = {"name": name, **where, "cost": round(cost, 5), "sets": figures}
        self.history.append(entry)
        if self.best is None or cost < self.best["cost"]:
            self.best = {**entry, "bytes": nlp.get_pipe("ner").to_bytes()}
        shown = "  ".join(
            f"{s} leak {f['leak']:.3f} P {f['precision']:.3f} R {f['recall']:.3f}"
            for s, f in figures.items()
        )
        print(
            f"checkpoint {name}: cost {cost:.4f} | {shown} "
            f"({time.perf_counter() - started:.0f} s)"
            + (" best" if self.best["name"] == name else ""),
            file=self.log,
            flush=True,
        )
        return cost

    def summary(self) -> dict[str, Any]:
        """The kept checkpoint and every checkpoint's figures, for meta.json."""
        best = {k: v for k, v in (self.best or {}).items() if k != "bytes"}
        return {"sets": list(self.sets), "best": best, "history": self.history}
