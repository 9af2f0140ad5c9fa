"""Evaluation metrics shared by the benchmarks and the web app's evaluation view.

- `leak_rate`: the seed's metric, the fraction of gold PII surface strings that still appear
  (case-insensitive substring) in the output.
- `span_scores`: presidio-research's span method: an annotation counts as found when the
  predictions overlapping it cover it with IoU >= 0.7 (several predictions are combined into
  one covered region); a prediction is a true positive when it took part in such a match.
  Scores are given over all PII ("is it PII at all", labels ignored) and per category (labels
  must agree). F2 weighs recall twice as much as precision.
- `semantic_similarity`: cosine of all-MiniLM-L6-v2 embeddings of input and output (a
  deliberately different model from the GTR encoder the DP mechanism uses).
- `length_ratio`: output characters over input characters.

Pure functions, no Django; numpy, torch and sentence-transformers load only when an embedding
is asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

LabelledSpan = tuple[int, int, str]

DEFAULT_IOU = 0.7
ALL_PII = "all PII"


def as_span(obj: Any) -> LabelledSpan:
    """A (start, end, label) tuple from a tuple, a mapping or a Detection-like object."""
    if isinstance(obj, Mapping):
        label = obj.get("label", obj.get("category", ""))
        return int(obj["start"]), int(obj["end"]), str(label)
    if isinstance(obj, (tuple, list)):
        start, end, *rest = obj
        return int(start), int(end), str(rest[0]) if rest else ""
    return int(obj.start), int(obj.end), str(getattr(obj, "category", getattr(obj, "label", "")))


# ---------------------------------------------------------------------------------------
# Leak


def leaked_surfaces(output: str, surfaces: Iterable[str]) -> list[str]:
    """The gold surface strings that still occur in `output` (case-insensitive)."""
    haystack = output.casefold()
    return [s for s in surfaces if s.strip() and s.casefold() in haystack]


def leak_counts(outputs: Sequence[str], gold_surfaces: Sequence[Iterable[str]]) -> tuple[int, int]:
    """(leaked, total) over all documents; blank surface strings are not counted."""
    if len(outputs) != len(gold_surfaces):
        raise ValueError(f"{len(outputs)} outputs but {len(gold_surfaces)} gold surface lists")
    leaked = total = 0
    for output, surfaces in zip(outputs, gold_surfaces, strict=True):
        kept = [s for s in surfaces if s.strip()]
        total += len(kept)
        leaked += len(leaked_surfaces(output, kept))
    return leaked, total


def leak_rate(outputs: Sequence[str], gold_surfaces: Sequence[Iterable[str]]) -> float | None:
    """Fraction of gold PII surface strings found in the outputs; None when there are none.

    Each listed surface counts once per document it is listed for (micro average, like the
    seed's benchmark), so a document with many PII strings weighs more.
    """
    leaked, total = leak_counts(outputs, gold_surfaces)
    return leaked / total if total else None


# ---------------------------------------------------------------------------------------
# Spans


def span_iou(a: tuple[int, int] | LabelledSpan, b: tuple[int, int] | LabelledSpan) -> float:
    """Character intersection over union of two half-open [start, end) spans."""
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]))
    union = (a[1] - a[0]) + (b[1] - b[0]) - inter
    return inter / union if union > 0 else 0.0


def covered_iou(gold: tuple[int, int] | LabelledSpan, preds: Sequence[LabelledSpan]) -> float:
    """IoU of a gold span with the union of several predicted spans (presidio-research)."""
    if not preds:
        return 0.0
    region = _merge([(p[0], p[1]) for p in preds])
    inter = sum(max(0, min(e, gold[1]) - max(s, gold[0])) for s, e in region)
    union = sum(e - s for s, e in _merge([*region, (gold[0], gold[1])]))
    return inter / union if union > 0 else 0.0


def _merge(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[list[int]] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged]


def f_beta(precision: float | None, recall: float | None, beta: float = 2.0) -> float | None:
    """F-beta; beta = 2 weighs recall higher. None when recall is undefined (no gold)."""
    if recall is None:
        return None
    p = 0.0 if precision is None else precision
    b2 = beta * beta
    denominator = b2 * p + recall
    return (1 + b2) * p * recall / denominator if denominator > 0 else 0.0


@dataclass
class Scores:
    """Span precision / recall / F2 with the counts behind them.

    `precision` is None when nothing was predicted and `recall` when nothing was annotated;
    `per_category` holds the same scores per gold/predicted label (labels must agree there).
    """

    precision: float | None
    recall: float | None
    f2: float | None
    n_pred: int
    n_gold: int
    found: int  # annotations covered at IoU >= threshold
    credited: int  # predictions that took part in a match
    per_category: dict[str, Scores] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "precision": self.precision,
            "recall": self.recall,
            "f2": self.f2,
            "n_pred": self.n_pred,
            "n_gold": self.n_gold,
            "found": self.found,
            "credited": self.credited,
        }
        if self.per_category:
            out["per_category"] = {k: v.to_dict() for k, v in sorted(self.per_category.items())}
        return out


@dataclass
class _Counts:
    n_pred: int = 0
    n_gold: int = 0
    found: int = 0
    credited: int = 0

    def add(self, other: _Counts) -> None:
        self.n_pred += other.n_pred
        self.n_gold += other.n_gold
        self.found += other.found
        self.credited += other.credited

    def scores(self, beta: float) -> Scores:
        precision = self.credited / self.n_pred if self.n_pred else None
        recall = self.found / self.n_gold if self.n_gold else None
        return Scores(
            precision,
            recall,
            f_beta(precision, recall, beta),
            self.n_pred,
            self.n_gold,
            self.found,
            self.credited,
        )


def _match_document(
    pred: Sequence[LabelledSpan], gold: Sequence[LabelledSpan], threshold: float
) -> _Counts:
    credited: set[int] = set()
    found = 0
    for g in gold:
        touching = [i for i, p in enumerate(pred) if p[0] < g[1] and g[0] < p[1]]
        if touching and covered_iou(g, [pred[i] for i in touching]) >= threshold:
            found += 1
            credited.update(touching)
    return _Counts(len(pred), len(gold), found, len(credited))


def span_scores(
    pred_docs: Sequence[Iterable[Any]],
    gold_docs: Sequence[Iterable[Any]],
    iou: float = DEFAULT_IOU,
    beta: float = 2.0,
) -> Scores:
    """Micro-averaged span scores over documents; spans are (start, end, label)-like.

    Overall scores ignore labels (every span is "PII"); `per_category` requires the predicted
    label to equal the gold label, as presidio-research's per-entity scores do.
    """
    if len(pred_docs) != len(gold_docs):
        raise ValueError(f"{len(pred_docs)} predicted documents but {len(gold_docs)} gold ones")
    overall = _Counts()
    by_label: dict[str, _Counts] = {}
    for pred_raw, gold_raw in zip(pred_docs, gold_docs, strict=True):
        pred = [s for s in map(as_span, pred_raw) if s[1] > s[0]]
        gold = [s for s in map(as_span, gold_raw) if s[1] > s[0]]
        overall.add(_match_document(pred, gold, iou))
        for label in {s[2] for s in pred} | {s[2] for s in gold}:
            counts = _match_document(
                [p for p in pred if p[2] == label], [g for g in gold if g[2] == label], iou
            )
            by_label.setdefault(label, _Counts()).add(counts)
    scores = overall.scores(beta)
    scores.per_category = {label: c.scores(beta) for label, c in by_label.items()}
    return scores


# ---------------------------------------------------------------------------------------
# Utility


class Embedder(Protocol):
    def encode(self, texts: Sequence[str]) -> Any: ...


class MiniLM:
    """all-MiniLM-L6-v2 from the offline PyPI package, with a per-text embedding cache.

    Originals are embedded once however many systems are compared against them. Inputs are
    truncated at the model's 256 word pieces, so long documents are compared on their start.
    """

    def __init__(self, batch_size: int = 64) -> None:
        self.batch_size = batch_size
        self._model: Any = None
        self._cache: dict[str, Any] = {}

    @property
    def model(self) -> Any:
        if self._model is None:
            # The token sanitizers load the same weights; share one copy per process.
            from anonymizer.token_dp.embedding import load_minilm

            self._model = load_minilm()
        return self._model

    def encode(self, texts: Sequence[str]) -> Any:
        """Unit-normalised embeddings, one row per text."""
        import numpy as np

        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            vectors = self.model.encode(
                missing,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            self._cache.update(zip(missing, vectors, strict=True))
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        return np.stack([self._cache[t] for t in texts])


@cache
def minilm() -> MiniLM:
    """The process-wide MiniLM embedder (loaded on first use)."""
    return MiniLM()


def semantic_similarity(
    originals: Sequence[str], outputs: Sequence[str], embedder: Embedder | None = None
) -> list[float]:
    """Per-document cosine similarity of input and output embeddings (MiniLM by default)."""
    import numpy as np

    if len(originals) != len(outputs):
        raise ValueError(f"{len(originals)} originals but {len(outputs)} outputs")
    if not originals:
        return []
    model = embedder or minilm()
    a = np.asarray(model.encode(list(originals)), dtype=np.float64)
    b = np.asarray(model.encode(list(outputs)), dtype=np.float64)
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    dots = np.einsum("ij,ij->i", a, b)
    return [float(d / n) if n > 0 else 0.0 for d, n in zip(dots, norms, strict=True)]


def length_ratio(originals: Sequence[str], outputs: Sequence[str]) -> list[float]:
    """Per-document output length over input length, in characters (empty input → 1 or inf)."""
    if len(originals) != len(outputs):
        raise ValueError(f"{len(originals)} originals but {len(outputs)} outputs")
    ratios = []
    for original, output in zip(originals, outputs, strict=True):
        if original:
            ratios.append(len(output) / len(original))
        else:
            ratios.append(1.0 if not output else float("inf"))
    return ratios


def mean(values: Iterable[float | None]) -> float | None:
    """Arithmetic mean of the values that are not None; None when there are none."""
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else None
