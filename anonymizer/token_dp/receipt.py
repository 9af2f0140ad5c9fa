"""Receipts for the token sanitizers: per-token notion, n, candidate sets, clustering, Thm 5.

`epsilon_total` is n·ε_token, the coefficient of the document-level guarantee obtained by basic
composition (a bound that grows with the distances between the strings); it is not an
(ε, δ)-DP figure, and the notion, statement and details say so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from anonymizer.receipts import build_receipt
from anonymizer.settings import Settings
from anonymizer.token_dp.candidates import CANDIDATE_SEED
from anonymizer.token_dp.clustering import Thm5Check, cluster_size_for
from anonymizer.token_dp.embedding import MODEL_ID
from anonymizer.types import Receipt

CLUSTERING_SEED = 0
TITLES = {"santext": "SanText", "custext": "CusText", "clusant": "CluSanT"}

DOCUMENT_STRINGS_CAVEAT = (
    "Each category's candidate set contains the document's own detected strings, so that every "
    "input lies in the mechanism's domain; an output can therefore be another sensitive string "
    "of the same document (or the input itself). The guarantee treats the candidate set as "
    "public."
)
CONSISTENT_CAVEAT = (
    "Repeated occurrences of one string (same category, ignoring case) share one draw, so "
    "replacements are consistent within the document; n counts distinct strings."
)
VISIBLE_CAVEAT = (
    "The guarantee covers which string stood in each sanitized span, not the number, positions "
    "or categories of the spans, which the output shows (each surrogate comes from the same "
    "category)."
)
VERBATIM_CAVEAT = (
    "Text outside the sanitized spans is released unchanged and is not covered; its context "
    "may identify the person or undo a replacement."
)
GENERAL_WORDS_CAVEAT = (
    "General words were sanitized too (SanText's setting, wordfreq vocabulary); numbers, "
    "punctuation and words mixing letters and digits are released unchanged."
)
SYNTHETIC_CAVEAT = (
    "Surrogates are synthetic (Faker, several locales) and may coincide with real people, "
    "places or organisations."
)
COMPOSITION_CAVEAT = (
    "Document-level figures use basic composition over the n draws; they cover only the "
    "sanitized strings."
)
CUSTEXT_CAVEAT = (
    "With two or more clusters CusText gives no ε-LDP or metric-LDP guarantee (CluSanT paper, "
    "Thm 4): a string is only ever replaced by a member of its own cluster, so the output "
    "reveals the input's cluster with certainty. The ε-LDP bound holds only between strings "
    "of the same cluster."
)
CLUSANT_METRIC_CAVEAT = (
    "CluSanT's guarantee is metric LDP w.r.t. the Euclidean distance between pushed embeddings "
    "f'(x) = k·C_x + (f(x) − C_x): strings in different clusters are about k times farther "
    "apart than in the plain embedding space, so between them the same ε protects less."
)
CLUSANT_INF_CAVEAT = (
    "With k = inf CluSanT always keeps the input's cluster (as CusText does): no metric-LDP "
    "guarantee across clusters, and the output reveals the input's cluster."
)


@dataclass(frozen=True)
class CategoryStats:
    """What one category contributed to a document's rewrite."""

    draws: int
    occurrences: int
    public_candidates: int | None
    document_candidates: int | None
    diameter: float | None = None
    delta_u: float | None = None
    n_clusters: int | None = None
    cluster_size: int | None = None
    max_cluster_distance: float | None = None  # max d_c(C, C′) = k·‖C − C′‖ (CluSanT)
    thm5: Thm5Check | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "draws": self.draws,
            "occurrences": self.occurrences,
            "candidates_public": self.public_candidates,
            "candidates_from_document": self.document_candidates,
            "candidates_total": (
                None
                if self.public_candidates is None
                else self.public_candidates + (self.document_candidates or 0)
            ),
        }
        for key in ("diameter", "delta_u", "n_clusters", "cluster_size", "max_cluster_distance"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.thm5 is not None:
            data["theorem5"] = self.thm5.to_dict()
        return data


def token_receipt(
    *,
    variant: str,
    settings: Settings,
    text: str,
    stats: dict[str, CategoryStats],
    placeholder_counts: dict[str, int],
    model: str,
    embedder_name: str = MODEL_ID,
    candidate_sources: dict[str, str],
    planned: bool,
) -> Receipt:
    """The receipt of one document (`planned=True`: before any embedding was computed)."""
    epsilon = float(settings.epsilon)
    n = sum(s.draws for s in stats.values())
    occurrences = sum(s.occurrences for s in stats.values())
    space = f"Euclidean, {embedder_name} space"
    notion, eps_token, worst_token, notes = _guarantee(variant, settings, stats, planned, space)
    title = TITLES[variant]
    eps_total = 0.0 if n == 0 else n * eps_token
    caveats = [
        DOCUMENT_STRINGS_CAVEAT,
        CONSISTENT_CAVEAT,
        VISIBLE_CAVEAT,
        COMPOSITION_CAVEAT,
        GENERAL_WORDS_CAVEAT if settings.sanitize_general_words else VERBATIM_CAVEAT,
    ]
    if any(c not in ("general word", "custom") for c in stats):
        caveats.append(SYNTHETIC_CAVEAT)
    caveats.extend(notes)
    if placeholder_counts:
        listed = ", ".join(f"{c} ({k})" for c, k in sorted(placeholder_counts.items()))
        caveats.append(
            f"No surrogate generator exists for these categories, so their spans were replaced "
            f"by placeholders and are not part of the token mechanism: {listed}."
        )

    statement = _statement(
        title, variant, settings, n, eps_token, worst_token, notion, planned, embedder_name
    )
    h = cluster_size_for(
        settings.candidates_per_category, settings.n_clusters, settings.cluster_size
    )
    details: dict[str, Any] = {
        "per_token_notion": notion,
        "epsilon": epsilon,
        "epsilon_per_token": eps_token,
        "n_tokens": n,
        "n_occurrences": occurrences,
        "epsilon_total_meaning": (
            "n × epsilon_per_token: the coefficient of the document-level bound by basic "
            "composition, ln(Pr[out|doc]/Pr[out|doc']) ≤ ε·Σ d(x_i, x'_i); not an (ε, δ)-DP "
            "figure"
        ),
        "worst_case_ldp_epsilon_per_token": worst_token,
        "worst_case_ldp_epsilon_document": None if worst_token is None else n * worst_token,
        "distance": "euclidean",
        "embedding_model": model,
        "categories": {c: s.to_dict() for c, s in sorted(stats.items())},
        "placeholder_categories": dict(sorted(placeholder_counts.items())),
        "candidates_per_category": settings.candidates_per_category,
        "candidate_sources": dict(sorted(candidate_sources.items())),
        "candidate_seed": CANDIDATE_SEED,
        "sanitize_general_words": settings.sanitize_general_words,
        "planned_only": planned,
    }
    if variant in ("custext", "clusant"):
        details["clustering"] = {
            "method": "CusText greedy: random unassigned token + its h−1 nearest unassigned",
            "built_on": "public candidates only; a document's own strings join their nearest "
            "cluster without moving its centroid",
            "n_clusters_requested": None if settings.cluster_size else settings.n_clusters,
            "cluster_size_requested": settings.cluster_size,
            "cluster_size": h if planned else None,
            "seed": CLUSTERING_SEED,
        }
    if variant == "clusant":
        details["cluster_push_k"] = settings.cluster_push
        details["theorem5"] = _theorem5_summary(settings, stats, planned)

    receipt = build_receipt(
        mechanism=variant,
        settings=settings,
        text=text,
        notion=notion,
        statement=statement,
        n_chunks=n,
        models={"token_embedder": model},
        caveats=caveats,
        details=details,
        epsilon_total=eps_total,
        delta_total=0.0,
    )
    return replace(receipt, composition="basic", epsilon_per_chunk=eps_token, delta_per_chunk=0.0)


def _guarantee(
    variant: str, settings: Settings, stats: dict[str, CategoryStats], planned: bool, space: str
) -> tuple[str, float, float | None, list[str]]:
    """(notion, ε per token, worst-case pure-LDP ε per token or None, extra caveats)."""
    epsilon = float(settings.epsilon)
    diameters = [s.diameter for s in stats.values() if s.diameter is not None]
    if math.isinf(epsilon):
        return (
            "none (epsilon = inf: each string is replaced by its nearest candidate, i.e. kept)",
            math.inf,
            math.inf,
            [],
        )
    if variant == "santext":
        worst = epsilon * max(diameters) if diameters and not planned else None
        return f"eps-metric-LDP per token ({space})", epsilon, worst, []
    if variant == "custext":
        if planned:
            h = cluster_size_for(
                settings.candidates_per_category, settings.n_clusters, settings.cluster_size
            )
            several = math.ceil(settings.candidates_per_category / h) >= 2
        else:
            several = any((s.n_clusters or 1) >= 2 for s in stats.values())
        if several:
            return (
                "eps-LDP within cluster only (no LDP or metric-LDP guarantee across clusters)",
                epsilon,
                math.inf,
                [CUSTEXT_CAVEAT],
            )
        return "eps-LDP per token (CusText, one cluster)", epsilon, epsilon, []
    k = settings.cluster_push
    if math.isinf(k):
        return (
            "eps-LDP within cluster only (CluSanT k=inf; no metric-LDP guarantee across clusters)",
            epsilon,
            math.inf,
            [CLUSANT_INF_CAVEAT],
        )
    notion = f"eps-metric-LDP per token ({space}; CluSanT-pushed embeddings f', k={k:g})"
    checks = [s.thm5 for s in stats.values() if s.thm5 is not None]
    notes = [CLUSANT_METRIC_CAVEAT]
    constant = max((c.realised_constant for c in checks), default=0.0)
    eps_token = epsilon * max(1.0, constant)
    if any(not c.holds for c in checks):
        consequence = (
            f"the per-token ε is therefore raised to L·ε = {eps_token:.4g}"
            if constant > 1
            else "they still bound the loss by L·ε ≤ ε"
        )
        notes.append(
            "Theorem 5's conditions do not hold for this clustering (see details.theorem5), so "
            "the guarantee rests on the exponential mechanism's own bounds, with realised "
            f"constant L = {constant:.4g}: {consequence}."
        )
    spreads = [s.max_cluster_distance for s in stats.values() if s.max_cluster_distance is not None]
    worst = None
    if not planned and spreads:
        worst = epsilon / 2.0 * (max(spreads) + 1.0)
    return notion, eps_token, worst, notes


def _theorem5_summary(
    settings: Settings, stats: dict[str, CategoryStats], planned: bool
) -> dict[str, Any]:
    if math.isinf(settings.cluster_push):
        return {"checked": False, "reason": "k = inf: deterministic cluster, no MLDP claim"}
    if planned:
        return {"checked": False, "reason": "checked when the clusters are built (rewrite)"}
    checks = {c: s.thm5 for c, s in stats.items() if s.thm5 is not None}
    return {
        "checked": True,
        "holds": all(c.holds for c in checks.values()),
        "realised_constant": max((c.realised_constant for c in checks.values()), default=0.0),
        "by_category": {c: check.to_dict() for c, check in sorted(checks.items())},
    }


def _statement(
    title: str,
    variant: str,
    settings: Settings,
    n: int,
    eps_token: float,
    worst_token: float | None,
    notion: str,
    planned: bool,
    embedder_name: str,
) -> str:
    eps = settings.epsilon
    if n == 0:
        return (
            f"{title}: no sensitive strings were found, so nothing was sanitized and the "
            "text was released unchanged (apart from any placeholders)."
        )
    formula = {
        "santext": "Pr[y|x] ∝ exp(−ε·d(x,y)/2) over its category's candidate set",
        "custext": "Pr[y|x] ∝ exp(ε·u(x,y)/2) over the members of x's cluster, with "
        "u = −(d − d_min)/(d_max − d_min)",
        "clusant": f"CluSanT: a cluster with ε/2 (Pr[C|x] ∝ exp(−ε·k·‖C_x − C‖/4), "
        f"k={settings.cluster_push:g}), then a member with ε/2 "
        "(Pr[y|x,C] ∝ exp(−ε·d(x,y)/(4Δu)), Δu = max(1, candidate-set diameter))",
    }[variant]
    when = "will be" if planned else "was"
    parts = [
        f"Each of the n = {n} distinct sensitive strings {when} replaced by a draw of {formula}, "
        f"ε = {eps:g}, d the Euclidean distance between {embedder_name} embeddings. Guarantee: "
        f"{notion}.",
    ]
    if math.isinf(eps_token):
        parts.append("With ε = inf the mechanism gives no privacy.")
    elif notion.startswith("eps-metric-LDP"):
        metric = "d(x_i, x'_i)" if variant == "santext" else "d_c(f'x_i, f'x'_i)"
        parts.append(
            f"By basic composition over the n draws, two documents whose sanitized strings "
            f"differ (x_i vs x'_i) give any output with probabilities within a factor "
            f"exp(ε'·Σ_i {metric}), ε' = {eps_token:.4g} per token, i.e. at most "
            f"exp(n·ε'·max distance); epsilon_total = n·ε' = {n * eps_token:.4g} is that "
            "coefficient, not an (ε, δ)-DP figure."
        )
    else:
        parts.append(
            f"By basic composition the document is ε-LDP with ε = {n * eps_token:.4g} only against "
            "changes that keep every string inside its cluster; across clusters there is no "
            "guarantee."
        )
    if worst_token is not None and math.isfinite(worst_token):
        parts.append(
            f"Against an arbitrary change of the strings within the candidate sets the bound "
            f"is pure ε-LDP with ε = {worst_token:.4g} per token, {n * worst_token:.4g} for "
            "the document."
        )
    if planned:
        parts.append(
            "Candidate sets and clusters are built at rewrite time; the rewrite's "
            "receipt reports their sizes and the realised constants."
        )
    parts.append("Text outside the sanitized spans carries no guarantee.")
    return " ".join(parts)
