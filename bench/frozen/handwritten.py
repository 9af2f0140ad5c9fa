"""Build `handwritten.jsonl` from the marked-up sources in `handwritten_src/`.

Each source file `NNN_genre.txt` is one document written by hand; offsets are computed from
the inline markup (see `bench.frozen.markup`), never typed.

    python -m bench.frozen.handwritten          # rebuild the JSONL
    python -m bench.frozen.handwritten --check  # fail if the JSONL differs from the sources
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bench.frozen.markup import parse_markup

FROZEN_DIR = Path(__file__).resolve().parent
SOURCE_DIR = FROZEN_DIR / "handwritten_src"
OUTPUT = FROZEN_DIR / "handwritten.jsonl"


def build_documents(source_dir: Path = SOURCE_DIR) -> list[dict[str, Any]]:
    """One record per source file, in file-name order."""
    docs = []
    for path in sorted(source_dir.glob("*.txt")):
        number, _, genre = path.stem.partition("_")
        text, spans, negatives = parse_markup(path.read_text(encoding="utf-8").rstrip())
        docs.append(
            {
                "id": f"hw-{number}",
                "genre": genre,
                "text": text,
                "spans": spans,
                "negatives": negatives,
            }
        )
    return docs


def render_jsonl(docs: list[dict[str, Any]]) -> str:
    """The exact bytes the frozen file holds (one JSON object a line, UTF-8, no ASCII escapes)."""
    return "".join(json.dumps(doc, ensure_ascii=False) + "\n" for doc in docs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    content = render_jsonl(build_documents())
    if args.check:
        same = OUTPUT.exists() and OUTPUT.read_text(encoding="utf-8") == content
        print("handwritten.jsonl matches its sources" if same else "handwritten.jsonl is stale")
        return 0 if same else 1
    OUTPUT.write_text(content, encoding="utf-8")
    print(f"wrote {content.count(chr(10))} documents to {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
