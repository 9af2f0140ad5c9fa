"""The token mechanisms under audit: their distributions, their receipts' claims, input pairs.

Claims are read from the receipt a real rewrite carries (never recomputed from the formula the
code uses); distributions come from the sanitizer's own `log_probs`, which the rewrite samples
from. Broken variants rebuild the over-claims the review found, with the same sampling code.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from anonymizer.settings import Settings
from anonymizer.token_dp.clustering import pushed_distance
from anonymizer.token_dp.sampling import (
    clusant_log_probs,
    custext_log_probs,
    diameter,
    pairwise_distances,
    santext_log_probs,
)
from anonymizer.token_dp.sanitizer import PublicDomain, TokenSanitizer
from anonymizer.types import Detection, Receipt
from tests.privacy.audit import Distribution

CATEGORY = "full person name"
OUTSIDE_NAMES = (
    "Zelda Quartermaine",
    "Otto Brandt",
    "Margaret Thornton",
    "Ines Vasquez-Holloway",
    "Kwame Mensah",
    "Li Wei",
    "Björn Ægirsson",
    "Anna Maria Jablonski",
)
Bound = Callable[[np.ndarray, np.ndarray], float | None]


@dataclass
class Audited:
    """One mechanism configuration: its public domain, distribution and receipt claim."""

    sanitizer: TokenSanitizer
    settings: Settings
    public: PublicDomain
    receipt: Receipt

    def distribution(self, x: np.ndarray) -> Distribution:
        row = self.sanitizer.log_probs(self.public, x[None, :], self.settings)[0]
        return Distribution(self.public.strings, row)

    @property
    def category_claim(self) -> dict:
        return self.receipt.details["categories"][CATEGORY]

    def bound(self) -> Bound:
        """The receipt's claim as a function of the pair (None where it claims nothing)."""
        notion = self.receipt.notion
        variant = self.sanitizer.variant
        if variant == "santext":
            assert notion.startswith("eps-metric-LDP per token")
            eps = self.receipt.epsilon_per_chunk
            return lambda x, y: eps * float(np.linalg.norm(x - y))

        def same_cell(x: np.ndarray, y: np.ndarray) -> bool:
            first, second = self.public.cluster_of(np.vstack([x, y]))
            return bool(first == second)

        if variant == "custext":
            eps = self.receipt.epsilon_per_chunk
            if notion.startswith("eps-LDP within cluster only"):
                return lambda x, y: eps if same_cell(x, y) else None
            return lambda x, y: eps
        eps = self.category_claim["epsilon_per_token"]
        if "within cluster only" in notion:
            return lambda x, y: eps * float(np.linalg.norm(x - y)) if same_cell(x, y) else None
        assert "w.r.t. d'" in notion or "one cluster" in notion
        k = float(self.settings.cluster_push)
        centroids = self.public.centroids
        return lambda x, y: eps * float(pushed_distance(x[None], y[None], centroids, k)[0])


def gold_for(text: str, names: tuple[str, ...]) -> list[Detection]:
    found = []
    for name in names:
        start = text.find(name)
        while start >= 0:
            found.append(Detection(start, start + len(name), CATEGORY, "[PERSON]", "gold"))
            start = text.find(name, start + 1)
    return found


def audited(variant: str, embedder, **changes) -> Audited:  # type: ignore[no-untyped-def]
    """Rewrite a document with an outside name (unseeded) and keep its receipt and domain."""
    base = dict(
        mechanism=variant,
        detector="gold",
        epsilon=2.0,
        candidates_per_category=60,
        n_clusters=6,
    )
    settings = Settings(**{**base, **changes})
    sanitizer = TokenSanitizer(variant, embedder)
    text = f"Report filed by {OUTSIDE_NAMES[0]} today."
    result = sanitizer.rewrite_many([text], settings, golds=[gold_for(text, OUTSIDE_NAMES[:1])])[0]
    return Audited(sanitizer, settings, sanitizer.public_domain(CATEGORY, settings), result.receipt)


def input_pairs(subject: Audited, embedder, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:  # type: ignore[no-untyped-def]
    """Public strings, strings outside the public set, random points of the space, pairs
    straddling cluster boundaries and near-identical pairs."""
    rng = np.random.default_rng(seed)
    public = subject.public.embeddings
    outside = embedder.encode(list(OUTSIDE_NAMES))
    dim = public.shape[1]
    randoms = rng.normal(size=(12, dim)) * rng.uniform(0.05, 1.5, size=(12, 1))
    points = [*public[rng.choice(len(public), 10, replace=False)], *outside, *randoms]
    pairs = list(itertools.combinations(points, 2))
    pairs += [(x, x + rng.normal(size=dim) * 1e-5) for x in points]
    pairs += straddling_pairs(subject.public, rng)
    return pairs


def straddling_pairs(public: PublicDomain, rng: np.random.Generator) -> list:
    """Points a hair to either side of the bisector between two reference points."""
    if public.centroids is None or len(public.centroids) < 2:
        return []
    pairs = []
    for i, j in itertools.combinations(range(len(public.centroids)), 2):
        a, b = public.centroids[i], public.centroids[j]
        w = (a - b) / np.linalg.norm(a - b)
        middle = (a + b) / 2 + rng.normal(size=len(a)) * 0.01
        middle -= np.dot(middle - (a + b) / 2, w) * w  # back onto the bisector
        for t in (1e-7, 1e-3, 0.05):
            pairs.append((middle + t * w, middle - t * w))
    return pairs


# --- broken variants (what the review found) --------------------------------------------


def with_inputs_in_outputs(subject: Audited) -> Callable[[np.ndarray], Distribution]:
    """The pre-fix domain: public candidates plus the document's own string."""
    public = subject.public
    variant = subject.sanitizer.variant
    eps = float(subject.settings.epsilon)

    def distribution(x: np.ndarray) -> Distribution:
        domain = np.vstack([public.embeddings, x])
        d = pairwise_distances(x[None], domain)
        labels = None
        if public.centroids is not None:
            labels = np.concatenate([public.labels, public.cluster_of(x[None])])
        if variant == "santext":
            row = santext_log_probs(d, eps)[0]
        elif variant == "custext":
            row = custext_log_probs(d, labels[-1:], labels, eps)[0]
        else:
            delta_u = max(1.0, diameter(domain))
            k = float(subject.settings.cluster_push)
            row = clusant_log_probs(d, labels[-1:], labels, public.centroids, eps, k, delta_u)[0]
        key = ("document string", tuple(np.round(x, 12)))
        return Distribution((*public.strings, key), row)

    return distribution


def clusant_rows(subject: Audited, inputs: np.ndarray, *, k: float, delta_u: float) -> np.ndarray:
    """CluSanT's rows with k and Δu forced (bypassing the settings check), same code."""
    public = subject.public
    d = pairwise_distances(inputs, public.embeddings)
    eps = float(subject.settings.epsilon)
    cells = public.cluster_of(inputs)
    return clusant_log_probs(d, cells, public.labels, public.centroids, eps, k, delta_u)


def document_loss(rows_a: np.ndarray, rows_b: np.ndarray) -> float:
    """Exact max over whole-document outputs of |log p(out|doc) − log p(out|doc′)|.

    Tokens are drawn independently, so log p(out|doc) is a sum over tokens and the largest
    difference picks each token's worst output in one direction or the other.
    """
    diff = rows_a - rows_b
    finite = np.isfinite(rows_a) | np.isfinite(rows_b)
    diff = np.where(finite, diff, 0.0)
    return float(max(diff.max(axis=1).sum(), (-diff).max(axis=1).sum()))
