"""Batch endpoints: several files (or one .zip) in one multipart request -> one job per
document, admitted against the budget together; progress; cancel; the zip of results."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import Router, Status

from webapp.api import schemas, submission
from webapp.api.submission import Refused
from webapp.batches import services as batches
from webapp.batches.downloads import batch_stem, batch_zip
from webapp.batches.forms import BatchForm
from webapp.batches.models import Batch
from webapp.batches.progress import batch_progress
from webapp.batches.uploads import install_batch_upload_handler, upload_refusal
from webapp.ledger.services import BudgetExceeded

router = Router(tags=["batches"])
ERRORS = {401: schemas.Error, 404: schemas.Error, 409: schemas.Error, 422: schemas.Error}
MULTIPART = {
    "requestBody": {
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["files", "settings"],
                    "properties": {
                        "files": {
                            "type": "array",
                            "items": {"type": "string", "format": "binary"},
                            "description": "Several .txt/.md/.docx/.pdf files, or one .zip.",
                        },
                        "name": {"type": "string", "description": "Batch name (optional)."},
                        "settings": {
                            "type": "string",
                            "description": "The JSON settings object, as for POST /api/jobs.",
                        },
                    },
                }
            }
        },
        "required": True,
    }
}


def _batch_for(request: HttpRequest, batch_id: int) -> Batch:
    return get_object_or_404(Batch.objects.filter(owner=request.auth), pk=batch_id)


@router.post("", response={201: schemas.BatchOut, **ERRORS}, openapi_extra=MULTIPART)
def submit_batch(request: HttpRequest) -> Status:
    """Queue one job per document of several uploaded files or one .zip (multipart: `files`
    repeated, `settings` as a JSON form field, optional `name`). Admitted against your budget
    as a whole: all documents, or 409 saying how many would fit."""
    install_batch_upload_handler(request)  # before the body is parsed
    settings = submission.parse_settings(request.POST.get("settings", ""))
    form = submission.bound_form(
        request.auth,
        settings,
        name=request.POST.get("name", ""),
        files=request.FILES,
        form_class=BatchForm,
        form_kwargs={"upload_refusal": upload_refusal(request)},
        problems=lambda f: {"files": f.problems} if f.problems else {},
    )
    try:
        batch = form.submit()
    except BudgetExceeded as exc:
        raise Refused(409, str(exc)) from None
    return Status(201, batch_out(batch))


@router.get("", response=list[schemas.BatchOut])
def list_batches(request: HttpRequest) -> list[dict[str, Any]]:
    """Your batches, newest first (the latest 100)."""
    return [batch_out(b) for b in Batch.objects.filter(owner=request.auth)[:100]]


@router.get("/{batch_id}", response={200: schemas.BatchOut, **ERRORS}, url_name="batch")
def batch(request: HttpRequest, batch_id: int) -> dict[str, Any]:
    """Each document's job: state, progress and stage; poll until `finished`."""
    return batch_out(_batch_for(request, batch_id))


@router.post("/{batch_id}/cancel", response={200: schemas.BatchOut, **ERRORS})
def cancel_batch(request: HttpRequest, batch_id: int) -> dict[str, Any]:
    """Cancel every unfinished document (running ones stop at their next step)."""
    batch = _batch_for(request, batch_id)
    batches.cancel_batch(batch)
    return batch_out(batch)


@router.get("/{batch_id}/bundle", response={200: bytes, **ERRORS})
def batch_bundle(request: HttpRequest, batch_id: int) -> HttpResponse:
    """A zip of every succeeded document's output and receipts, with a manifest of all."""
    batch = _batch_for(request, batch_id)
    progress = batch_progress(batch)
    if not progress.n_succeeded:
        raise Refused(409, f"No document of batch {batch.pk} has an output yet.")
    response = HttpResponse(batch_zip(batch, progress), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{batch_stem(batch)}.zip"'
    return response


def batch_out(batch: Batch) -> dict[str, Any]:
    progress = batch_progress(batch)
    return {
        "id": batch.pk,
        "name": batch.name,
        "mechanism": batch.mechanism,
        "settings": batch.settings,
        "created_at": batch.created_at,
        "finished": progress.finished,
        "percent": progress.percent,
        "counts": progress.counts,
        "documents": [
            {
                "position": item.position,
                "filename": item.filename,
                "job": item.job_id,
                "state": item.job.state,
                "progress": item.job.progress,
                "stage": item.job.stage,
                "error": item.job.error,
                "url": reverse("api:job", args=[item.job_id]),
            }
            for item in progress.items
        ],
        "links": {
            "self": reverse("api:batch", args=[batch.pk]),
            "page": reverse("batch_detail", args=[batch.pk]),
            "bundle": reverse("api:batch_bundle", args=[batch.pk]),
            "cancel": reverse("api:cancel_batch", args=[batch.pk]),
        },
    }
