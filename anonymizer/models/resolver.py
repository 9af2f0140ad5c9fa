"""Find each model role's files on this machine, without touching the network.

A role resolves, first match wins and no fallback after a match, to:
1. `ANONYMIZER_<ROLE>` (e.g. `ANONYMIZER_ENCODER`): a directory, or a hub id looked up in the
   local Hugging Face cache;
2. `$ANONYMIZER_MODEL_DIR/<role>/` when `ANONYMIZER_MODEL_DIR` is set (then it is
   authoritative: a role missing there is missing, not fetched from elsewhere);
3. the role's published hub id in the local Hugging Face cache (`HF_HUB_CACHE` / `HF_HOME`).

Nothing here downloads: a web form or a worker must not start a 2.7 GB download by
accident; `python -m anonymizer models fetch` does that on purpose.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

MODEL_DIR_ENV = "ANONYMIZER_MODEL_DIR"
FETCH_MANIFEST = ".anonymizer-fetch.json"
WEIGHT_FILES = (
    "model.safetensors",
    "model.safetensors.index.json",
    "pytorch_model.bin",
    "pytorch_model.bin.index.json",
)
TOKENIZER_FILES = ("tokenizer.json", "spiece.model")
TOKENIZER_EXTRAS = ("tokenizer_config.json", "special_tokens_map.json")
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*(/[\w.-]+)?$")


@dataclass(frozen=True)
class RoleSpec:
    """One model the mechanism needs: its published hub id and the files that must be there."""

    role: str
    hub_id: str
    description: str
    needs_weights: bool = True
    needs_tokenizer: bool = False
    extra_files: tuple[str, ...] = ()

    @property
    def env_var(self) -> str:
        return f"ANONYMIZER_{self.role.upper()}"


ROLES: tuple[RoleSpec, ...] = (
    RoleSpec(
        "encoder",
        "sentence-transformers/gtr-t5-base",
        "GTR-t5-base T5 encoder, mean-pooled (no Dense layer, no normalisation)",
        needs_tokenizer=True,
    ),
    RoleSpec("inverter", "jxm/gtr__nq__32", "vec2text hypothesiser (InversionModel)"),
    RoleSpec("corrector", "jxm/gtr__nq__32__correct", "vec2text corrector (CorrectorEncoderModel)"),
    RoleSpec(
        "backbone",
        "google-t5/t5-base",
        "T5-base config and tokenizer of the hypothesiser/corrector (their checkpoints carry "
        "all weights, so no weights are needed here)",
        needs_weights=False,
        needs_tokenizer=True,
        extra_files=("generation_config.json",),
    ),
)
ROLES_BY_NAME = {spec.role: spec for spec in ROLES}


@dataclass(frozen=True)
class ResolvedModel:
    """A role found on disk: where, how it was found, and which published snapshot if known."""

    role: str
    path: Path
    source: str  # "hub-cache" | "local"
    via: str  # the setting that chose it, for `models status`
    hub_id: str | None = None
    revision: str | None = None  # commit of the hub snapshot (cache, or a verified fetch)


@dataclass(frozen=True)
class MissingModel:
    role: str
    wanted: str
    looked_in: str
    problem: str


def hf_cache_dir() -> Path:
    """The Hugging Face hub cache, read from the environment at call time (tests change it)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]) / "hub"
    from huggingface_hub import constants

    return Path(constants.HF_HUB_CACHE)


def model_dir() -> Path | None:
    value = os.environ.get(MODEL_DIR_ENV, "").strip()
    return Path(value).expanduser() if value else None


def missing_files(path: Path, spec: RoleSpec) -> list[str]:
    """The files a role needs that `path` lacks (empty list: complete)."""
    missing = [] if (path / "config.json").is_file() else ["config.json"]
    if spec.needs_weights and not any((path / f).is_file() for f in WEIGHT_FILES):
        missing.append("model.safetensors or pytorch_model.bin")
    if spec.needs_tokenizer and not any((path / f).is_file() for f in TOKENIZER_FILES):
        missing.append("tokenizer.json")
    return missing


def resolve_role(spec: RoleSpec) -> ResolvedModel | MissingModel:
    """Where this role's files are on this machine, or what is missing and where we looked."""
    override = os.environ.get(spec.env_var, "").strip()
    if override:
        path = Path(override).expanduser()
        if path.is_dir():
            return _local(spec, path, spec.env_var)
        if not _HUB_ID.match(override):
            return MissingModel(
                spec.role, override, f"(set in {spec.env_var})", "directory does not exist"
            )
        return _from_cache(spec, override, spec.env_var)
    base = model_dir()
    if base is not None:
        return _local(spec, base / spec.role, MODEL_DIR_ENV)
    return _from_cache(spec, spec.hub_id, "Hugging Face cache")


def resolve_all(
    roles: Iterable[RoleSpec] = ROLES,
) -> tuple[dict[str, ResolvedModel], list[MissingModel]]:
    found: dict[str, ResolvedModel] = {}
    missing: list[MissingModel] = []
    for spec in roles:
        result = resolve_role(spec)
        if isinstance(result, ResolvedModel):
            found[spec.role] = result
        else:
            missing.append(result)
    return found, missing


def fetch_command() -> str:
    """The command that installs the weights where this process will look for them."""
    base = model_dir()
    return "python -m anonymizer models fetch" + (f" --dir {base}" if base else "")


def missing_reason(missing: list[MissingModel]) -> str:
    """One line: which weights are missing, where we looked, and the command that installs them."""
    groups: dict[tuple[str, str], list[str]] = {}
    for m in missing:
        groups.setdefault((m.problem, m.looked_in), []).append(f"{m.role} ({m.wanted})")
    parts = [f"{', '.join(names)}: {problem} {where}" for (problem, where), names in groups.items()]
    return (
        f"model weights are not installed: {'; '.join(parts)}. Install them with "
        f"`{fetch_command()}` on a machine with internet access "
        "(see `python -m anonymizer models status`)."
    )


def _local(spec: RoleSpec, path: Path, via: str) -> ResolvedModel | MissingModel:
    where = f"in {path} (via {via})"
    if not path.is_dir():
        return MissingModel(spec.role, spec.hub_id, where, "not found")
    lacking = missing_files(path, spec)
    if lacking:
        return MissingModel(spec.role, spec.hub_id, where, f"lacks {', '.join(lacking)}")
    manifest = _read_manifest(path)
    return ResolvedModel(
        spec.role,
        path.resolve(),
        "local",
        via,
        hub_id=manifest.get("repo_id") if manifest else None,
        revision=manifest.get("revision") if manifest else None,
    )


def _from_cache(spec: RoleSpec, hub_id: str, via: str) -> ResolvedModel | MissingModel:
    from huggingface_hub import try_to_load_from_cache

    cache = hf_cache_dir()
    where = f"in the Hugging Face cache {cache}"
    config = try_to_load_from_cache(hub_id, "config.json", cache_dir=cache)
    if not isinstance(config, str):
        return MissingModel(spec.role, hub_id, where, "not found")
    snapshot = Path(config).parent
    lacking = missing_files(snapshot, spec)
    if lacking:
        return MissingModel(spec.role, hub_id, where, f"lacks {', '.join(lacking)}")
    return ResolvedModel(spec.role, snapshot, "hub-cache", via, hub_id, snapshot.name)


def _read_manifest(path: Path) -> dict | None:
    try:
        return json.loads((path / FETCH_MANIFEST).read_text())
    except (OSError, ValueError):
        return None


# ---- identity of the weights, for receipts ---------------------------------------------------

_HASHES: dict[tuple[str, int, int], str] = {}
_HASH_LOCK = threading.Lock()


def file_sha256(path: Path) -> str:
    """sha256 of a file, cached per process by (path, size, mtime) since weights are large."""
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    with _HASH_LOCK:
        if key in _HASHES:
            return _HASHES[key]
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            digest.update(block)
    with _HASH_LOCK:
        _HASHES[key] = digest.hexdigest()
    return _HASHES[key]


def loaded_files(path: Path) -> list[Path]:
    """The files the loader reads from a role directory (config, tokenizer, weights)."""
    names = {"config.json", *TOKENIZER_FILES, *TOKENIZER_EXTRAS, *WEIGHT_FILES}
    files = [path / n for n in sorted(names) if (path / n).is_file()]
    for index in ("model.safetensors.index.json", "pytorch_model.bin.index.json"):
        if (path / index).is_file():
            shards = set(json.loads((path / index).read_text())["weight_map"].values())
            files.extend(path / s for s in sorted(shards))
    return files


def is_published(model: ResolvedModel) -> bool:
    """True when the files are a published hub snapshot: from the cache, or a fetched copy
    whose every file still has the sha256 recorded when `models fetch --dir` downloaded it."""
    if model.source == "hub-cache":
        return True
    manifest = _read_manifest(model.path)
    if not manifest or not manifest.get("sha256"):
        return False
    return all(
        (model.path / name).is_file() and file_sha256(model.path / name) == digest
        for name, digest in manifest["sha256"].items()
    ) and all(f.name in manifest["sha256"] for f in loaded_files(model.path))


def model_ref(model: ResolvedModel) -> str:
    """Receipt form: `hub_id@commit` for published weights, else the directory and a sha256
    over every file the loader reads."""
    if is_published(model) and model.hub_id and model.revision:
        return f"{model.hub_id}@{model.revision}"
    digest = hashlib.sha256()
    for f in loaded_files(model.path):
        digest.update(f"{f.name}:{file_sha256(f)}\n".encode())
    return f"local:{model.path} sha256:{digest.hexdigest()}"


def model_source(model: ResolvedModel) -> str:
    if model.source == "hub-cache":
        return "published weights (Hugging Face cache)"
    if is_published(model):
        return f"published weights (verified local copy in {model.path})"
    return f"local directory {model.path} (not verified as the published weights)"
