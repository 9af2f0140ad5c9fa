"""Token-level metric-LDP sanitizers: SanText, CusText and CluSanT (issue 5).

Detected PII spans (and the user's sensitive words) are replaced by same-category surrogates
drawn with an exponential mechanism over all-MiniLM-L6-v2 embeddings; see
`anonymizer.token_dp` for the mechanisms, candidate sets and receipts. `rewrite`, `plan` and
`rewrite_many` also accept gold detections (`gold` / `golds`) for `detector="gold"`.
"""

from __future__ import annotations

from anonymizer.mechanisms.base import Plan
from anonymizer.registry import MechanismInfo, register
from anonymizer.settings import Settings
from anonymizer.token_dp.audit import default_epsilon, default_epsilon_reason
from anonymizer.token_dp.embedding import MODEL_ID, Embedder, missing_packages
from anonymizer.token_dp.sanitizer import TokenSanitizer
from anonymizer.types import Detection, ProgressCallback, RewriteResult

COMMON_PARAMETERS = (
    "epsilon",
    "candidates_per_category",
    "sensitive_words",
    "sanitize_general_words",
    "detector",
    "whitelist_categories",
    "allow_list",
    "deny_list",
    "bayes_remap",
    "seed",
)


class TokenSanitizerMechanism:
    """A registered token sanitizer; subclasses name the variant."""

    name = ""

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.sanitizer = TokenSanitizer(self.name, embedder)

    def rewrite(
        self,
        text: str,
        settings: Settings,
        progress: ProgressCallback | None = None,
        *,
        gold: list[Detection] | None = None,
    ) -> RewriteResult:
        return self.sanitizer.rewrite_many([text], settings, progress, [gold])[0]

    def rewrite_many(
        self,
        texts: list[str],
        settings: Settings,
        progress: ProgressCallback | None = None,
        *,
        golds: list[list[Detection] | None] | None = None,
    ) -> list[RewriteResult]:
        return self.sanitizer.rewrite_many(texts, settings, progress, golds)

    def plan(self, text: str, settings: Settings, *, gold: list[Detection] | None = None) -> Plan:
        return self.sanitizer.plan(text, settings, gold)


class SanTextMechanism(TokenSanitizerMechanism):
    name = "santext"


class CusTextMechanism(TokenSanitizerMechanism):
    name = "custext"


class CluSanTMechanism(TokenSanitizerMechanism):
    name = "clusant"


def unavailable_reason() -> str | None:
    """None when the packages are importable; otherwise what is missing and how to add it."""
    missing = missing_packages()
    if not missing:
        return None
    return (
        f"missing Python packages: {', '.join(missing)}; install them with "
        "`pip install -c constraints.txt -e '.[ml]'`"
    )


register(
    MechanismInfo(
        name="santext",
        default_epsilon=default_epsilon("santext"),
        default_epsilon_reason=default_epsilon_reason("santext"),
        title="SanText (token-level metric LDP)",
        guarantee="ε·d metric LDP per sensitive token (Euclidean, all-MiniLM-L6-v2 space)",
        description="Replaces each detected PII span by a same-category public surrogate drawn "
        "with Pr[y|x] ∝ exp(−ε·d(x,y)/2) over a few thousand candidates (Yue et al. 2021). "
        "Text outside the spans is unchanged.",
        parameters=COMMON_PARAMETERS,
        factory=SanTextMechanism,
        uses_epsilon=True,
        models=(MODEL_ID,),
        check_available=unavailable_reason,
    )
)

register(
    MechanismInfo(
        name="custext",
        default_epsilon=default_epsilon("custext"),
        default_epsilon_reason=default_epsilon_reason("custext"),
        title="CusText (token-level, clustered)",
        guarantee="ε-LDP within a cluster only; no metric-LDP guarantee with two or more clusters",
        description="Clusters the candidates (h per cluster) and draws a surrogate from the "
        "input's own cluster with a normalised exponential mechanism (Chen et al. 2023). Best "
        "utility of the three, weakest guarantee.",
        parameters=(*COMMON_PARAMETERS, "n_clusters", "cluster_size"),
        factory=CusTextMechanism,
        uses_epsilon=True,
        models=(MODEL_ID,),
        check_available=unavailable_reason,
    )
)

register(
    MechanismInfo(
        name="clusant",
        default_epsilon=default_epsilon("clusant"),
        default_epsilon_reason=default_epsilon_reason("clusant"),
        title="CluSanT (token-level, clustered metric LDP)",
        guarantee="ε′-metric LDP per sensitive token w.r.t. the cluster-pushed distance d′ "
        "(whole embedding space)",
        description="Picks a cluster with ε/2 on centroids pushed apart by k, then a member with "
        "ε/2 (Awon et al. 2025): between SanText (k = 1, singletons) and CusText (k = inf).",
        parameters=(*COMMON_PARAMETERS, "n_clusters", "cluster_size", "cluster_push"),
        factory=CluSanTMechanism,
        uses_epsilon=True,
        models=(MODEL_ID,),
        check_available=unavailable_reason,
    )
)
