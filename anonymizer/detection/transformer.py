"""Pluggable transformer detectors: any Hugging Face token-classification model, or GLiNER.

For users who can reach a model hub (or copy weights over): a model is named by hub id or
local directory, found on this machine without downloading (a directory, else the local
Hugging Face cache), and its labels are mapped onto our categories (a configurable mapping;
by default the dataset label names `gold.category_for_label` knows, plus the usual PII model
labels). When the weights are not here the detector says so, with the command that fetches
them, the way DP-Embed-Invert does; it never falls back to another detector.

Configured from the environment (`from_environment`, used by the detector registry):
- `ANONYMIZER_TRANSFORMERS_MODEL` (hub id or directory; default `DEFAULT_TOKEN_MODEL`),
  `ANONYMIZER_TRANSFORMERS_LABELS` (JSON object label -> category),
  `ANONYMIZER_TRANSFORMERS_THRESHOLD` (minimum entity score, default 0.5);
- `ANONYMIZER_GLINER_MODEL` (default `DEFAULT_GLINER_MODEL`), `ANONYMIZER_GLINER_LABELS`
  (JSON object prompt label -> category), `ANONYMIZER_GLINER_THRESHOLD`.

GLiNER is an optional extra (`pip install -e '.[gliner]'`): gliner 0.2.22 is the newest
release that resolves with the transformers 4.49 that vec2text needs.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from anonymizer.detection.categories import PLACEHOLDERS, placeholder_for
from anonymizer.detection.chunking import detect_in_chunks
from anonymizer.detection.gold import category_for_label
from anonymizer.errors import MechanismUnavailable
from anonymizer.types import Detection

DEFAULT_TOKEN_MODEL = "iiiorg/piiranha-v1-detect-personal-information"
DEFAULT_GLINER_MODEL = "urchade/gliner_multi_pii-v1"
CHUNK_CHARS = 1_500  # well inside a 512-token window
CHUNK_OVERLAP = 200

# Labels of common PII token-classification models that dataset label names do not cover.
MODEL_LABELS: dict[str, str] = {
    "per": "full person name",
    "givenname": "full person name",
    "surname": "full person name",
    "name": "full person name",
    "loc": "location",
    "city": "location",
    "state": "location",
    "country": "location",
    "misc": "custom",
    "street": "street address",
    "buildingnum": "street address",
    "zipcode": "postal code",
    "telephonenum": "phone number",
    "dateofbirth": "date of birth",
    "taxnum": "national id",
    "accountnum": "bank account number",
    "creditcardnumber": "card number",
}
GLINER_LABELS: dict[str, str] = {
    "person": "full person name",
    "organization": "organization",
    "location": "location",
    "address": "street address",
    "phone number": "phone number",
    "email": "email address",
    "credit card number": "card number",
    "iban": "iban",
    "passport number": "passport number",
    "social security number": "ssn",
    "date of birth": "date of birth",
    "username": "handle",
    "nationality": "nationality or group",
}


def map_model_label(label: str, overrides: Mapping[str, str] | None = None) -> str:
    """Our category for a model's entity label (B-/I- prefixes and case ignored)."""
    key = label.strip()
    for candidate in (key, key.split("-", 1)[-1] if key[:2] in ("B-", "I-") else key):
        if overrides and candidate in overrides:
            return overrides[candidate]
        if overrides and candidate.lower() in overrides:
            return overrides[candidate.lower()]
    bare = key.split("-", 1)[-1] if key[:2] in ("B-", "I-", "E-", "S-", "L-", "U-") else key
    category = category_for_label(bare)
    if category == "custom":
        category = MODEL_LABELS.get(bare.lower().replace("_", ""), "custom")
    return category


def resolve_model(reference: str) -> Path:
    """A local directory for a hub id or path, without downloading; else MechanismUnavailable
    with the reason and the command that fetches the weights."""
    path = Path(reference).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise MechanismUnavailable(f"{path} has no config.json: not a saved model directory")
        return path
    fetch = (
        f'`huggingface-cli download {reference}` (or python -c "from huggingface_hub import '
        f"snapshot_download; snapshot_download('{reference}')\") on a machine with internet "
        "access, or point the setting at a local directory"
    )
    try:
        from huggingface_hub import snapshot_download
        from huggingface_hub.errors import LocalEntryNotFoundError
    except ImportError as exc:
        raise MechanismUnavailable(
            f"transformer detectors need huggingface_hub: pip install -e '.[ml]' ({exc})"
        ) from exc
    try:
        return Path(snapshot_download(reference, local_files_only=True))
    except (LocalEntryNotFoundError, OSError, ValueError) as exc:
        raise MechanismUnavailable(
            f"model weights for {reference!r} are not installed: not a directory and not in "
            f"the local Hugging Face cache. Fetch them with {fetch}."
        ) from exc


def _env_json(name: str) -> dict[str, str] | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    mapping = json.loads(raw)
    unknown = [c for c in mapping.values() if c not in PLACEHOLDERS]
    if unknown:
        raise MechanismUnavailable(f"{name} maps onto unknown categories: {unknown}")
    return mapping


class _ChunkedModelDetector:
    """Shared chunking, loading-once and Detection building of the two transformer detectors."""

    name = "transformer"
    source = "transformer"

    def __init__(self, model: str, threshold: float) -> None:
        self.model_ref = model
        self.threshold = threshold
        self._lock = threading.Lock()
        self._loaded: Any = None

    def loaded(self) -> Any:
        with self._lock:
            if self._loaded is None:
                self._loaded = self._load(resolve_model(self.model_ref))
            return self._loaded

    def _load(self, path: Path) -> Any:
        raise NotImplementedError

    def _entities(self, texts: list[str]) -> list[list[tuple[int, int, str, float]]]:
        raise NotImplementedError

    def _category(self, label: str) -> str:
        raise NotImplementedError

    def detect(self, text: str) -> list[Detection]:
        return detect_in_chunks(text, self._batch, CHUNK_CHARS, CHUNK_OVERLAP)

    def _batch(self, texts: list[str]) -> list[list[Detection]]:
        out = []
        for text, entities in zip(texts, self._entities(texts), strict=True):
            found = []
            for start, end, label, score in entities:
                while start < end and text[start].isspace():
                    start += 1
                if score < self.threshold or end <= start:
                    continue
                category = self._category(label)
                found.append(
                    Detection(
                        start,
                        end,
                        category,
                        placeholder_for(category),
                        self.source,
                        round(float(score), 3),
                        f"{self.source}:{label}",
                    )
                )
            out.append(found)
        return out


class TokenClassificationDetector(_ChunkedModelDetector):
    """A Hugging Face token-classification model through transformers' pipeline."""

    name = "transformers"
    source = "transformers"

    def __init__(
        self,
        model: str = DEFAULT_TOKEN_MODEL,
        label_map: Mapping[str, str] | None = None,
        threshold: float = 0.5,
    ) -> None:
        super().__init__(model, threshold)
        self.label_map = dict(label_map or {})

    @classmethod
    def from_environment(cls) -> TokenClassificationDetector:
        return cls(
            os.environ.get("ANONYMIZER_TRANSFORMERS_MODEL", DEFAULT_TOKEN_MODEL),
            _env_json("ANONYMIZER_TRANSFORMERS_LABELS"),
            float(os.environ.get("ANONYMIZER_TRANSFORMERS_THRESHOLD", "0.5")),
        )

    def _load(self, path: Path) -> Any:
        try:
            from transformers import pipeline
        except ImportError as exc:
            raise MechanismUnavailable(
                f"the transformers detector needs transformers: pip install -e '.[ml]' ({exc})"
            ) from exc
        return pipeline(
            "token-classification", model=str(path), aggregation_strategy="simple", device=-1
        )

    def _entities(self, texts: list[str]) -> list[list[tuple[int, int, str, float]]]:
        results = self.loaded()(texts)
        if texts and results and isinstance(results[0], dict):
            results = [results]
        return [
            [(int(e["start"]), int(e["end"]), str(e["entity_group"]), e["score"]) for e in found]
            for found in results
        ]

    def _category(self, label: str) -> str:
        return map_model_label(label, self.label_map)


class GlinerDetector(_ChunkedModelDetector):
    """A GLiNER model prompted with our category descriptions (optional `gliner` package)."""

    name = "gliner"
    source = "gliner"

    def __init__(
        self,
        model: str = DEFAULT_GLINER_MODEL,
        labels: Mapping[str, str] | None = None,
        threshold: float = 0.5,
        loader: Callable[[Path], Any] | None = None,
    ) -> None:
        super().__init__(model, threshold)
        self.labels = dict(labels or GLINER_LABELS)
        self._loader = loader

    @classmethod
    def from_environment(cls) -> GlinerDetector:
        return cls(
            os.environ.get("ANONYMIZER_GLINER_MODEL", DEFAULT_GLINER_MODEL),
            _env_json("ANONYMIZER_GLINER_LABELS"),
            float(os.environ.get("ANONYMIZER_GLINER_THRESHOLD", "0.5")),
        )

    def _load(self, path: Path) -> Any:
        if self._loader is not None:
            return self._loader(path)
        try:
            from gliner import GLiNER
        except ImportError as exc:
            raise MechanismUnavailable(
                "the gliner detector needs the optional gliner package: "
                f"pip install -e '.[gliner]' ({exc})"
            ) from exc
        return GLiNER.from_pretrained(str(path), local_files_only=True)

    def _entities(self, texts: Sequence[str]) -> list[list[tuple[int, int, str, float]]]:
        model = self.loaded()
        prompts = list(self.labels)
        return [
            [
                (int(e["start"]), int(e["end"]), str(e["label"]), float(e["score"]))
                for e in model.predict_entities(text, prompts, threshold=self.threshold)
            ]
            for text in texts
        ]

    def _category(self, label: str) -> str:
        return self.labels.get(label, map_model_label(label))
