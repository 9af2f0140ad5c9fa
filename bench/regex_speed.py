"""The regex engine alone: MB per CPU-second, and old against new side by side.

The text is the development sets (dev-corpus, dev-hand, dev-hand-blind; never the frozen
ones) joined and repeated to `--mb` megabytes of UTF-8. With `--against REF` the rule
module as it is at git revision REF (with the prefilter and checksum modules it imports, as
they are there too) is loaded next to the working tree's, both run on the
same text in alternating rounds (CPU time, `time.process_time`), and their detections are
compared: any difference is printed and the exit status is 1. Speed is a ratio measured in
one run, never an absolute figure to assert.

    python -m bench.regex_speed                       # this tree's engine
    python -m bench.regex_speed --against main        # main's engine vs this tree's
    python -m bench.regex_speed --against main --sets dev-hand-hard,dev-long,large
    python -m bench.regex_speed --anchor-report       # anchored rules' positions and matches

`--sets` also compares the detections document by document on development sets
(`bench.detection_bench` names; `large` is its 2 MB document), and fails on any difference.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from anonymizer.types import Detection

ROOT = Path(__file__).resolve().parent.parent
RULES_MODULE = "anonymizer/detection/regex.py"
# modules of the engine that `RULES_MODULE` imports; loaded at the compared revision too, so
# that its engine runs as it was there
ENGINE_MODULES = {
    "anonymizer.detection.prefilter": "anonymizer/detection/prefilter.py",
    "anonymizer.detection.checksums": "anonymizer/detection/checksums.py",
}


def dev_text(megabytes: float, corpus_docs: int = 300) -> str:
    """Development documents joined by blank lines, repeated to at least `megabytes` MB."""
    from bench import dev_sets

    docs = (
        dev_sets.corpus_dev(corpus_docs)
        + dev_sets.handwritten_dev()
        + dev_sets.handwritten_dev(dev_sets.HANDWRITTEN_BLIND)
    )
    blob = "\n\n".join(d["text"] for d in docs)
    copies = max(1, -(-int(megabytes * 1e6) // len(blob.encode())))
    return "\n\n".join([blob] * copies)


def module_at(revision: str, path: str, name: str) -> ModuleType:
    """The module at `path` as it is at a git revision, imported under the name `name`."""
    source = subprocess.run(
        ["git", "show", f"{revision}:{path}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    exec(compile(source, f"{revision}:{path}", "exec"), module.__dict__)
    return module


def rules_module_at(revision: str) -> ModuleType:
    """`anonymizer.detection.regex` as it is at a git revision, imported under another name,
    with the engine modules it imports (`ENGINE_MODULES`) also as they are at that revision."""
    tag = revision.replace("/", "_").replace("-", "_").replace(".", "_")
    saved = {name: sys.modules.get(name) for name in ENGINE_MODULES}
    try:
        for name, path in ENGINE_MODULES.items():
            sys.modules[name] = module_at(revision, path, f"_{name.rsplit('.', 1)[1]}_at_{tag}")
        return module_at(revision, RULES_MODULE, f"_regex_at_{tag}")
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def cpu_seconds(detector: Any, text: str) -> tuple[float, list[Detection]]:
    started = time.process_time()
    found = detector.detect(text)
    return time.process_time() - started, found


def spans(found: list[Detection]) -> list[tuple[Any, ...]]:
    return sorted((d.start, d.end, d.category, d.rule_id, d.score) for d in found)


def compare(text: str, revision: str | None, rounds: int) -> dict[str, Any]:
    """CPU time per engine (best of `rounds`, alternating) and whether their spans agree."""
    from anonymizer.detection.regex import RegexDetector

    engines: dict[str, Any] = {"this tree": RegexDetector()}
    if revision:
        engines[revision] = rules_module_at(revision).RegexDetector()
    for detector in engines.values():
        detector.detect(text[:20_000])  # warm up
    best = dict.fromkeys(engines, float("inf"))
    outputs: dict[str, list[tuple[Any, ...]]] = {}
    for _ in range(rounds):
        for name, detector in engines.items():
            seconds, found = cpu_seconds(detector, text)
            best[name] = min(best[name], seconds)
            outputs[name] = spans(found)
    size = len(text.encode())
    result: dict[str, Any] = {
        "bytes": size,
        "cpu_seconds": best,
        "mb_per_cpu_s": {name: size / 1e6 / s for name, s in best.items()},
        "detections": len(outputs["this tree"]),
    }
    if revision:
        ours, theirs = set(outputs["this tree"]), set(outputs[revision])
        result["speedup"] = best[revision] / best["this tree"]
        result["only_this_tree"] = sorted(ours - theirs)[:20]
        result[f"only_{revision}"] = sorted(theirs - ours)[:20]
        result["identical"] = outputs["this tree"] == outputs[revision]
    return result


def set_documents(name: str) -> list[str]:
    """The texts of a development set by its `bench.detection_bench` name, or the 2 MB
    document (`large`); frozen sets are refused (nothing here may read them)."""
    from bench import detection_bench

    if name.startswith("frozen"):
        raise SystemExit("frozen sets are run by the lead only")
    if name == "large":
        return [detection_bench.large_document(detection_bench.LARGE_DOC_BYTES)]
    docs, _ = detection_bench.load_set(name, 300)
    if docs is None:
        raise SystemExit(f"set {name!r} is not available")
    return [d["text"] for d in docs]


def compare_sets(names: list[str], revision: str) -> bool:
    """Whether this tree and `revision` find the same spans in every document of the sets."""
    from anonymizer.detection.regex import RegexDetector

    ours, theirs = RegexDetector(), rules_module_at(revision).RegexDetector()
    same = True
    for name in names:
        texts = set_documents(name)
        count, differing = 0, 0
        for text in texts:
            found = ours.detect(text)
            count += len(found)
            differing += spans(found) != spans(theirs.detect(text))
        print(f"{name}: {len(texts)} documents, {count:,} detections, {differing} differ")
        same = same and not differing
    return same


def anchor_report(text: str) -> list[tuple[str, int, int, bool]]:
    """Per anchored rule: its anchor positions in `text` (as the engine finds them: at word
    starts where the rule opens with a word boundary), its matches there, and whether the
    engine runs it from its prefilter superset (`regex.SUPERSET_GATED_RULES`); most positions
    first. A rule with many positions and few matches is a candidate for that list."""
    from anonymizer.detection.regex import (
        RULES,
        SUPERSET_GATED_RULES,
        AnchorIndex,
        Rule,
        anchor_sets,
        iter_matches,
        lower_same_length,
    )

    def anchored(rule: Rule) -> bool:
        return bool(rule.anchors) and rule.trigger is None

    lowered = lower_same_length(text)
    positions = AnchorIndex(*anchor_sets(RULES, anchored)).positions(lowered)
    rows = []
    for rule in filter(anchored, RULES):
        found = positions.get(rule.anchors, [])
        matches = sum(1 for _ in iter_matches(rule, text, lowered, found)) if found else 0
        rows.append((rule.rule_id, len(found), matches, rule.rule_id in SUPERSET_GATED_RULES))
    return sorted(rows, key=lambda row: -row[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.regex_speed",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--mb", type=float, default=2.0, help="text size in MB (UTF-8)")
    parser.add_argument("--against", metavar="REF", help="git revision to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (best kept)")
    parser.add_argument("--sets", help="comma-separated sets to compare document by document")
    parser.add_argument(
        "--anchor-report",
        action="store_true",
        help="per anchored rule: anchor positions and matches in the text (then exit)",
    )
    args = parser.parse_args(argv)
    if args.anchor_report:
        print(f"{'rule':<32} {'positions':>9} {'matches':>8}  run from")
        for rule_id, count, matches, gated in anchor_report(dev_text(args.mb)):
            print(f"{rule_id:<32} {count:>9,} {matches:>8,}  {'superset' if gated else 'anchors'}")
        return 0
    if args.sets:
        if not args.against:
            parser.error("--sets needs --against")
        if not compare_sets(args.sets.split(","), args.against):
            return 1
    result = compare(dev_text(args.mb), args.against, args.rounds)
    print(f"text: {result['bytes']:,} bytes of development documents")
    for name, seconds in result["cpu_seconds"].items():
        rate = result["mb_per_cpu_s"][name]
        print(f"{name:>12}: {seconds:.2f} CPU-s, {rate:.2f} MB per CPU-second")
    if args.against:
        print(f"speed-up over {args.against}: {result['speedup']:.2f}×")
        print(f"identical detections: {result['identical']} ({result['detections']:,})")
        for key in ("only_this_tree", f"only_{args.against}"):
            for row in result[key]:
                print(f"  {key}: {row}")
        return 0 if result["identical"] else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
