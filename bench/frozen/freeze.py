"""Write MANIFEST.json: the SHA-256 and counts of each frozen file and the generator command.

    python -m bench.frozen.freeze

Run only when a set is deliberately rebuilt; `tests/bench/test_frozen_sets.py` fails whenever
a data file no longer matches the manifest.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from importlib.metadata import version
from pathlib import Path
from typing import Any

from bench.frozen.generate import COMMAND
from bench.frozen.generate import OUTPUT as INDEPENDENT
from bench.frozen.handwritten import OUTPUT as HANDWRITTEN
from bench.third_party import presidio_faker

FROZEN_DIR = Path(__file__).resolve().parent
MANIFEST = FROZEN_DIR / "MANIFEST.json"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def describe(path: Path) -> dict[str, Any]:
    """Hash, document and span counts, spans per category of one JSONL set."""
    docs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    labels = Counter(s["label"] for d in docs for s in d["spans"])
    return {
        "sha256": sha256(path),
        "documents": len(docs),
        "spans": sum(labels.values()),
        "negatives": sum(len(d.get("negatives", [])) for d in docs),
        "spans_by_category": dict(sorted(labels.items(), key=lambda kv: (-kv[1], kv[0]))),
    }


def build_manifest() -> dict[str, Any]:
    return {
        "handwritten.jsonl": {
            **describe(HANDWRITTEN),
            "built_by": "python -m bench.frozen.handwritten (from handwritten_src/)",
        },
        "independent.jsonl": {
            **describe(INDEPENDENT),
            "built_by": COMMAND,
            "seed": 2026,
            "n": 1000,
            "mimesis": version("mimesis"),
        },
        "presidio_faker.jsonl": {
            **describe(presidio_faker.OUTPUTS["frozen"]),
            "built_by": f"{presidio_faker.COMMAND}  (with {presidio_faker.GENERATOR})",
            "seed": presidio_faker.SEEDS["frozen"],
            "n": presidio_faker.SIZES["frozen"],
            "generator": presidio_faker.GENERATOR,
        },
    }


def main() -> int:
    MANIFEST.write_text(json.dumps(build_manifest(), indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {MANIFEST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
