"""Download payloads: output text, receipt JSON, and a zip with both (and the output in the
original's format, where there is one) plus a readable receipt."""

from __future__ import annotations

import io
import json
import math
import zipfile

from anonymizer.receipts import receipt_human_text
from anonymizer.types import Receipt as ReceiptData
from webapp.jobs.models import OutputFile, Receipt, RewriteJob


def file_stem(job: RewriteJob) -> str:
    """Document name (safe characters only, no extension) plus the job id."""
    name = job.document.name.rsplit(".", 1)[0] if "." in job.document.name else job.document.name
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-")[:60]
    return f"{safe or 'document'}-job{job.pk}"


def receipt_json(receipt: Receipt) -> str:
    return json.dumps(
        {
            "job": receipt.job_id,
            "sha256": receipt.sha256,
            "prev_sha256": receipt.prev_sha256,
            "receipt": receipt.payload,
        },
        indent=2,
        ensure_ascii=False,
    )


def receipt_text(receipt: Receipt) -> str:
    """The readable receipt: the plain-language summary first, then the technical text."""
    from webapp.jobs.presentation import receipt_summary

    summary = "\n".join(receipt_summary(receipt.payload).sentences) + "\n\n"
    data = dict(receipt.payload)
    for key in ("epsilon_total", "epsilon_per_chunk", "delta_total", "delta_per_chunk"):
        if data.get(key) == "inf":
            data[key] = math.inf
    known = set(ReceiptData.__dataclass_fields__)
    text = receipt_human_text(ReceiptData.from_dict({k: v for k, v in data.items() if k in known}))
    previous = receipt.prev_sha256 or "(first)"
    return summary + text + f"Receipt SHA-256: {receipt.sha256}\nPrevious receipt: {previous}\n"


def bundle_zip(job: RewriteJob, receipt: Receipt) -> bytes:
    stem = file_stem(job)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{stem}-anonymized.txt", job.output)
        original_format = OutputFile.objects.filter(job=job).first()
        if original_format is not None:
            archive.writestr(
                f"{stem}-anonymized.{original_format.extension}", bytes(original_format.data)
            )
        archive.writestr(f"{stem}-receipt.json", receipt_json(receipt))
        archive.writestr(f"{stem}-receipt.txt", receipt_text(receipt))
    return buffer.getvalue()
