"""Receipts for the token sanitizers: the per-token notion and its ε, n, candidate sets, clusters.

What each variant guarantees for *any* input point of the embedding space (outputs come from
the public candidates only):
- SanText: ε·d metric LDP (d Euclidean), by the exponential mechanism's triangle inequality.
- CusText: ε-LDP between inputs mapped to the same cluster (per-input min–max keeps the
  utility in [−1, 0]); nothing across clusters when there are two or more.
- CluSanT: ε′·d′ metric LDP with ε′ = (ε/2)·√((k/(k−1))² + 1/Δu²) and d′ the distance between
  pushed embeddings (`clustering.clusant_epsilon`); k = ∞: only within a cluster.
`epsilon_total` is the sum of the per-token ε over the n draws, the coefficient of the
document-level bound by basic composition; it is not an (ε, δ)-DP figure, and the notion,
statement and details say so. A receipt whose rewrite sanitized nothing says "none".
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from anonymizer.receipts import build_receipt
from anonymizer.settings import Settings
from anonymizer.token_dp.audit import audit_entry, audit_sentence
from anonymizer.token_dp.candidates import CANDIDATE_SEED
from anonymizer.token_dp.clustering import clusant_epsilon, planned_cluster_count
from anonymizer.token_dp.embedding import MODEL_ID
from anonymizer.types import Receipt

CLUSTERING_SEED = 0
TITLES = {"santext": "SanText", "custext": "CusText", "clusant": "CluSanT"}

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
FLOAT_CAVEAT = (
    "Draws are made in floating point (Gumbel-max over numpy log-probabilities); the guarantee "
    "assumes exact arithmetic."
)
CUSTEXT_CAVEAT = (
    "With two or more clusters CusText gives no ε-LDP or metric-LDP guarantee (CluSanT paper, "
    "Thm 4): a string is only ever replaced by a member of its own cluster (the cell of its "
    "nearest public reference point), so the output reveals the input's cluster with "
    "certainty. The ε-LDP bound holds only between inputs of the same cluster."
)
CLUSANT_METRIC_CAVEAT = (
    "CluSanT's guarantee is metric LDP w.r.t. d'(x, x') = ‖f'(x) − f'(x')‖ with "
    "f'(x) = x + (k − 1)·C(x), C(x) the nearest public reference point: strings in different "
    "clusters are at least (k − 1)·‖C(x) − C(x')‖ apart under d', so across clusters the same "
    "ε' protects less. With respect to the plain embedding distance d no Lipschitz bound holds "
    "across clusters (inputs on either side of a boundary can be arbitrarily close); only the "
    "additive bound ln(Pr[y|x]/Pr[y|x']) ≤ (ε/2)·(k·‖C(x) − C(x')‖ + d(x, x')/Δu) does."
)
CLUSANT_INF_CAVEAT = (
    "With k = inf CluSanT always keeps the input's cluster (as CusText does): no guarantee "
    "across clusters, and the output reveals the input's cluster."
)
AUDIT_CAVEAT = (
    "The audit line in the statement is empirical evidence from attackers run on test "
    "documents (python -m bench.attack_audit), not a guarantee: it does not bound what a "
    "stronger attacker, or one with other background knowledge, can learn."
)
REMAP_STATEMENT = (
    "Each drawn surrogate was then replaced by the public candidate that minimises the "
    "expected semantic loss (1 − cos)/2 under the posterior given the drawn one, with a "
    "uniform prior over the category's public candidates (Bayesian remapping). This is a "
    "function of the drawn surrogate and public data only, so it is post-processing and the "
    "guarantee above is unchanged."
)
NOTHING_SANITIZED = (
    "none (nothing was sanitized: no sensitive string with a candidate set was found, so the "
    "text was released unchanged apart from any placeholders)"
)


@dataclass(frozen=True)
class CategoryStats:
    """What one category contributed to a document's rewrite (figures known after embedding)."""

    draws: int
    occurrences: int
    public_candidates: int | None = None
    inputs_outside_public_set: int | None = None
    diameter: float | None = None
    delta_u: float | None = None
    n_clusters: int | None = None
    cluster_size: int | None = None
    cluster_sizes: tuple[int, int] | None = None  # smallest and largest cell
    max_centroid_distance: float | None = None  # max ‖C − C′‖ (CluSanT)
    epsilon_per_token: float | None = None  # CluSanT's ε′ for this category's Δu

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class Guarantee:
    notion: str
    epsilon_per_token: float | None  # None: no guarantee at all
    epsilon_total: float | None
    worst_case_per_token: float | None  # pure LDP between any two inputs (unit-norm space)
    notes: list[str]


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
    unit_norm: bool = False,
) -> Receipt:
    """The receipt of one document (`planned=True`: before any embedding was computed)."""
    n = sum(s.draws for s in stats.values())
    occurrences = sum(s.occurrences for s in stats.values())
    space = f"Euclidean, {embedder_name} space"
    guarantee = _guarantee(variant, settings, stats, planned, space, unit_norm, n)
    caveats = [
        CONSISTENT_CAVEAT,
        VISIBLE_CAVEAT,
        COMPOSITION_CAVEAT,
        GENERAL_WORDS_CAVEAT if settings.sanitize_general_words else VERBATIM_CAVEAT,
        FLOAT_CAVEAT,
    ]
    if any(c not in ("general word", "custom") for c in stats):
        caveats.append(SYNTHETIC_CAVEAT)
    caveats.extend(guarantee.notes)
    if placeholder_counts:
        listed = ", ".join(f"{c} ({k})" for c, k in sorted(placeholder_counts.items()))
        caveats.append(
            f"No surrogate generator exists for these categories, so their spans were replaced "
            f"by placeholders and are not part of the token mechanism: {listed}."
        )
    details: dict[str, Any] = {
        "per_token_notion": guarantee.notion,
        "epsilon": float(settings.epsilon),
        "epsilon_per_token": guarantee.epsilon_per_token,
        "n_tokens": n,
        "n_occurrences": occurrences,
        "epsilon_total_meaning": (
            "Σ over the n draws of the per-token ε: the coefficient of the document-level "
            "bound by basic composition, ln(Pr[out|doc]/Pr[out|doc']) ≤ Σ ε_i·dist(x_i, x'_i) "
            "(the distance the notion names); not an (ε, δ)-DP figure"
        ),
        "worst_case_ldp_epsilon_per_token": guarantee.worst_case_per_token,
        "worst_case_ldp_epsilon_document": (
            None if guarantee.worst_case_per_token is None else n * guarantee.worst_case_per_token
        ),
        "distance": "pushed (d')" if variant == "clusant" else "euclidean",
        "embedding_model": model,
        "output_domain": "the category's public candidate set only; the document's strings "
        "are inputs only (embedded, never added to the outputs)",
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
            "method": "CusText greedy (random unassigned candidate + its h−1 nearest), whose "
            "means become fixed public reference points; every point of the embedding space, "
            "candidate or document string, belongs to the cell of its nearest reference point",
            "built_on": "public candidates only",
            "n_clusters_requested": None if settings.cluster_size else settings.n_clusters,
            "cluster_size_requested": settings.cluster_size,
            "seed": CLUSTERING_SEED,
        }
    if variant == "clusant":
        details["cluster_push_k"] = settings.cluster_push
        details["bound"] = {
            "formula": "ε' = (ε/2)·√((k/(k−1))² + 1/Δu²) w.r.t. d', over the whole embedding "
            "space; one cluster: ε/(2Δu) w.r.t. d",
            "delta_u": "max(1, diameter of the public candidates)",
        }
    statement = _statement(variant, settings, n, guarantee, planned, embedder_name)
    formal = guarantee.epsilon_per_token is not None
    if settings.bayes_remap and n:
        statement += " " + REMAP_STATEMENT
        details["bayes_remap"] = {
            "prior": "uniform over the category's public candidates",
            "loss": "(1 − cos(x, y'))/2 on the embeddings (seed 004, appendix E.2)",
            "outputs": "the category's public candidates",
            "privacy": "post-processing: the guarantee is unchanged",
        }
    audit = audit_entry(variant, float(settings.epsilon)) if formal and n else None
    if audit is not None:
        statement += " " + audit_sentence(audit, settings)
        details["audit"] = audit.to_dict()
        caveats.append(AUDIT_CAVEAT)
    return build_receipt(
        mechanism=variant,
        settings=settings,
        text=text,
        notion=guarantee.notion,
        statement=statement,
        n_chunks=n,
        models={"token_embedder": model},
        caveats=caveats,
        details=details,
        epsilon_total=guarantee.epsilon_total,
        delta_total=0.0 if formal else None,
        composition="basic" if formal else None,
        epsilon_per_chunk=guarantee.epsilon_per_token,
        delta_per_chunk=0.0 if formal else None,
    )


def _guarantee(
    variant: str,
    settings: Settings,
    stats: dict[str, CategoryStats],
    planned: bool,
    space: str,
    unit_norm: bool,
    n: int,
) -> Guarantee:
    epsilon = float(settings.epsilon)
    if math.isinf(epsilon):
        return Guarantee(
            "none (epsilon = inf: each string is replaced by its nearest candidate)",
            None,
            math.inf,
            None,
            [],
        )
    if n == 0:
        return Guarantee(NOTHING_SANITIZED, None, None, None, [])
    several = _several_clusters(variant, settings, stats, planned)
    if variant == "santext":
        worst = 2 * epsilon if unit_norm else None
        return Guarantee(f"eps-metric-LDP per token ({space})", epsilon, n * epsilon, worst, [])
    if variant == "custext":
        if several:
            return Guarantee(
                "eps-LDP within cluster only (no LDP or metric-LDP guarantee across clusters)",
                epsilon,
                n * epsilon,
                None,
                [CUSTEXT_CAVEAT],
            )
        return Guarantee(
            "eps-LDP per token (CusText, one cluster)", epsilon, n * epsilon, epsilon, []
        )
    k = float(settings.cluster_push)
    per_category = {
        c: _clusant_token_epsilon(settings, s, planned, several) for c, s in stats.items()
    }
    eps_token = max(per_category.values())
    total = math.fsum(stats[c].draws * e for c, e in per_category.items())
    if several and math.isinf(k):
        notion = (
            f"eps-metric-LDP within cluster only ({space}; CluSanT k=inf; no guarantee across "
            "clusters)"
        )
        return Guarantee(notion, eps_token, total, None, [CLUSANT_INF_CAVEAT])
    if not several:
        return Guarantee(
            f"eps-metric-LDP per token ({space}; CluSanT, one cluster)",
            eps_token,
            total,
            2 * eps_token if unit_norm else None,
            [],
        )
    worst = None
    if unit_norm and not planned:
        worst = max(
            epsilon / 2 * (k * (s.max_centroid_distance or 0.0) + 2 / (s.delta_u or 1.0))
            for s in stats.values()
        )
    notion = f"eps-metric-LDP per token w.r.t. d' (CluSanT pushed distance, k={k:g}; {space})"
    return Guarantee(notion, eps_token, total, worst, [CLUSANT_METRIC_CAVEAT])


def _several_clusters(
    variant: str, settings: Settings, stats: dict[str, CategoryStats], planned: bool
) -> bool:
    if variant == "santext":
        return False
    if planned:
        count = planned_cluster_count(
            settings.candidates_per_category, settings.n_clusters, settings.cluster_size
        )
        return count >= 2
    return any((s.n_clusters or 1) >= 2 for s in stats.values())


def _clusant_token_epsilon(
    settings: Settings, stats: CategoryStats, planned: bool, several: bool
) -> float:
    """ε′ of one category; before the candidates are embedded Δu is unknown, and Δu = 1 (its
    smallest value) gives the largest ε′, so the preview never claims more than the rewrite."""
    if stats.epsilon_per_token is not None and not planned:
        return stats.epsilon_per_token
    k = float(settings.cluster_push)
    if several and math.isinf(k):
        return float(settings.epsilon) / 2
    return clusant_epsilon(float(settings.epsilon), k, 1.0, 2 if several else 1)


def _statement(
    variant: str,
    settings: Settings,
    n: int,
    guarantee: Guarantee,
    planned: bool,
    embedder_name: str,
) -> str:
    title = TITLES[variant]
    eps = settings.epsilon
    if guarantee.epsilon_per_token is None and n == 0:
        return (
            f"{title}: no sensitive string with a candidate set was found, so nothing was "
            "sanitized and the text was released unchanged (apart from any placeholders). "
            "This release carries no formal privacy guarantee."
        )
    formula = {
        "santext": "Pr[y|x] ∝ exp(−ε·d(x,y)/2) over its category's public candidate set",
        "custext": "Pr[y|x] ∝ exp(ε·u(x,y)/2) over the public candidates of x's cluster, with "
        "u = −(d − d_min)/(d_max − d_min) ∈ [−1, 0] computed for x",
        "clusant": f"CluSanT: a cluster with ε/2 (Pr[C|x] ∝ exp(−ε·k·‖C_x − C‖/4), "
        f"k={settings.cluster_push:g}), then a public member with ε/2 "
        "(Pr[y|x,C] ∝ exp(−ε·d(x,y)/(4Δu)), Δu = max(1, public candidate-set diameter))",
    }[variant]
    when = "will be" if planned else "was"
    parts = [
        f"Each of the n = {n} distinct sensitive strings {when} replaced by a draw of {formula}, "
        f"ε = {eps:g}, d the Euclidean distance between {embedder_name} embeddings. Outputs "
        f"come from the public candidates only. Guarantee: {guarantee.notion}.",
    ]
    eps_token = guarantee.epsilon_per_token
    if eps_token is None:
        parts.append("With ε = inf the mechanism gives no privacy.")
    elif variant == "santext":
        parts.append(
            f"For any two inputs x, x' (in the candidate set or not) and any output, the "
            f"probabilities differ by at most a factor exp(ε·d(x, x')). By basic composition "
            f"two documents whose sanitized strings differ (x_i vs x'_i) are within a factor "
            f"exp(ε·Σ_i d(x_i, x'_i)); epsilon_total = n·ε = {n * eps_token:.4g} is that "
            "coefficient, not an (ε, δ)-DP figure."
        )
    elif variant == "custext":
        parts.append(
            f"Between any two inputs mapped to the same cluster the probabilities differ by at "
            f"most a factor exp(ε). By basic composition the document is ε-LDP with "
            f"ε = {n * eps_token:.4g} only against changes that keep every string inside its "
            "cluster; across clusters there is no guarantee."
        )
    elif "within cluster" in guarantee.notion:
        parts.append(
            f"The cluster is kept; between inputs of the same cluster the probabilities differ "
            f"by at most exp(ε'·d(x, x')) with ε' = ε/(2Δu) ≤ {eps_token:.4g}; across clusters "
            "there is no guarantee."
        )
    else:
        bound = "at most " if planned else ""
        parts.append(
            f"For any two inputs x, x' of the embedding space the probabilities differ by at most "
            f"exp(ε'·d'(x, x')), d' the distance between pushed embeddings f'(x) = x + "
            f"(k − 1)·C(x), with ε' = (ε/2)·√((k/(k−1))² + 1/Δu²) = {bound}{eps_token:.4g} per "
            f"token (largest over the categories). By basic composition the document-level "
            f"coefficient is epsilon_total = Σ ε'_i = {bound}{guarantee.epsilon_total:.4g}, not an "
            "(ε, δ)-DP figure."
        )
    worst = guarantee.worst_case_per_token
    if worst is not None and math.isfinite(worst):
        parts.append(
            f"The embeddings are unit-norm, so against an arbitrary change of the strings the "
            f"bound is pure ε-LDP with ε = {worst:.4g} per token, {n * worst:.4g} for the "
            "document."
        )
    if planned:
        parts.append(
            "Candidate sets and clusters are built at rewrite time; the rewrite's receipt "
            "reports their sizes and the realised constants."
        )
    parts.append("Text outside the sanitized spans carries no guarantee.")
    return " ".join(parts)
