"""`python -m anonymizer models status|fetch`: what model files are here, and getting them.

Exit status: `status` 0 when every role is present, 1 otherwise; `fetch` 0 on success, 1 when
a download failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from anonymizer.models.resolver import (
    ROLES,
    ROLES_BY_NAME,
    MissingModel,
    ResolvedModel,
    hf_cache_dir,
    model_dir,
    resolve_role,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m anonymizer models",
        description="List or download the weights of the model-based mechanisms.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    status = sub.add_parser("status", help="what is present, and where")
    status.add_argument("--json", action="store_true")
    fetch = sub.add_parser("fetch", help="download the published weights (needs internet)")
    fetch.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="download into DIR/<role>/ (default: $ANONYMIZER_MODEL_DIR if set, else the "
        "Hugging Face cache)",
    )
    fetch.add_argument(
        "--role",
        action="append",
        choices=[s.role for s in ROLES],
        default=None,
        help="only this role (repeatable)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.command == "status":
        return _status(args.json)
    return _fetch(args.dir or model_dir(), args.role or [s.role for s in ROLES])


def _status(as_json: bool) -> int:
    from anonymizer.registry import mechanism_info

    rows = [_status_row(resolve_role(spec)) for spec in ROLES]
    reason = mechanism_info("dp-embed-invert").unavailable_reason()
    if as_json:
        print(
            json.dumps(
                {"roles": rows, "dp-embed-invert": {"available": reason is None, "reason": reason}},
                indent=2,
            )
        )
    else:
        print(f"model dir: {model_dir() or '(ANONYMIZER_MODEL_DIR not set)'}")
        print(f"Hugging Face cache: {hf_cache_dir()}")
        for r in rows:
            state = "present" if r["present"] else "MISSING"
            print(f"{r['role']:<10} {state:<8} {r['model']:<42} {r['location']}  ({r['via']})")
        print("dp-embed-invert: " + ("available" if reason is None else f"UNAVAILABLE: {reason}"))
    return 0 if all(r["present"] for r in rows) else 1


def _status_row(result: ResolvedModel | MissingModel) -> dict[str, object]:
    spec = ROLES_BY_NAME[result.role]
    if isinstance(result, MissingModel):
        return {
            "role": result.role,
            "present": False,
            "model": result.wanted,
            "location": result.looked_in,
            "via": result.problem,
            "description": spec.description,
        }
    if result.hub_id and result.revision:
        model = f"{result.hub_id}@{result.revision[:12]}"
    else:
        model = "local directory"
    return {
        "role": result.role,
        "present": True,
        "model": model,
        "location": str(result.path),
        "via": result.via,
        "description": spec.description,
    }


def _fetch(target: Path | None, roles: list[str]) -> int:
    from anonymizer.models.fetch import fetch_role

    failed = []
    for role in roles:
        spec = ROLES_BY_NAME[role]
        override = resolve_role(spec)
        if (
            isinstance(override, ResolvedModel)
            and override.via == spec.env_var
            and override.source == "local"
        ):
            print(f"{role}: {spec.env_var} names a local directory ({override.path}); skipped")
            continue
        try:
            where = fetch_role(spec, target)
        except Exception as exc:  # network, auth, disk: report each role and go on
            print(f"error: {role}: {type(exc).__name__}: {exc}", file=sys.stderr)
            failed.append(role)
            continue
        print(f"{role}: ready in {where}")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    if target is not None and model_dir() != target:
        print(f"Now point the anonymizer at it: export ANONYMIZER_MODEL_DIR={target}")
    return 0
