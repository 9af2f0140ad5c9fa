"""The result page's context: flowing or side-by-side text (paged), receipt summary, files."""

from __future__ import annotations

import json

from django.http import HttpRequest

from webapp.jobs.downloads import receipt_text
from webapp.jobs.models import OutputFile, ReplacementMapping, RewriteJob
from webapp.jobs.models import Receipt as ReceiptRow
from webapp.jobs.presentation import paginate, receipt_summary, result_segments, split_lines

VIEWS = ("flow", "side")


def result_context(job: RewriteJob, receipt: ReceiptRow, request: HttpRequest | None) -> dict:
    params = request.GET if request is not None else {}
    view = params.get("view") if params.get("view") in VIEWS else "flow"
    raw_page = params.get("page", "1")
    page = paginate(
        split_lines(result_segments(job.spans)), int(raw_page) if raw_page.isdecimal() else 1
    )
    return {
        "view": view,
        "page": page,
        "summary": receipt_summary(receipt.payload, job.spans),
        "receipt_json": json.dumps(receipt.payload, indent=2, ensure_ascii=False),
        "receipt_text": receipt_text(receipt),
        "caveats": receipt.payload.get("caveats") or [],
        "has_mapping": ReplacementMapping.objects.filter(job=job).exists(),
        "original_format": OutputFile.objects.filter(job=job)
        .values_list("extension", flat=True)
        .first(),
        "layout_lost": job.document.source == "pdf",
    }
