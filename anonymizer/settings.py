"""Rewrite settings: the seed's parameter names and defaults, validated once at the boundary.

Every entry point (Python API, CLI, web form, worker) builds a `Settings`, so a bad value
is rejected with the same one-line message everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from anonymizer.detection.categories import normalise_category
from anonymizer.errors import InvalidSettings
from anonymizer.operators import OperatorConfig

COMPOSITIONS = ("basic", "zcdp", "gdp")
DETECTORS = (
    "regex", "presidio", "spacy", "ner", "combined", "transformers", "gliner", "gold", "none"
)  # fmt: skip


@dataclass(frozen=True)
class Settings:
    mechanism: str = "dp-embed-invert"
    epsilon: float = 16.0
    delta: float = 1e-3
    clip_radius: float = 1.5
    num_steps: int = 5
    composition: str = "basic"
    metric_unit: float | None = None
    redact_pii: bool = True
    whitelist_categories: tuple[str, ...] = ()
    max_len: int = 32
    device: str | None = None
    seed: int | None = None
    detector: str = "combined"
    allow_list: tuple[str, ...] = ()
    deny_list: tuple[str, ...] = ()
    batch_size: int = 32
    sequence_beam_width: int = 0
    # token-level metric-LDP mechanisms (SanText, CusText, CluSanT)
    n_clusters: int = 20
    cluster_size: int | None = None
    cluster_push: float = 16.0
    candidates_per_category: int = 2000
    sensitive_words: tuple[str, ...] = ()
    sanitize_general_words: bool = False
    bayes_remap: bool = False  # token mechanisms: Bayesian remapping (post-processing)
    # replacement operator for placeholder spans (anonymizer.operators)
    operator: str = "placeholder"
    mask_keep_length: bool = True
    fake_locale: str = "en_US"

    def __post_init__(self) -> None:
        _validate(self)

    def with_changes(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _jsonable(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Settings:
        """Build from loosely typed input (JSON, form data); unknown keys are an error."""
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise InvalidSettings(key, "unknown setting")
            kwargs[key] = _coerce(key, value)
        return cls(**kwargs)


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return value


_FLOATS = {"epsilon", "delta", "clip_radius", "metric_unit", "cluster_push"}
_INTS = {
    "num_steps",
    "max_len",
    "seed",
    "batch_size",
    "sequence_beam_width",
    "n_clusters",
    "cluster_size",
    "candidates_per_category",
}
_TUPLES = {"whitelist_categories", "allow_list", "deny_list", "sensitive_words"}
_BOOLS = {"redact_pii", "sanitize_general_words", "mask_keep_length", "bayes_remap"}
_OPTIONAL = {"metric_unit", "seed", "device", "cluster_size"}


def _coerce(key: str, value: Any) -> Any:
    if value is None or (isinstance(value, str) and value.strip() == "" and key in _OPTIONAL):
        if key in _OPTIONAL:
            return None
        raise InvalidSettings(key, "a value is required")
    try:
        if key in _FLOATS:
            return parse_float(value)
        if key in _INTS:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError
            return int(value)
        if key in _BOOLS:
            if isinstance(value, str):
                if value.lower() in ("1", "true", "yes", "on"):
                    return True
                if value.lower() in ("0", "false", "no", "off"):
                    return False
                raise ValueError
            return bool(value)
        if key in _TUPLES:
            if isinstance(value, str):
                value = [line for line in value.replace(",", "\n").splitlines()]
            return tuple(str(v).strip() for v in value if str(v).strip())
    except (TypeError, ValueError):
        raise InvalidSettings(key, f"not a valid value: {value!r}") from None
    return value


def parse_float(value: Any) -> float:
    """Parse a float that may be written 'inf' or '∞'."""
    if isinstance(value, str) and value.strip().lower() in ("inf", "infinity", "∞", "+inf"):
        return math.inf
    return float(value)


def _validate(s: Settings) -> None:
    if not isinstance(s.epsilon, (int, float)) or math.isnan(s.epsilon) or s.epsilon <= 0:
        raise InvalidSettings("epsilon", f"must be a number > 0 (or inf), got {s.epsilon!r}")
    if not isinstance(s.delta, (int, float)) or math.isnan(s.delta) or not 0 < s.delta < 1:
        raise InvalidSettings("delta", f"must lie strictly between 0 and 1, got {s.delta!r}")
    if not _finite_positive(s.clip_radius):
        raise InvalidSettings("clip_radius", f"must be a finite number > 0, got {s.clip_radius!r}")
    if s.metric_unit is not None and not _finite_positive(s.metric_unit):
        raise InvalidSettings("metric_unit", f"must be a finite number > 0, got {s.metric_unit!r}")
    if s.composition not in COMPOSITIONS:
        raise InvalidSettings(
            "composition", f"unknown composition {s.composition!r}; use {', '.join(COMPOSITIONS)}"
        )
    if s.detector not in DETECTORS:
        raise InvalidSettings(
            "detector", f"unknown detector {s.detector!r}; use {', '.join(DETECTORS)}"
        )
    for name, low in (
        ("num_steps", 0),
        ("max_len", 4),
        ("batch_size", 1),
        ("sequence_beam_width", 0),
        ("n_clusters", 1),
        ("candidates_per_category", 2),
    ):
        value = getattr(s, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise InvalidSettings(name, f"must be an integer >= {low}, got {value!r}")
    if s.cluster_size is not None and (not isinstance(s.cluster_size, int) or s.cluster_size < 1):
        raise InvalidSettings("cluster_size", f"must be an integer >= 1, got {s.cluster_size!r}")
    if (
        not isinstance(s.cluster_push, (int, float))
        or math.isnan(s.cluster_push)
        or (s.cluster_push < 1)
    ):
        raise InvalidSettings("cluster_push", f"must be >= 1 (inf allowed), got {s.cluster_push!r}")
    _check_clusant_push(s)
    if s.seed is not None and (not isinstance(s.seed, int) or s.seed < 0):
        raise InvalidSettings("seed", f"must be a non-negative integer, got {s.seed!r}")
    if s.device not in (None, "cpu", "cuda", "auto") and not str(s.device).startswith("cuda:"):
        raise InvalidSettings("device", f"use cpu, cuda, cuda:N or auto, got {s.device!r}")
    _check_categories(s.whitelist_categories)
    OperatorConfig(s.operator, s.mask_keep_length, s.fake_locale)  # raises InvalidSettings
    for name in ("whitelist_categories", "allow_list", "deny_list", "sensitive_words"):
        if not isinstance(getattr(s, name), tuple):
            raise InvalidSettings(name, "must be a tuple of strings")


def _check_clusant_push(s: Settings) -> None:
    """CluSanT with k = 1 and two or more clusters has no finite metric-LDP bound."""
    if s.mechanism != "clusant" or s.cluster_push != 1:
        return
    size = s.cluster_size or math.ceil(s.candidates_per_category / s.n_clusters)
    if math.ceil(s.candidates_per_category / max(1, size)) >= 2:
        raise InvalidSettings(
            "cluster_push",
            "CluSanT with k = 1 and two or more clusters has no finite privacy bound (inputs "
            "on either side of a cluster boundary can be arbitrarily close); use k > 1, or "
            "n_clusters = 1",
        )


def _check_categories(categories: Iterable[str]) -> None:
    for category in categories:
        try:
            normalise_category(category)
        except KeyError:
            raise InvalidSettings(
                "whitelist_categories",
                f"unknown category {category!r}; run `python -m anonymizer --list-rules`",
            ) from None


def _finite_positive(value: Any) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value) and value > 0
