"""The token sanitizers' document pipeline: find tokens, build each category's domain, draw
surrogates for all of a document's tokens at once, stitch the output and write the receipt.

Per document and category the domain is the public candidate set plus the document's own
strings of that category (every input must be in the domain). Clusters (CusText, CluSanT)
are built once per candidate set from the public candidates with a fixed seed; a document's
strings join their nearest cluster without moving its centroid, so the clustering never
depends on a document. Randomness comes from OS entropy unless `settings.seed` is given.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field

import numpy as np

from anonymizer.mechanisms.base import Plan, report
from anonymizer.settings import Settings
from anonymizer.token_dp.candidates import (
    CandidateSet,
    candidate_source,
    load_candidate_set,
)
from anonymizer.token_dp.clustering import (
    Thm5Check,
    check_thm5,
    cluster_centroids,
    cluster_size_for,
    extend_thm5_check,
    greedy_clusters,
    nearest_centroid,
)
from anonymizer.token_dp.embedding import MODEL_ID, Embedder, MiniLMEmbedder, model_reference
from anonymizer.token_dp.receipt import CLUSTERING_SEED, CategoryStats, token_receipt
from anonymizer.token_dp.sampling import (
    clusant_log_probs,
    custext_log_probs,
    diameter,
    pairwise_distances,
    pushed_embeddings,
    sample_rows,
    santext_log_probs,
)
from anonymizer.token_dp.tokens import SensitiveToken, find_tokens, match_case
from anonymizer.types import Detection, ProgressCallback, RewriteResult, Span

VARIANTS = ("santext", "custext", "clusant")

_DEFAULT_EMBEDDER: MiniLMEmbedder | None = None
_DEFAULT_LOCK = threading.Lock()


def default_embedder() -> MiniLMEmbedder:
    """One MiniLM embedder (and string cache) shared by the three mechanisms of a process."""
    global _DEFAULT_EMBEDDER
    with _DEFAULT_LOCK:
        if _DEFAULT_EMBEDDER is None:
            _DEFAULT_EMBEDDER = MiniLMEmbedder()
        return _DEFAULT_EMBEDDER


@dataclass
class PublicDomain:
    """A candidate set with what every document reuses: diameter, clusters, Thm 5 checks."""

    candidates: CandidateSet
    diameter: float
    index: dict[str, int]
    squared_norms: np.ndarray
    labels: np.ndarray | None = None
    centroids: np.ndarray | None = None
    cluster_size: int | None = None
    thm5: dict[float, Thm5Check] = field(default_factory=dict)
    pushed: dict[float, np.ndarray] = field(default_factory=dict)


@dataclass
class DocumentDomain:
    """One document's domain for one category: public candidates + the document's strings."""

    public: PublicDomain
    strings: list[str]
    embeddings: np.ndarray
    labels: np.ndarray | None
    diameter: float  # of the public candidates until the document's rows are measured
    squared_norms: np.ndarray

    @property
    def n_public(self) -> int:
        return len(self.public.candidates)

    @property
    def delta_u(self) -> float:
        return max(1.0, self.diameter)

    def row(self, string: str) -> int:
        found = self.public.index.get(string)
        if found is not None:
            return found
        return self.n_public + self.strings[self.n_public :].index(string)


class TokenSanitizer:
    """SanText, CusText or CluSanT over detected spans; one instance serves many documents."""

    def __init__(self, variant: str, embedder: Embedder | None = None) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown token sanitizer {variant!r}; use {', '.join(VARIANTS)}")
        self.variant = variant
        self._embedder = embedder
        self._domains: dict[tuple[str, int | None], PublicDomain] = {}
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
            draws = len({t.draw_key for t in group})
            stats[category] = CategoryStats(draws, len(group), None, None)
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
        )
        return Plan(text, spans, receipt)

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
        publics = {c: self.public_domain(c, settings) for c in categories}

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
            domain = self._document_domain(publics[category], firsts, vectors)
            rows = np.array([domain.row(_input_string(t)) for t in firsts], dtype=np.int64)
            distances = pairwise_distances(
                domain.embeddings[rows], domain.embeddings, domain.squared_norms
            )
            # Every string the document added is an input row, so this completes the diameter.
            added = rows >= domain.n_public
            domain.diameter = max(domain.diameter, float(distances[added].max(initial=0.0)))
            chosen = sample_rows(self._log_probs(domain, rows, distances, settings), rng)
            for token, pick in zip(firsts, chosen, strict=True):
                surrogates[token.draw_key] = domain.strings[int(pick)]
                draw_index[token.draw_key] = len(draw_index)
            stats[category] = self._stats(domain, len(firsts), len(group), settings)
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
        )
        return RewriteResult(text, "".join(s.output_text for s in spans), spans, receipt)

    def _log_probs(
        self, domain: DocumentDomain, rows: np.ndarray, distances: np.ndarray, settings: Settings
    ) -> np.ndarray:
        epsilon = float(settings.epsilon)
        if self.variant == "santext":
            return santext_log_probs(distances, epsilon)
        assert domain.labels is not None and domain.public.centroids is not None
        if self.variant == "custext":
            return custext_log_probs(distances, domain.labels[rows], domain.labels, epsilon)
        return clusant_log_probs(
            distances,
            domain.labels[rows],
            domain.labels,
            domain.public.centroids,
            epsilon,
            float(settings.cluster_push),
            domain.delta_u,
        )

    def _stats(
        self, domain: DocumentDomain, draws: int, occurrences: int, settings: Settings
    ) -> CategoryStats:
        public = domain.public
        n_document = len(domain.strings) - domain.n_public
        if self.variant == "santext":
            return CategoryStats(
                draws, occurrences, domain.n_public, n_document, diameter=domain.diameter
            )
        assert public.centroids is not None and domain.labels is not None
        n_clusters = len(public.centroids)
        if self.variant == "custext":
            return CategoryStats(
                draws,
                occurrences,
                domain.n_public,
                n_document,
                diameter=domain.diameter,
                n_clusters=n_clusters,
                cluster_size=public.cluster_size,
            )
        k = float(settings.cluster_push)
        thm5 = None
        spread = None
        if math.isfinite(k):
            thm5 = self._thm5(domain, k)
            spread = k * float(pairwise_distances(public.centroids, public.centroids).max())
        return CategoryStats(
            draws,
            occurrences,
            domain.n_public,
            n_document,
            diameter=domain.diameter,
            delta_u=domain.delta_u,
            n_clusters=n_clusters,
            cluster_size=public.cluster_size,
            max_cluster_distance=spread,
            thm5=thm5,
        )

    def _thm5(self, domain: DocumentDomain, k: float) -> Thm5Check:
        """Theorem 5 over the document's domain: the public pairs once, then the new ones."""
        public = domain.public
        assert public.labels is not None and public.centroids is not None
        assert domain.labels is not None
        base_delta_u = max(1.0, public.diameter)
        with self._lock:
            base, pushed = public.thm5.get(k), public.pushed.get(k)
        if base is None or pushed is None:
            embeddings = public.candidates.embeddings
            pushed = pushed_embeddings(embeddings, public.labels, public.centroids, k)
            base = check_thm5(
                embeddings, public.labels, public.centroids, k, base_delta_u, pushed=pushed
            )
            with self._lock:
                public.thm5[k], public.pushed[k] = base, pushed
        if domain.n_public == len(domain.strings):
            return base
        added = slice(domain.n_public, None)
        all_pushed = np.vstack(
            [
                pushed,
                pushed_embeddings(
                    domain.embeddings[added], domain.labels[added], public.centroids, k
                ),
            ]
        )
        return extend_thm5_check(
            base,
            domain.embeddings,
            domain.labels,
            public.centroids,
            domain.delta_u,
            domain.n_public,
            base_delta_u=base_delta_u,
            pushed=all_pushed,
        )

    # -- domains -------------------------------------------------------------------------

    def public_domain(self, category: str, settings: Settings) -> PublicDomain:
        """The category's public candidates with their diameter and clusters, built once."""
        candidates = load_candidate_set(category, settings.candidates_per_category, self.embedder)
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
        public = PublicDomain(
            candidates,
            diameter(embeddings),
            {s: i for i, s in enumerate(candidates.strings)},
            np.einsum("ij,ij->i", embeddings, embeddings),
        )
        if clustered and h is not None:
            labels = greedy_clusters(
                candidates.embeddings, h, np.random.default_rng(CLUSTERING_SEED)
            )
            public.labels = labels
            public.centroids = cluster_centroids(candidates.embeddings, labels)
            public.cluster_size = h
        with self._lock:
            return self._domains.setdefault(key, public)

    def _document_domain(
        self, public: PublicDomain, tokens: list[SensitiveToken], vectors: dict[str, np.ndarray]
    ) -> DocumentDomain:
        new = list(
            dict.fromkeys(s for s in (_input_string(t) for t in tokens) if s not in public.index)
        )
        base = public.candidates.embeddings
        if not new:
            return DocumentDomain(
                public,
                list(public.candidates.strings),
                base,
                public.labels,
                public.diameter,
                public.squared_norms,
            )
        added = np.vstack([vectors[s] for s in new])
        labels = None
        if public.labels is not None and public.centroids is not None:
            labels = np.concatenate([public.labels, nearest_centroid(added, public.centroids)])
        return DocumentDomain(
            public,
            [*public.candidates.strings, *new],
            np.vstack([base, added]),
            labels,
            public.diameter,
            np.concatenate([public.squared_norms, np.einsum("ij,ij->i", added, added)]),
        )


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
