"""Download the published weights (needs internet): into the Hugging Face cache, or into
`<dir>/<role>/` with a manifest of sha256 sums so receipts can tell the copy is unmodified."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from anonymizer.models.resolver import (
    FETCH_MANIFEST,
    TOKENIZER_EXTRAS,
    TOKENIZER_FILES,
    RoleSpec,
    file_sha256,
)

_WEIGHT_CHOICES = (  # first one the repository has wins; shards follow their index
    ("model.safetensors",),
    ("model.safetensors.index.json", "model-*-of-*.safetensors"),
    ("pytorch_model.bin",),
    ("pytorch_model.bin.index.json", "pytorch_model-*-of-*.bin"),
)


class FetchError(Exception):
    pass


def files_to_fetch(spec: RoleSpec, repo_files: Iterable[str]) -> list[str]:
    """Patterns for the root files the loader reads: config, tokenizer, one weights format."""
    available = set(repo_files)
    patterns = ["config.json", *spec.extra_files]
    if spec.needs_tokenizer:
        patterns += [*TOKENIZER_FILES, *TOKENIZER_EXTRAS]
    if spec.needs_weights:
        choice = next((c for c in _WEIGHT_CHOICES if c[0] in available), None)
        if choice is None:
            raise FetchError(f"{spec.hub_id} has no model.safetensors or pytorch_model.bin")
        patterns += list(choice)
    return patterns


def fetch_role(spec: RoleSpec, target: Path | None, say: Callable[[str], None] = print) -> Path:
    """Download one role (its `ANONYMIZER_<ROLE>` hub id if set); returns where it landed."""
    from huggingface_hub import HfApi, snapshot_download

    hub_id = os.environ.get(spec.env_var, "").strip() or spec.hub_id
    info = HfApi().model_info(hub_id)
    patterns = files_to_fetch(spec, (s.rfilename for s in info.siblings or []))
    say(f"{spec.role}: downloading {hub_id}@{info.sha} ({', '.join(patterns)})")
    if target is None:  # the cache's refs/main must point at it, so fetch by branch
        return Path(snapshot_download(hub_id, allow_patterns=patterns))
    local = target / spec.role
    snapshot_download(hub_id, revision=info.sha, allow_patterns=patterns, local_dir=local)
    files = sorted(p for p in local.iterdir() if p.is_file() and not p.name.startswith("."))
    manifest = {
        "repo_id": hub_id,
        "revision": info.sha,
        "sha256": {p.name: file_sha256(p) for p in files},
    }
    (local / FETCH_MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return local
