"""The token sanitizers' document pipeline: find tokens, draw surrogates for all of a
document's tokens at once, stitch the output and write the receipt.

Outputs come from the category's public candidate set only; a document's own strings are
inputs only (embedded, never added to the outputs), so the output domain never depends on a
document. Clusters (CusText, CluSanT) are built once per candidate set from the public
candidates with a fixed seed, and any input point, public or not, belongs to the cluster of
its nearest public reference point (`clustering`). CluSanT's Δu is the public candidates'
diameter, never a document's. `log_probs` is the one place the output distribution of any
input embedding is computed: the rewrite samples from it and the privacy audit
(tests/privacy) checks it. Randomness comes from OS entropy unless `settings.seed` is given.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from anonymizer.errors import InvalidSettings
from anonymizer.mechanisms.base import Plan, report
from anonymizer.settings import Settings
from anonymizer.token_dp.candidates import CandidateSet, candidate_source, load_candidate_set
from anonymizer.token_dp.clustering import (
    clusant_epsilon,
    cluster_size_for,
    nearest_centroid,
    public_clusters,
)
from anonymizer.token_dp.embedding import MODEL_ID, Embedder, MiniLMEmbedder, model_reference
from anonymizer.token_dp.receipt import CLUSTERING_SEED, CategoryStats, token_receipt
from anonymizer.token_dp.remap import public_remap_table
from anonymizer.token_dp.sampling import (
    clusant_log_probs,
    custext_log_probs,
    diameter,
    pairwise_distances,
    sample_rows,
    santext_log_probs,
)
from anonymizer.token_dp.tokens import SensitiveToken, find_tokens, match_case
from anonymizer.types import Detection, ProgressCallback, RewriteResult, Span

VARIANTS = ("santext", "custext", "clusant")

REMAP_CACHE_ENTRIES = 64
_DEFAULT_EMBEDDER: MiniLMEmbedder | None = None
_DEFAULT_LOCK = threading.Lock()


def default_embedder() -> MiniLMEmbedder:
    """One MiniLM embedder (and string cache) shared by the three mechanisms of a process."""
    global _DEFAULT_EMBEDDER
    with _DEFAULT_LOCK:
        if _DEFAULT_EMBEDDER is None:
            _DEFAULT_EMBEDDER = MiniLMEmbedder()
        return _DEFAULT_EMBEDDER


@dataclass(frozen=True)
class PublicDomain:
    """A category's output domain, built once from public data only: the candidates, their
    diameter (CluSanT's Δu) and, for the clustered variants, the reference points and cells."""

    candidates: CandidateSet
    diameter: float
    index: dict[str, int]
    squared_norms: np.ndarray
    labels: np.ndarray | None = None  # each candidate's cell
    centroids: np.ndarray | None = None  # the public reference points C_1..C_c
    cluster_size: int | None = None  # the greedy clustering's h

    @property
    def embeddings(self) -> np.ndarray:
        return self.candidates.embeddings

    @property
    def strings(self) -> tuple[str, ...]:
        return self.candidates.strings

    @property
    def delta_u(self) -> float:
        """CluSanT's Δu = max(1, diameter of the public candidates): never a document's."""
        return max(1.0, self.diameter)

    @property
    def n_clusters(self) -> int:
        return 1 if self.centroids is None else len(self.centroids)

    def cluster_of(self, inputs: np.ndarray) -> np.ndarray:
        """The input → cluster map, defined for every point of the embedding space."""
        assert self.centroids is not None
        return nearest_centroid(inputs, self.centroids)


class TokenSanitizer:
    """SanText, CusText or CluSanT over detected spans; one instance serves many documents."""

    def __init__(self, variant: str, embedder: Embedder | None = None) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown token sanitizer {variant!r}; use {', '.join(VARIANTS)}")
        self.variant = variant
        self._embedder = embedder
        self._domains: dict[tuple[str, int | None], PublicDomain] = {}
        self._remaps: dict[tuple, np.ndarray] = {}
        self._lock = threading.Lock()

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = default_embedder()
        return self._embedder

    def _embedder_name(self) -> str:
        return MODEL_ID if self._embedder is None else self._embedder.name

    def _model_reference(self) -> str:
        if self._embedder is None or isinstance(self._embedder, MiniLMEmbedder):
            return model_reference()
        return self._embedder.name

    def _unit_norm(self) -> bool:
        """Whether every embedding has norm 1 (then d ≤ 2 bounds any pair of inputs)."""
        return bool(getattr(self._embedder or MiniLMEmbedder, "unit_norm", False))

    # -- planning (no model) -------------------------------------------------------------

    def plan(self, text: str, settings: Settings, gold: list[Detection] | None = None) -> Plan:
        """Detection and the settings-derived receipt; loads no model and embeds nothing."""
        tokens = find_tokens(text, settings, gold)
        stats: dict[str, CategoryStats] = {}
        placeholders: dict[str, int] = {}
        for category, group in _by_category(tokens).items():
            if not group[0].has_candidates:
                placeholders[category] = len(group)
                continue
            stats[category] = CategoryStats(len({t.draw_key for t in group}), len(group))
        spans = _spans(text, tokens, {}, {})
        receipt = token_receipt(
            variant=self.variant,
            settings=settings,
            text=text,
            stats=stats,
            placeholder_counts=placeholders,
            model=self._model_reference(),
            embedder_name=self._embedder_name(),
            candidate_sources={c: candidate_source(c) for c in stats},
            planned=True,
            unit_norm=self._unit_norm(),
        )
        return Plan(text, spans, receipt)

    # -- the output distribution ---------------------------------------------------------

    def log_probs(self, public: PublicDomain, inputs: np.ndarray, settings: Settings) -> np.ndarray:
        """log Pr[y | x] for each input row x (any point of the space) over the public
        candidates y: what the rewrite samples from, and what the privacy audit checks."""
        inputs = np.atleast_2d(np.asarray(inputs, dtype=np.float64))
        epsilon = float(settings.epsilon)
        distances = pairwise_distances(inputs, public.embeddings, public.squared_norms)
        if self.variant == "santext":
            return santext_log_probs(distances, epsilon)
        assert public.labels is not None and public.centroids is not None
        x_labels = public.cluster_of(inputs)
        if self.variant == "custext":
            return custext_log_probs(distances, x_labels, public.labels, epsilon)
        k = float(settings.cluster_push)
        _check_push(k, public.n_clusters)
        return clusant_log_probs(
            distances, x_labels, public.labels, public.centroids, epsilon, k, public.delta_u
        )

    def remap_table(self, public: PublicDomain, settings: Settings) -> np.ndarray:
        """Bayesian remapping f(y) of every public candidate y at these settings (`remap`):
        a function of the output and public data only, so applying it costs no privacy."""
        key = (
            public.candidates.key,
            public.cluster_size,
            float(settings.epsilon),
            float(settings.cluster_push),
        )
        with self._lock:
            if key in self._remaps:
                return self._remaps[key]
        square = self.log_probs(public, public.embeddings, settings)
        table = public_remap_table(square, public.embeddings)
        with self._lock:
            if len(self._remaps) >= REMAP_CACHE_ENTRIES:
                self._remaps.pop(next(iter(self._remaps)))
            return self._remaps.setdefault(key, table)

    # -- rewriting -----------------------------------------------------------------------

    def rewrite_many(
        self,
        texts: list[str],
        settings: Settings,
        progress: ProgressCallback | None = None,
        golds: list[list[Detection] | None] | None = None,
    ) -> list[RewriteResult]:
        """Rewrite several documents: one embedding call for all of them, one pass each."""
        golds = golds or [None] * len(texts)
        report(progress, 0.0, "detecting sensitive tokens")
        documents = [find_tokens(t, settings, g) for t, g in zip(texts, golds, strict=True)]
        categories = sorted({t.category for doc in documents for t in doc if t.has_candidates})
        report(progress, 0.1, "loading candidate sets")
        publics = {
            c: self.public_domain(c, settings, on_batch=_embedding_progress(progress, c))
            for c in categories
        }

        report(progress, 0.3, "embedding the documents' strings")
        new_strings = sorted(
            {
                _input_string(t)
                for doc in documents
                for t in doc
                if t.has_candidates and _input_string(t) not in publics[t.category].index
            }
        )
        vectors = (
            dict(
                zip(
                    new_strings,
                    np.asarray(self.embedder.encode(new_strings), np.float64),
                    strict=True,
                )
            )
            if new_strings
            else {}
        )

        rng = np.random.default_rng(settings.seed)
        results = []
        for i, (text, tokens) in enumerate(zip(texts, documents, strict=True)):
            report(
                progress,
                0.4 + 0.6 * i / max(1, len(texts)),
                f"sanitizing document {i + 1}/{len(texts)}",
            )
            results.append(self._rewrite_one(text, tokens, settings, publics, vectors, rng))
        report(progress, 1.0, "done")
        return results

    def _rewrite_one(
        self,
        text: str,
        tokens: list[SensitiveToken],
        settings: Settings,
        publics: dict[str, PublicDomain],
        vectors: dict[str, np.ndarray],
        rng: np.random.Generator,
    ) -> RewriteResult:
        surrogates: dict[tuple[str, str], str] = {}
        draw_index: dict[tuple[str, str], int] = {}
        stats: dict[str, CategoryStats] = {}
        placeholders: dict[str, int] = {}
        for category, group in _by_category(tokens).items():
            if not group[0].has_candidates:
                placeholders[category] = len(group)
                continue
            first_of: dict[tuple[str, str], SensitiveToken] = {}
            for token in group:
                first_of.setdefault(token.draw_key, token)
            firsts = list(first_of.values())
            public = publics[category]
            inputs = np.vstack([_embedding(public, vectors, _input_string(t)) for t in firsts])
            chosen = sample_rows(self.log_probs(public, inputs, settings), rng)
            if settings.bayes_remap:
                chosen = self.remap_table(public, settings)[chosen]
            for token, pick in zip(firsts, chosen, strict=True):
                surrogates[token.draw_key] = public.strings[int(pick)]
                draw_index[token.draw_key] = len(draw_index)
            outside = sum(_input_string(t) not in public.index for t in firsts)
            stats[category] = self._stats(public, len(firsts), len(group), outside, settings)
        spans = _spans(text, tokens, surrogates, draw_index)
        receipt = token_receipt(
            variant=self.variant,
            settings=settings,
            text=text,
            stats=stats,
            placeholder_counts=placeholders,
            model=self._model_reference(),
            embedder_name=self._embedder_name(),
            candidate_sources={c: publics[c].candidates.source for c in stats},
            planned=False,
            unit_norm=self._unit_norm(),
        )
        return RewriteResult(text, "".join(s.output_text for s in spans), spans, receipt)

    def _stats(
        self, public: PublicDomain, draws: int, occurrences: int, outside: int, settings: Settings
    ) -> CategoryStats:
        common = {
            "draws": draws,
            "occurrences": occurrences,
            "public_candidates": len(public.candidates),
            "inputs_outside_public_set": outside,
            "diameter": public.diameter,
        }
        if self.variant == "santext":
            return CategoryStats(**common)
        assert public.labels is not None and public.centroids is not None
        sizes = np.bincount(public.labels)
        clustered = {
            **common,
            "n_clusters": public.n_clusters,
            "cluster_size": public.cluster_size,
            "cluster_sizes": (int(sizes.min()), int(sizes.max())),
        }
        if self.variant == "custext":
            return CategoryStats(**clustered)
        k = float(settings.cluster_push)
        spread = float(pairwise_distances(public.centroids, public.centroids).max())
        return CategoryStats(
            **clustered,
            delta_u=public.delta_u,
            max_centroid_distance=spread,
            epsilon_per_token=clusant_epsilon(
                float(settings.epsilon), k, public.delta_u, public.n_clusters
            ),
        )

    # -- domains -------------------------------------------------------------------------

    def public_domain(
        self,
        category: str,
        settings: Settings,
        on_batch: Callable[[int, int], None] | None = None,
    ) -> PublicDomain:
        """The category's public candidates with their diameter and clusters, built once."""
        candidates = load_candidate_set(
            category, settings.candidates_per_category, self.embedder, on_batch=on_batch
        )
        clustered = self.variant != "santext"
        h = (
            cluster_size_for(len(candidates), settings.n_clusters, settings.cluster_size)
            if clustered
            else None
        )
        key = (candidates.key, h)
        with self._lock:
            if key in self._domains:
                return self._domains[key]
        embeddings = candidates.embeddings
        labels = centroids = None
        if h is not None:
            labels, centroids = public_clusters(
                embeddings, h, np.random.default_rng(CLUSTERING_SEED)
            )
        public = PublicDomain(
            candidates,
            diameter(embeddings),
            {s: i for i, s in enumerate(candidates.strings)},
            np.einsum("ij,ij->i", embeddings, embeddings),
            labels,
            centroids,
            h,
        )
        with self._lock:
            return self._domains.setdefault(key, public)


def _check_push(k: float, n_clusters: int) -> None:
    if n_clusters > 1 and k <= 1:
        raise InvalidSettings(
            "cluster_push",
            f"CluSanT with k = {k:g} and {n_clusters} clusters has no finite metric-LDP bound "
            "(inputs on either side of a cluster boundary can be arbitrarily close); use "
            "k > 1 or a single cluster",
        )


def _embedding(public: PublicDomain, vectors: dict[str, np.ndarray], string: str) -> np.ndarray:
    """An input's embedding: the cached public row when it is a candidate, else its own."""
    row = public.index.get(string)
    return public.embeddings[row] if row is not None else vectors[string]


def _embedding_progress(
    progress: ProgressCallback | None, category: str
) -> Callable[[int, int], None]:
    """Progress while a candidate set is embedded (each call is also a cancel check)."""

    def on_batch(done: int, total: int) -> None:
        report(
            progress,
            0.1 + 0.2 * done / total,
            f"embedding {category} candidates {done:,}/{total:,}",
        )

    return on_batch


def _input_string(token: SensitiveToken) -> str:
    """The string whose embedding is x: general words are looked up case-folded."""
    return token.text.casefold() if token.general else token.text


def _by_category(tokens: list[SensitiveToken]) -> dict[str, list[SensitiveToken]]:
    groups: dict[str, list[SensitiveToken]] = {}
    for token in tokens:
        groups.setdefault(token.category, []).append(token)
    return groups


def _spans(
    text: str,
    tokens: list[SensitiveToken],
    surrogates: dict[tuple[str, str], str],
    draw_index: dict[tuple[str, str], int],
) -> list[Span]:
    """Output spans in order; everything outside the tokens is kept byte for byte."""
    spans: list[Span] = []
    cursor = 0
    for token in tokens:
        if token.start > cursor:
            spans.append(Span(text[cursor : token.start], False))
        surrogate = surrogates.get(token.draw_key)
        if token.general:
            rewritten = match_case(token.text, surrogate) if surrogate is not None else None
            spans.append(
                Span(
                    token.text, False, rewritten=rewritten, chunk_idx=draw_index.get(token.draw_key)
                )
            )
        elif surrogate is not None:
            spans.append(
                Span(token.text, True, token.category, None, surrogate, draw_index[token.draw_key])
            )
        else:
            spans.append(Span(token.text, True, token.category, token.placeholder))
        cursor = token.end
    if cursor < len(text):
        spans.append(Span(text[cursor:], False))
    return spans
