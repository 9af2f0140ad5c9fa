"""Do two checkouts of the default detector find exactly the same spans?

A speed change that claims identical detections is checked by running the `combined`
detector of each checkout in its own process on the same inputs and comparing every
detection (start, end, category; scores and the NER's raw entities besides). The inputs are
text nobody tuned on (the training sets g-j) and hostile documents made here: very long
lines, a 1 MB one-line JSON, many never-seen words, mixed scripts, control characters.

    python -m bench.detection_identity inputs --out /tmp/inputs.json
    cd /tmp/old && python -m bench.detection_identity dump /tmp/inputs.json --out /tmp/old.json
    python -m bench.detection_identity dump /tmp/inputs.json --out /tmp/new.json
    python -m bench.detection_identity compare /tmp/old.json /tmp/new.json

`dump` imports the `anonymizer` of the working directory, so run it from the checkout under
test (`python -m` puts that directory first on the path); it records where it came from.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

TRAIN_SETS = "ghij"
BATCH_DOCS = 64  # documents per `detect_many` call, as a batch of uploads would come


def _pseudo_words(rng: random.Random, n: int) -> Iterator[str]:
    """Words no vocabulary holds: random letters, some capitalised, some with digits."""
    for _ in range(n):
        word = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 11)))
        kind = rng.random()
        if kind < 0.3:
            word = word.capitalize()
        elif kind < 0.4:
            word = word.upper()
        elif kind < 0.5:
            word += str(rng.randint(0, 9999))
        yield word


def _record(rng: random.Random, i: int) -> dict[str, Any]:
    first = rng.choice(["Anna", "Kevin", "Siobhán", "Józef", "Ngozi", "Wei", "Олег", "민준"])
    last = rng.choice(["Byrne", "Kowalski", "Okafor", "Zhang", "Петренко", "김", "Peris"])
    return {
        "id": f"CUST-{rng.randint(10_000, 99_999)}",
        "name": f"{first} {last}",
        "email": f"{first.lower()}.{i}@example.org",
        "phone": f"+44 7{rng.randint(100, 999)} {rng.randint(100_000, 999_999)}",
        "iban": f"DE{rng.randint(10, 99)}37040044053201{rng.randint(1000, 9999)}",
        "age": rng.randint(18, 90),
        "city": rng.choice(["Ballymount", "Milano", "Łódź", "Birstwith", "Kraków"]),
        "note": " ".join(_pseudo_words(rng, 4)),
        "token": "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(24)),
    }


def adversarial_documents(seed: int = 15) -> list[dict[str, Any]]:
    """Hostile inputs: long lines, one-line JSON, new words, mixed scripts, odd white space."""
    rng = random.Random(seed)
    docs: list[tuple[str, str]] = []
    records = [_record(rng, i) for i in range(4000)]
    one_line = json.dumps(records, ensure_ascii=False, separators=(",", ":"))
    docs.append(("json-1mb-one-line", (one_line * 2)[:1_000_000]))
    docs.append(("json-60kb-one-line", one_line[:60_000]))
    docs.append(("json-pretty-200kb", json.dumps(records[:500], ensure_ascii=False, indent=2)))
    for width in (4090, 4096, 4097, 4200):
        rows = []
        for r in records[:30]:
            row = f"| {r['id']} | {r['name']} | {r['phone']} | {r['iban']} | {r['token']} |"
            rows.append((row + " " * width)[:width])
        docs.append(
            (
                f"pipe-table-lines-{width}",
                "| id | name | phone | iban | token |\n" + "\n".join(rows),
            )
        )
    csv_rows = [",".join(str(v) for v in r.values()) for r in records[:400]]
    docs.append(("csv-one-line-100kb", ",".join(csv_rows)[:100_000]))
    docs.append(
        (
            "csv-short-lines",
            "id,name,email,phone,iban,age,city,note,token\n" + "\n".join(csv_rows[:200]),
        )
    )
    long_prose = " ".join(
        f"{r['name']} ({r['age']}) from {r['city']} paid with {r['iban']}, ref {r['id']}."
        for r in records[:1500]
    )
    docs.append(("prose-one-line-120kb", long_prose[:120_000]))
    docs.append(("prose-line-then-table", long_prose[:5000] + "\n" + "\n".join(csv_rows[:20])))
    docs.append(
        (
            "table-under-long-line",
            "id|code|user\n"
            + "x" * 5000
            + "\n"
            + "\n".join(f"{r['id']}|{r['token'][:8]}|{r['email']}" for r in records[:20]),
        )
    )
    words = list(_pseudo_words(rng, 30_000))
    docs.append(("new-words-200kb", " ".join(words)))
    docs.append(
        (
            "new-words-sentences",
            "\n".join(
                f"Dear {w.capitalize()} {words[i + 1].capitalize()}, your code {words[i + 2]} "
                f"expires; call {w}-{i} at {words[i + 3]}.io"
                for i, w in enumerate(words[:2000:4])
            ),
        )
    )
    mixed = [
        "Встреча с Олегом Петренко в Київ, тел. +380 44 123 4567, id UA-4471-KK.",
        "담당자 김민준 (minjun.kim@corp.kr) 나이 34세, 사번 004102.",
        "Ο Γιώργος Παπαδόπουλος μένει στην Αθήνα, ΑΦΜ 123456789.",
        "محمد عبد الله، هاتف ٠١٢٣٤٥٦٧٨٩، رقم ٤٥٦٧",
        "田中太郎さん（35歳）の社員番号はJP-77310です。",
        "Contact VICENT PERIS ALANDETE at DIGI SPAIN TELECOM, ref GBR-RP-7731, age ٣٤.",
        "kev and TJ met VK; Paddy from Ballymount said jwrobel2 owes 17/2 rent for Flat 4.",
        "Zoë Ångström-Þórsdóttir, Ñandú Ltd., ½ share, № 5521, 𝓜𝓪𝓻𝔂 𝓢𝓶𝓲𝓽𝓱, ＡＢＣ１２３４５.",
        "e\u0301mile z\u0327 combining marks: Jose\u0301 Garci\u0301a, id A\u0308B-99 12.",
        "emoji 👩‍💻 Priya Nair 🇮🇳 upi priya.nair@okaxis 📞 98450 12345 🙂",
    ]
    docs.append(("mixed-scripts", "\n".join(mixed)))
    docs.append(("mixed-scripts-one-line", " ".join(mixed)))
    ws_chars = [
        "\t",
        "\r\n",
        "\x0b",
        "\x0c",
        "\x1c",
        "\x1e",
        "\x85",
        "\u2028",
        "\u2029",
        "\xa0",
        "\u3000",
        "\u200b",
        "\u2009",
        "\x00",
        "\x07",
        "\ufeff",
        "   ",
        "\n\n\n",
        " \n \n",
    ]
    pieces = []
    for r in records[:300]:
        pieces.append(
            rng.choice(ws_chars).join(
                [r["name"], r["id"], r["email"], r["phone"], str(r["age"]), r["city"], r["token"]]
            )
        )
        pieces.append(rng.choice(ws_chars) * rng.randint(1, 40))
    docs.append(("control-and-space", "".join(pieces)))
    docs.append(
        (
            "spaces-only-lines",
            "\n".join(" " * rng.randint(0, 200) for _ in range(3000))
            + "\nName: Anna Byrne\nID: 004102\n",
        )
    )
    docs.append(
        (
            "crlf-table",
            "\r\n".join(
                f"{r['id']}\t{r['name']}\t{r['phone']}\t{r['token']}" for r in records[:200]
            ),
        )
    )
    docs.append(
        ("base64-blob", "key: " + "".join(rng.choice(string.ascii_letters) for _ in range(300_000)))
    )
    docs.append(("dashes-and-dots", "--- ... -- :: // \\\\ " * 2000 + " AB 12 CD 34 EF 56 GH 78"))
    docs.append(
        (
            "run-pieces",
            " ".join(rng.choice(["AB", "12", "X9", "Q.", "777", "ZZ9"]) for _ in range(20_000)),
        )
    )
    docs.append(("empty", ""))
    docs.append(("one-space", " "))
    return [{"id": f"adv-{name}", "text": text} for name, text in docs]


def train_documents(root: Path) -> list[dict[str, Any]]:
    """The hand-written training documents of sets g-j, and the same joined to 40-60 kB."""
    from bench.dev_sets import handwritten_dev

    docs = []
    for letter in TRAIN_SETS:
        path = root / "bench" / "train_hand" / f"handwritten_train_{letter}.txt"
        docs += [{"id": f"{letter}:{d['id']}", "text": d["text"]} for d in handwritten_dev(path)]
    joined, current = [], []
    for d in docs[::3]:
        current.append(d["text"])
        if sum(map(len, current)) > 40_000:
            joined.append({"id": f"joined-{len(joined)}", "text": "\n\n".join(current)})
            current = []
    return docs + joined


def dump(inputs: Path, out: Path) -> None:
    """Every detection of the working directory's `combined` detector, and the NER's raw
    entities, for each input document."""
    import anonymizer
    from anonymizer.detection import get_detector, warm_up

    detector = get_detector("combined")
    warm_up(detector)
    raw_ner: list[list[Any]] = []
    all_many = detector.ner.all_many

    def recording_all_many(texts: Any) -> Any:
        found = all_many(texts)
        raw_ner.extend([[d.start, d.end, d.category, d.source] for d in f] for f in found)
        return found

    detector.ner.all_many = recording_all_many
    docs = json.loads(inputs.read_text(encoding="utf-8"))
    results = []
    for low in range(0, len(docs), BATCH_DOCS):
        batch = docs[low : low + BATCH_DOCS]
        try:
            outcomes = [(found, None) for found in detector.detect_many([d["text"] for d in batch])]
            ner = raw_ner[-len(batch) :]
        except Exception:  # one document broke the batch: each alone, its error recorded
            outcomes, ner = [], []
            for d in batch:
                raw_ner.clear()
                try:
                    outcomes.append((detector.detect(d["text"]), None))
                    ner.append(raw_ner[0])
                except Exception as exc:
                    outcomes.append(([], f"{type(exc).__name__}: {str(exc)[:200]}"))
                    ner.append([])
        raw_ner.clear()
        for d, (found, error), found_ner in zip(batch, outcomes, ner, strict=True):
            results.append(
                {
                    "id": d["id"],
                    "error": error,
                    "detections": sorted(
                        [x.start, x.end, x.category, x.source, x.score] for x in found
                    ),
                    "ner": sorted(found_ner),
                }
            )
            if error:
                print(f"{d['id']}: {error}", file=sys.stderr, flush=True)
        print(f"{low + len(batch)}/{len(docs)}", file=sys.stderr, flush=True)
    out.write_text(
        json.dumps({"anonymizer": anonymizer.__file__, "docs": results}), encoding="utf-8"
    )


def compare(old_path: Path, new_path: Path, texts: dict[str, str] | None = None) -> int:
    """Print every document whose detections differ; the number of such documents."""
    old, new = (json.loads(p.read_text(encoding="utf-8")) for p in (old_path, new_path))
    print(f"old: {old['anonymizer']}\nnew: {new['anonymizer']}")
    differing = 0
    counts = {"docs": 0, "detections": 0, "ner": 0, "score_only": 0}
    for a, b in zip(old["docs"], new["docs"], strict=True):
        assert a["id"] == b["id"]
        counts["docs"] += 1
        counts["detections"] += len(a["detections"])
        counts["ner"] += len(a["ner"])
        key_a = {tuple(x[:3]) for x in a["detections"]}
        key_b = {tuple(x[:3]) for x in b["detections"]}
        if a.get("error") or b.get("error"):
            print(f"{a['id']}: error old={a.get('error')} new={b.get('error')}")
        ner_a = {tuple(x) for x in a["ner"]}
        ner_b = {tuple(x) for x in b["ner"]}
        if key_a == key_b and ner_a == ner_b:
            if a["detections"] != b["detections"]:
                counts["score_only"] += 1
                print(f"{a['id']}: same spans, other scores/sources")
            continue
        differing += 1
        text = (texts or {}).get(a["id"], "")
        for label, only in (
            ("old only", key_a - key_b),
            ("new only", key_b - key_a),
            ("ner old only", ner_a - ner_b),
            ("ner new only", ner_b - ner_a),
        ):
            for s, e, category, *_ in sorted(only):
                print(f"{a['id']}: {label}: {s}-{e} {category} {text[s:e]!r}")
    print(f"{counts}; documents with different spans: {differing}")
    return differing


def hostile_two_megabytes(seed: int = 16) -> str:
    """About 2 MB of records in which nearly every id, token and word is new: the worst case
    for caches keyed by token, candidate surface or feature."""
    rng = random.Random(seed)
    lines, size, i = [], 0, 0
    while size < 2_000_000:
        r = _record(rng, i)
        line = (
            f"{i}\t{r['id']}-{i}\t{r['name']}\tuser_{r['token'][:10].lower()}\t{r['token']}\t"
            f"{' '.join(_pseudo_words(rng, 3))}\tref {rng.randint(0, 10**9):09d}"
        )
        lines.append(line)
        size += len(line.encode()) + 1
        i += 1
    return "\n".join(lines)


def _rss_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) / 1024


def memory(full: bool) -> None:
    """RSS held by idspans' module-level caches after a hostile 2 MB document: detect, then
    clear every lru_cache of the module and see how much memory that gives back."""
    import ctypes
    import functools
    import gc

    import anonymizer
    from anonymizer.detection import get_detector, idspans, warm_up

    text = hostile_two_megabytes()
    detect = idspans.classify_spans
    if full:
        detector = get_detector("combined")
        warm_up(detector)
        detect = detector.detect
    gc.collect()
    before = _rss_mb()
    found = detect(text)
    del found
    gc.collect()
    after = _rss_mb()
    caches = {
        name: f
        for name, f in vars(idspans).items()
        if isinstance(f, functools._lru_cache_wrapper) and name != "shipped_model"
    }
    info = {name: f.cache_info().currsize for name, f in caches.items()}
    freed = {}
    for name, f in caches.items():
        rss = _rss_mb()
        f.cache_clear()
        gc.collect()
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        freed[name] = round(rss - _rss_mb(), 1)
    cleared = _rss_mb()
    print(
        json.dumps(
            {
                "anonymizer": anonymizer.__file__,
                "bytes": len(text.encode()),
                "full_detector": full,
                "rss_before_mb": round(before, 1),
                "rss_after_mb": round(after, 1),
                "rss_after_clearing_caches_mb": round(cleared, 1),
                "held_by_caches_mb": round(after - cleared, 1),
                "cache_entries": info,
                "freed_mb_by_clearing_in_turn": freed,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    made = sub.add_parser("inputs", help="write the input documents (g-j + adversarial)")
    made.add_argument("--out", type=Path, required=True)
    run = sub.add_parser("dump", help="run this checkout's detector on the inputs")
    run.add_argument("inputs", type=Path)
    run.add_argument("--out", type=Path, required=True)
    both = sub.add_parser("compare", help="compare two dumps")
    both.add_argument("old", type=Path)
    both.add_argument("new", type=Path)
    both.add_argument("--inputs", type=Path, help="show the differing surfaces")
    mem = sub.add_parser("memory", help="memory held by idspans' caches after 2 MB")
    mem.add_argument("--full", action="store_true", help="the whole detector, not idspans")
    args = parser.parse_args()
    if args.command == "inputs":
        root = Path(__file__).resolve().parent.parent
        docs = train_documents(root) + adversarial_documents()
        args.out.write_text(json.dumps(docs, ensure_ascii=False), encoding="utf-8")
        print(f"{len(docs)} documents, {sum(len(d['text']) for d in docs)} characters")
    elif args.command == "memory":
        memory(args.full)
    elif args.command == "dump":
        dump(args.inputs, args.out)
    else:
        texts = None
        if args.inputs:
            texts = {d["id"]: d["text"] for d in json.loads(args.inputs.read_text("utf-8"))}
        sys.exit(1 if compare(args.old, args.new, texts) else 0)


if __name__ == "__main__":
    main()
