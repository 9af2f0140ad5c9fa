"""Server time of a batch upload against the same documents sent one by one, side by side.

Runs Django in-process on a fresh SQLite database in a temp dir and times full request
handling through the API with the test client (token auth, parsing, admission, one job per
document; the broker is left out: enqueueing is a no-op). Also times the refusal of a zip
bomb, which must come from the zip directory before anything is decompressed.
Usage: python -m bench.batch_bench [--documents 50] [--rounds 3]
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import time
import zipfile
from pathlib import Path

from bench.inprocess import django_on_temp_sqlite

RESULTS = Path(__file__).resolve().parent / "results"
SETTINGS = json.dumps({"mechanism": "redact", "detector": "regex"})
TEXT = "Dear Jane Doe,\nplease call +44 20 7946 0958 or write to jane.doe@example.com.\n" * 40


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--documents", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    client = _set_up()
    files = [(f"letter-{i:03d}.txt", TEXT.encode()) for i in range(args.documents)]
    timings: dict[str, list[float]] = {"one by one": [], "batch of files": [], "batch .zip": []}
    for _ in range(args.rounds):  # interleaved, so load on the machine hits all three alike
        timings["one by one"].append(_time(lambda: [_upload_one(client, f) for f in files]))
        timings["batch of files"].append(_time(lambda: _upload_batch(client, files)))
        timings["batch .zip"].append(_time(lambda: _upload_batch(client, [_zip_of(files)])))
    bomb = _zip_bomb()
    bomb_s = _time(lambda: _upload_batch(client, [("bomb.zip", bomb)], expect=422))
    medians = {k: statistics.median(v) for k, v in timings.items()}
    summary = {
        "documents": args.documents,
        "bytes_per_document": len(TEXT.encode()),
        "rounds": args.rounds,
        "median_seconds": medians,
        "ratio_one_by_one_over_batch": medians["one by one"] / medians["batch of files"],
        "ratio_one_by_one_over_zip": medians["one by one"] / medians["batch .zip"],
        "zip_bomb": {"bytes": len(bomb), "refused_in_seconds": bomb_s},
        "database": "SQLite (embedded default), broker left out",
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "batch.json").write_text(json.dumps(summary, indent=2))
    print(f"{args.documents} documents of {len(TEXT.encode()):,} bytes, median of {args.rounds}:")
    for label, seconds in medians.items():
        print(f"  {label:<16} {seconds:7.2f} s  ({1000 * seconds / args.documents:6.1f} ms/doc)")
    print(f"  one by one / batch of files = {summary['ratio_one_by_one_over_batch']:.2f}")
    print(f"  one by one / batch .zip     = {summary['ratio_one_by_one_over_zip']:.2f}")
    print(f"  zip bomb ({len(bomb):,} bytes) refused in {1000 * bomb_s:.1f} ms")


def _set_up():  # type: ignore[no-untyped-def]
    django_on_temp_sqlite("batch-bench-")
    from django.contrib.auth import get_user_model
    from django.test import Client

    from webapp.accounts.services import create_token
    from webapp.jobs import services

    services.enqueue_rewrite = lambda job_id: None  # no broker: server time only
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    _, secret = create_token(user, "bench")
    return Client(headers={"Authorization": f"Bearer {secret}"})


def _upload_one(client, file: tuple[str, bytes]) -> None:  # type: ignore[no-untyped-def]
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile(*file)
    response = client.post("/api/jobs/upload", {"file": upload, "settings": SETTINGS})
    assert response.status_code == 201, response.content


def _upload_batch(client, files, expect: int = 201) -> None:  # type: ignore[no-untyped-def]
    from django.core.files.uploadedfile import SimpleUploadedFile

    uploads = [SimpleUploadedFile(name, data) for name, data in files]
    response = client.post("/api/batches", {"files": uploads, "settings": SETTINGS})
    assert response.status_code == expect, response.content


def _zip_of(files: list[tuple[str, bytes]]) -> tuple[str, bytes]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files:
            archive.writestr(name, data)
    return "letters.zip", buffer.getvalue()


def _zip_bomb() -> bytes:
    """One member that inflates 1 MB of zeros about 1000:1 (under the per-document limit, so
    the compression ratio is what refuses it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("zeros.txt", b"0" * 1_000_000)
    return buffer.getvalue()


def _time(work) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
