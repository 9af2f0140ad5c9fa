"""One zip for a whole batch: each succeeded document's output (as text, and in its original
format where there is one), its receipts, and a manifest that lists every document with its
state (so a failed one is not silently missing)."""

from __future__ import annotations

import io
import json
import zipfile

from webapp.batches.models import Batch
from webapp.batches.progress import BatchProgress
from webapp.jobs.downloads import file_stem, receipt_json, receipt_text
from webapp.jobs.models import OutputFile, RewriteJob


def batch_stem(batch: Batch) -> str:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in batch.name).strip("-")[:60]
    return f"{safe or 'batch'}-batch{batch.pk}"


def batch_zip(batch: Batch, progress: BatchProgress) -> bytes:
    buffer = io.BytesIO()
    manifest = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, item in enumerate(progress.items, start=1):
            job = item.job
            entry = {
                "position": number,
                "filename": item.filename,
                "job": job.pk,
                "state": job.state,
                "error": job.error or None,
                "files": [],
            }
            receipt = getattr(job, "receipt", None)
            if job.state == RewriteJob.State.SUCCEEDED and receipt is not None:
                stem = f"{number:02d}-{file_stem(job)}"
                files: dict[str, str | bytes] = {f"{stem}-anonymized.txt": job.output}
                original_format = OutputFile.objects.filter(job=job).first()
                if original_format is not None:
                    extension = original_format.extension
                    files[f"{stem}-anonymized.{extension}"] = bytes(original_format.data)
                files[f"{stem}-receipt.json"] = receipt_json(receipt)
                files[f"{stem}-receipt.txt"] = receipt_text(receipt)
                for name, body in files.items():
                    archive.writestr(name, body)
                entry.update(files=list(files), receipt_sha256=receipt.sha256)
            manifest.append(entry)
        archive.writestr(
            "manifest.json",
            json.dumps(
                {
                    "batch": batch.pk,
                    "name": batch.name,
                    "mechanism": batch.mechanism,
                    "settings": batch.settings,
                    "created_at": batch.created_at.isoformat(),
                    "documents": manifest,
                },
                indent=2,
                ensure_ascii=False,
            ),
        )
    return buffer.getvalue()
