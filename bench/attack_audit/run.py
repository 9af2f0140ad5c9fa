"""The audit loop: sanitize every split with each mechanism and ε, attack, measure.

For each mechanism and ε the real `rewrite_many` sanitizes the training split and every
evaluation set (gold spans as detections, the product's default candidate sets and
clusters); receipts give the claims; the exact attacker uses the sanitizer under audit's own
`log_probs`, the learned attackers are trained on the training split and scored on the
evaluation sets. Utility is measured on the evaluation sets with and without the product's
Bayesian remapping.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from anonymizer.settings import Settings
from anonymizer.token_dp.embedding import MiniLMEmbedder
from anonymizer.token_dp.sampling import sample_rows
from anonymizer.token_dp.sanitizer import PublicDomain, TokenSanitizer
from anonymizer.types import Detection
from bench.attack_audit import attackers as atk
from bench.attack_audit.data import Record, Scale, Split, load_splits
from bench.attack_audit.features import (
    ContextEncoder,
    Inputs,
    Observation,
    StringSpace,
    candidate_strings,
    category_inputs,
    likelihood_tables,
    observe,
)
from bench.attack_audit.leakage import pair_indices
from bench.attack_audit.metrics import Geometry, evaluate

EPSILONS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
VARIANTS = ("santext", "custext", "clusant")
EXACT = "exact-bayes"
SanitizerFactory = Callable[[str, Any], TokenSanitizer]


class WeakenedSanitizer(TokenSanitizer):
    """A deliberately broken sanitizer for the audit's self-test: it samples at factor·ε
    while its receipts still state ε (what the audit must catch)."""

    def __init__(self, variant: str, embedder=None, factor: float = 2.0) -> None:  # type: ignore[no-untyped-def]
        super().__init__(variant, embedder)
        self.factor = factor

    def log_probs(self, public: PublicDomain, inputs: np.ndarray, settings: Settings) -> np.ndarray:
        stronger = settings.with_changes(epsilon=float(settings.epsilon) * self.factor)
        return super().log_probs(public, inputs, stronger)


@dataclass
class AuditConfig:
    scale: Scale
    epsilons: tuple[float, ...] = EPSILONS
    variants: tuple[str, ...] = VARIANTS
    architectures: tuple[str, ...] = atk.ARCHITECTURES
    train: atk.TrainConfig = field(default_factory=atk.TrainConfig)
    seed: int = 0


@dataclass
class World:
    """Everything that does not depend on the mechanism's ε: data, strings, contexts."""

    splits: dict[str, Split]
    space: StringSpace
    contexts: dict[str, np.ndarray]
    categories: dict[str, int]
    candidates: dict[str, list[str]]


def build_world(scale: Scale, embedder: MiniLMEmbedder, log: Callable[[str], None]) -> World:
    started = time.perf_counter()
    splits = load_splits(scale)
    log(
        "documents: "
        + ", ".join(
            f"{n} {len(s.texts)} docs / {len(s.records)} records" for n, s in splits.items()
        )
        + f" ({time.perf_counter() - started:.0f}s)"
    )
    candidates = candidate_strings(splits)
    space = StringSpace(embedder)
    started = time.perf_counter()
    space.add([s for strings in candidates.values() for s in strings])
    log(f"embedded {len(space.rows)} candidate strings ({time.perf_counter() - started:.0f}s)")
    encoder = ContextEncoder()
    contexts = {n: encoder.encode([r.context for r in s.records]) for n, s in splits.items()}
    return World(splits, space, contexts, {c: i for i, c in enumerate(candidates)}, candidates)


def settings_for(variant: str, epsilon: float, scale: Scale, seed: int) -> Settings:
    return Settings(
        mechanism=variant,
        detector="gold",
        epsilon=epsilon,
        candidates_per_category=scale.candidates_per_category,
        seed=seed,
    )


def publics_for(
    sanitizer: TokenSanitizer, world: World, settings: Settings
) -> dict[str, PublicDomain]:
    publics = {c: sanitizer.public_domain(c, settings) for c in world.candidates}
    for public in publics.values():
        world.space.add(list(public.strings), public.embeddings)
    return publics


def draw_surrogates(
    split: Split,
    tables: dict[str, np.ndarray],
    publics: dict[str, PublicDomain],
    inputs: dict[str, Inputs],
    rng: np.random.Generator,
) -> list[str]:
    """One draw per record from the sanitizer's own `log_probs` rows with the product's
    sampler, as `_rewrite_one` draws them (tests/privacy item 10 checks that the rewrite
    samples exactly these rows); one array operation per category instead of per document."""
    surrogates = [""] * len(split.records)
    by_category: dict[str, list[int]] = {}
    for i, record in enumerate(split.records):
        by_category.setdefault(record.category, []).append(i)
    for category, rows in by_category.items():
        table = inputs[category]
        index = np.array([table.row[split.records[i].secret] for i in rows])
        picks = sample_rows(tables[category][index].astype(np.float64), rng)
        strings = publics[category].strings
        for i, pick in zip(rows, picks, strict=True):
            surrogates[i] = strings[int(pick)]
    return surrogates


def claims_of(
    sanitizer: TokenSanitizer, world: World, settings: Settings, variant: str
) -> dict[str, float]:
    """The per-token ε the receipt claims for each category (CluSanT: ε′ w.r.t. d′, which
    depends on the category's Δu), read from a real rewrite of one document that holds one
    string of every audited category, unseeded so the receipt carries its guarantee."""
    samples: dict[str, str] = {}
    for split in world.splits.values():
        for record in split.records:
            samples.setdefault(record.category, record.secret)
    text, golds = "", []
    for category, secret in sorted(samples.items()):
        golds.append(Detection(len(text), len(text) + len(secret), category, "", "audit"))
        text += secret + " ; "
    receipt = sanitizer.rewrite_many([text], settings.with_changes(seed=None), golds=[golds])[0]
    details = receipt.receipt.details
    claims = {}
    for category in samples:
        stats = details["categories"][category]
        claims[category] = float(
            stats["epsilon_per_token"] if variant == "clusant" else details["epsilon_per_token"]
        )
    return claims


def geometry_for(
    variant: str,
    split: Split,
    inputs: dict[str, Inputs],
    publics: dict[str, PublicDomain],
    claims: dict[str, float],
    epsilon: float,
    cluster_push: float,
) -> Geometry:
    """The receipt's metric between every pair of every record's candidates: Euclidean
    (SanText), the pushed d′ = ‖f′(x) − f′(x′)‖ with f′(x) = x + (k − 1)·C(x) (CluSanT, as
    `clustering.pushed_distance`), or d = 1 claimed only inside a cell (CusText)."""
    records = split.records
    size = len(records[0].candidates)
    first, second = pair_indices(size)
    points: dict[str, np.ndarray] = {}
    cells: dict[str, np.ndarray] = {}
    for category, table in inputs.items():
        public = publics[category]
        points[category] = table.embeddings
        if public.centroids is not None:
            cells[category] = public.cluster_of(table.embeddings)
            if variant == "clusant":
                points[category] = (
                    table.embeddings + (cluster_push - 1.0) * public.centroids[cells[category]]
                )
    rows = np.array([[inputs[r.category].row[c] for c in r.candidates] for r in records])
    distances = np.ones((len(records), len(first)))
    claimed = np.ones((len(records), len(first)), dtype=bool)
    for category in {r.category for r in records}:
        mine = np.array([i for i, r in enumerate(records) if r.category == category])
        vectors = points[category][rows[mine]]  # [r, K, dim]
        if variant == "custext":
            cell = cells[category][rows[mine]]
            claimed[mine] = cell[:, first] == cell[:, second]
        else:  # direct differences (no Gram trick: tiny distances must stay exact)
            for start in range(0, len(mine), 128):
                chunk = vectors[start : start + 128]
                distances[mine[start : start + 128]] = np.linalg.norm(
                    chunk[:, first] - chunk[:, second], axis=2
                )
    per_epsilon = np.array([claims[r.category] / epsilon for r in records])
    return Geometry(distances, per_epsilon, claimed)


def utility(
    sanitizer: TokenSanitizer,
    split: Split,
    observation: Observation,
    inputs: dict[str, Inputs],
    publics: dict[str, PublicDomain],
    settings: Settings,
) -> dict[str, float]:
    """Span-level semantic similarity: cos(x, y) of each secret and its surrogate, with and
    without Bayesian remapping; collisions (two strings of a document, one surrogate)."""
    plain, remapped = [], []
    out_plain: list[tuple[int, str, str]] = []
    out_remap: list[tuple[int, str, str]] = []
    tables = {c: sanitizer.remap_table(publics[c], settings) for c in inputs}
    for record, y in zip(split.records, observation.surrogate_index, strict=True):
        public = publics[record.category]
        x = _secret_vector(record, inputs)
        remap = int(tables[record.category][y])
        plain.append(float(x @ public.embeddings[y]))
        remapped.append(float(x @ public.embeddings[remap]))
        out_plain.append((record.doc, record.category, public.strings[y]))
        out_remap.append((record.doc, record.category, public.strings[remap]))
    return {
        "similarity": float(np.mean(plain)),
        "similarity_remapped": float(np.mean(remapped)),
        "utility_loss": float(np.mean((1 - np.array(plain)) / 2)),
        "utility_loss_remapped": float(np.mean((1 - np.array(remapped)) / 2)),
        "collisions": _collision_rate(out_plain),
        "collisions_remapped": _collision_rate(out_remap),
    }


def _collision_rate(outputs: list[tuple[int, str, str]]) -> float:
    """Share of same-document, same-category record pairs that got the same surrogate."""
    groups: dict[tuple[int, str], list[str]] = {}
    for doc, category, surrogate in outputs:
        groups.setdefault((doc, category), []).append(surrogate)
    same = total = 0
    for values in groups.values():
        n = len(values)
        total += n * (n - 1) // 2
        same += sum(values.count(v) * (values.count(v) - 1) for v in set(values)) // 2
    return same / total if total else 0.0


def _secret_vector(record: Record, inputs: dict[str, Inputs]) -> np.ndarray:
    """The record's secret embedded as the rewrite embeds it."""
    table = inputs[record.category]
    return table.embeddings[table.row[record.secret]]


def reference_utility(
    split: Split, inputs: dict[str, Inputs], publics: dict[str, PublicDomain]
) -> dict[str, float]:
    """What ε = ∞ (nearest public candidate) and a uniform surrogate give, for scale."""
    nearest, uniform = [], []
    for record in split.records:
        x = _secret_vector(record, inputs)
        sims = publics[record.category].embeddings @ x
        nearest.append(float(sims.max()))
        uniform.append(float(sims.mean()))
    return {
        "similarity_no_noise": float(np.mean(nearest)),
        "similarity_uniform": float(np.mean(uniform)),
    }


def audit_configuration(
    variant: str,
    epsilon: float,
    world: World,
    config: AuditConfig,
    sanitizer: TokenSanitizer,
    reference: TokenSanitizer,
    log: Callable[[str], None],
) -> dict[str, Any]:
    """One (mechanism, ε): sanitize, attack with every attacker, measure every set."""
    started = time.perf_counter()
    settings = settings_for(variant, epsilon, config.scale, config.seed)
    publics = publics_for(sanitizer, world, settings)
    inputs = {c: category_inputs(publics[c], s, world.space) for c, s in world.candidates.items()}
    exact_tables = likelihood_tables(sanitizer, settings, publics, inputs)
    feature_tables = (
        exact_tables
        if reference is sanitizer
        else likelihood_tables(reference, settings, publics, inputs)
    )
    claims = claims_of(sanitizer, world, settings, variant)
    rng = np.random.default_rng([config.seed, VARIANTS.index(variant), int(epsilon * 1000)])
    observed: dict[str, tuple[Observation, Observation]] = {}
    for name, split in world.splits.items():
        surrogates = draw_surrogates(split, exact_tables, publics, inputs, rng)
        features = observe(split, surrogates, feature_tables, publics, inputs, world.space)
        exact = (
            features
            if feature_tables is exact_tables
            else observe(split, surrogates, exact_tables, publics, inputs, world.space)
        )
        observed[name] = (features, exact)
    sanitized = time.perf_counter() - started

    strings = world.space.reduced()
    data = {
        name: atk.tensors(
            split, observed[name][0], world.contexts[name], world.categories, world.space.ids
        )
        for name, split in world.splits.items()
    }
    evaluation = [n for n in world.splits if n != "train"]
    attackers: dict[str, dict[str, Any]] = {EXACT: {"sets": {}}}
    scores: dict[str, dict[str, atk.Scores]] = {EXACT: {}}
    for name in evaluation:
        scores[EXACT][name] = atk.exact_bayes(observed[name][1])
    for architecture in config.architectures:
        trained = atk.train(
            architecture, data["train"], strings, len(world.categories), config.train
        )
        attackers[architecture] = {
            "sets": {},
            "epochs": trained.epochs,
            "train_seconds": round(trained.seconds, 1),
            "validation_loss": round(trained.validation_loss, 4),
        }
        scores[architecture] = {n: atk.score(trained, data[n]) for n in evaluation}

    sets: dict[str, Any] = {}
    for name in evaluation:
        split = world.splits[name]
        geometry = geometry_for(
            variant, split, inputs, publics, claims, epsilon, float(settings.cluster_push)
        )
        documents = np.array([r.doc for r in split.records])
        categories = [r.category for r in split.records]
        truth = np.array([r.truth for r in split.records])
        for attacker, by_set in scores.items():
            attackers[attacker]["sets"][name] = evaluate(
                by_set[name], truth, documents, categories, geometry, epsilon, config.epsilons
            )
        sets[name] = utility(sanitizer, split, observed[name][0], inputs, publics, settings)
    log(
        f"{variant} ε={epsilon:g}: sanitized in {sanitized:.0f}s, total "
        f"{time.perf_counter() - started:.0f}s"
    )
    return {
        "mechanism": variant,
        "epsilon": epsilon,
        "claims": claims,
        "utility": sets,
        "attackers": attackers,
        "seconds": round(time.perf_counter() - started, 1),
    }


def run_audit(
    config: AuditConfig,
    *,
    sanitizer_factory: SanitizerFactory = TokenSanitizer,
    log: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Every configuration; `sanitizer_factory` builds the sanitizer under audit (tests pass a
    deliberately broken one), while the learned attackers' features use the honest one."""
    started = time.perf_counter()
    embedder = MiniLMEmbedder()
    world = build_world(config.scale, embedder, log)
    rows = []
    references: dict[str, Any] = {}
    for variant in config.variants:
        sanitizer = sanitizer_factory(variant, embedder)
        reference = (
            sanitizer if type(sanitizer) is TokenSanitizer else TokenSanitizer(variant, embedder)
        )
        for epsilon in config.epsilons:
            rows.append(
                audit_configuration(variant, epsilon, world, config, sanitizer, reference, log)
            )
        settings = settings_for(variant, config.epsilons[0], config.scale, config.seed)
        publics = publics_for(sanitizer, world, settings)
        inputs = {
            c: category_inputs(publics[c], s, world.space) for c, s in world.candidates.items()
        }
        references[variant] = {
            name: reference_utility(split, inputs, publics)
            for name, split in world.splits.items()
            if name != "train"
        }
    return {
        "rows": rows,
        "reference_utility": references,
        "world": {
            name: {"documents": len(s.texts), "records": len(s.records)}
            for name, s in world.splits.items()
        },
        "seconds": round(time.perf_counter() - started, 1),
    }
