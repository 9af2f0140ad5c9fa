"""API endpoints: thin functions that authorise, validate through the page's form, call the
same services as the pages, and return JSON. Every object is reached through its owner, so
another user's id answers 404 exactly as the pages do."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import File, Form, NinjaAPI, Query, Schema, Status
from ninja.files import UploadedFile

from anonymizer import list_mechanisms
from anonymizer.receipts import receipt_dict
from webapp.api import batches, schemas, submission
from webapp.api.auth import PersonalTokenAuth
from webapp.api.submission import Refused
from webapp.jobs import services
from webapp.jobs.downloads import bundle_zip, file_stem, receipt_json
from webapp.jobs.mappings import MappingUnavailable, restore_for_job
from webapp.jobs.models import Document, OutputFile, RewriteJob
from webapp.jobs.planning import PLANNING_ERRORS, PlanningError, plan_bounded, planning_message
from webapp.jobs.queries import HistoryQuery, history_page
from webapp.jobs.retention import purge_document
from webapp.jobs.uploads import oversized_upload
from webapp.ledger.models import UserBudget
from webapp.ledger.services import budget_summary, cap_for, remaining_after
from webapp.operations.mechanisms import reason_for
from webapp.operations.queueing import queue_position

api = NinjaAPI(
    title="Anonymizer API",
    version="1",
    description=(
        "Rewrite documents with privacy receipts from scripts. Authenticate with a personal "
        "API token from your settings page: `Authorization: Bearer <token>`. You see and act "
        "on your own documents and jobs only; another user's id answers 404."
    ),
    auth=PersonalTokenAuth(),
    urls_namespace="api",
)

ERRORS = {401: schemas.Error, 404: schemas.Error, 409: schemas.Error, 422: schemas.Error}
api.add_router("/batches", batches.router)


@api.exception_handler(Refused)
def _refused(request: HttpRequest, exc: Refused) -> HttpResponse:
    return api.create_response(
        request, {"detail": exc.detail, "errors": exc.errors}, status=exc.status
    )


def _job_for(request: HttpRequest, job_id: int) -> RewriteJob:
    return get_object_or_404(
        RewriteJob.objects.select_related("document").filter(owner=request.auth), pk=job_id
    )


def _document_for(request: HttpRequest, document_id: int) -> Document:
    return get_object_or_404(Document.objects.filter(owner=request.auth), pk=document_id)


# --- mechanisms, budget, plan ------------------------------------------------------------


@api.get("/mechanisms", response=list[schemas.MechanismOut], tags=["settings"])
def mechanisms(request: HttpRequest) -> list[dict[str, Any]]:
    """Every mechanism, its parameters (the keys `settings` takes) and whether it runs here
    (why not: the exact reason for operators, "not installed on this server" for others)."""
    return [
        {
            "name": m.name,
            "title": m.title,
            "guarantee": m.guarantee,
            "description": m.description,
            "parameters": [*m.parameters, "seed"],
            "uses_epsilon": m.uses_epsilon,
            "uses_delta": m.uses_delta,
            "needs_gpu": m.needs_gpu,
            "available": m.available,
            "unavailable_reason": reason_for(request.auth, m.unavailable_reason()),
        }
        for m in list_mechanisms()
    ]


@api.get("/budget", response=schemas.BudgetOut, tags=["settings"])
def budget(request: HttpRequest) -> dict[str, Any]:
    """Your privacy budget cap, what your releases spent (exact composition) and what remains."""
    summary = budget_summary(request.auth)
    return {
        "epsilon_cap": summary.epsilon_cap,
        "delta": summary.delta,
        "cap_is_default": not isinstance(cap_for(request.auth), UserBudget),
        "epsilon_spent": summary.epsilon_spent,
        "epsilon_committed": summary.epsilon_committed,
        "epsilon_remaining": summary.epsilon_remaining,
        "reserved_jobs": summary.n_reserved_jobs,
        "noised_releases": summary.n_gaussian_releases,
        "coverage": summary.coverage,
        "require_formal_guarantee": summary.require_formal_guarantee,
    }


@api.post("/plan", response={200: schemas.PlanOut, **ERRORS}, tags=["jobs"])
def plan(request: HttpRequest, body: schemas.PlanIn) -> dict[str, Any]:
    """The receipt a rewrite would carry and what it would do to your budget; submits nothing.

    A text over the inline planning limit is not detected here: the receipt is then the bound
    the submission is reserved at (`exact` is false), and the worker plans it exactly."""
    form = submission.bound_form(request.auth, body.settings, text=body.text, for_preview=True)
    try:
        planned = plan_bounded(form.document_text, form.rewrite_settings)
        after = remaining_after(request.auth, planned.receipt)
    except PlanningError as exc:
        raise Refused(422, str(exc)) from None
    except PLANNING_ERRORS as exc:
        raise Refused(422, planning_message(exc)) from None
    return {
        "receipt": receipt_dict(planned.receipt),
        "exact": planned.exact,
        "pii_spans": planned.n_pii,
        "unavailable": reason_for(request.auth, form.info.unavailable_reason()),
        "budget": after.__dict__,
    }


# --- submit --------------------------------------------------------------------------------


@api.post("/jobs", response={201: schemas.JobOut, **ERRORS}, tags=["jobs"])
def submit_text(request: HttpRequest, body: schemas.SubmitIn) -> Status:
    """Queue a rewrite of pasted text (or of a stored document, by `document` id)."""
    form = submission.bound_form(
        request.auth, body.settings, text=body.text, name=body.name, document=body.document
    )
    return Status(201, job_out(submission.submit(request.auth, form)))


class UploadForm(Schema):
    name: str = ""
    settings: str = "{}"


@api.post("/jobs/upload", response={201: schemas.JobOut, **ERRORS}, tags=["jobs"])
def submit_file(
    request: HttpRequest,
    form: Form[UploadForm],
    file: UploadedFile | None = File(None),  # noqa: B008  (ninja declares parameters so)
) -> Status:
    """Queue a rewrite of an uploaded .txt, .md, .docx or .pdf (multipart; `settings` is the
    same JSON object as for POST /jobs, sent as a form field)."""
    settings = submission.parse_settings(form.settings)
    bound = submission.bound_form(
        request.auth,
        settings,
        name=form.name,
        upload=file,
        form_kwargs={"oversized_upload": oversized_upload(request)},
    )
    return Status(201, job_out(submission.submit(request.auth, bound)))


# --- jobs ------------------------------------------------------------------------------------


@api.get("/jobs", response=schemas.JobPage, tags=["jobs"])
def history(
    request: HttpRequest,
    q: str = "",
    mechanism: str = "",
    state: str = "",
    date_from: str = Query("", alias="from", description="YYYY-MM-DD"),
    date_to: str = Query("", alias="to", description="YYYY-MM-DD"),
    sort: str = Query("-date", description="date, document, mechanism, epsilon, state, k; -desc"),
    page: str = "1",
) -> dict[str, Any]:
    """Your jobs, newest first, with the history page's search, filters, sort and pages."""
    query = HistoryQuery.from_params(request.GET)
    result = history_page(request.auth, query)

    def page_url(number: int) -> str:
        return f"{reverse('api:history')}?{urlencode(query.params(page=number))}"

    return {
        "count": result.paginator.count,
        "page": result.number,
        "num_pages": result.paginator.num_pages,
        "next": page_url(result.next_page_number()) if result.has_next() else None,
        "previous": page_url(result.previous_page_number()) if result.has_previous() else None,
        "results": [
            {
                "id": job.pk,
                "document_name": job.document.name,
                "document_purged": job.document.purged_at is not None,
                "mechanism": job.mechanism,
                "state": job.state,
                "epsilon": job.epsilon,
                "delta": job.delta,
                "n_chunks": job.n_chunks,
                "created_at": job.created_at,
                "url": reverse("api:job", args=[job.pk]),
            }
            for job in result.object_list
        ],
    }


@api.get("/jobs/{job_id}", response={200: schemas.JobOut, **ERRORS}, tags=["jobs"], url_name="job")
def job(request: HttpRequest, job_id: int) -> dict[str, Any]:
    """State, progress (0–1) and stage of one of your jobs; poll it until `finished`."""
    return job_out(_job_for(request, job_id))


@api.post("/jobs/{job_id}/cancel", response={200: schemas.JobOut, **ERRORS}, tags=["jobs"])
def cancel(request: HttpRequest, job_id: int) -> dict[str, Any]:
    """Cancel a queued job now, or ask a running one to stop at its next step."""
    return job_out(services.cancel_job(_job_for(request, job_id)))


@api.get("/jobs/{job_id}/output", response={200: str, **ERRORS}, tags=["results"])
def output(request: HttpRequest, job_id: int) -> HttpResponse:
    """The anonymized text (text/plain)."""
    job = _succeeded_job(request, job_id)
    return attachment(job.output, f"{file_stem(job)}-anonymized.txt", "text/plain")


@api.get("/jobs/{job_id}/spans", response={200: list[schemas.SpanOut], **ERRORS}, tags=["results"])
def spans(request: HttpRequest, job_id: int) -> list[dict[str, Any]]:
    """The output piece by piece: each detected span with its category and replacement, and
    each rewritten chunk; `text` (the original) is null once the original was deleted."""
    return _succeeded_job(request, job_id).spans


@api.get("/jobs/{job_id}/receipt", response={200: schemas.ReceiptOut, **ERRORS}, tags=["results"])
def receipt(request: HttpRequest, job_id: int) -> HttpResponse:
    """The privacy receipt with its hash and the hash of your previous receipt (the chain)."""
    job = _succeeded_job(request, job_id)
    return HttpResponse(receipt_json(job.receipt), content_type="application/json")


@api.get("/jobs/{job_id}/original-format", response={200: bytes, **ERRORS}, tags=["results"])
def original_format(request: HttpRequest, job_id: int) -> HttpResponse:
    """The output in the original document's format (.docx in, .docx out, with the
    replacements made in place and the metadata stripped); 409 when there is none."""
    job = _succeeded_job(request, job_id)
    output = OutputFile.objects.filter(job=job).first()
    if output is None:
        raise Refused(
            409, f"Job {job.pk} has no output in the original format ({job.document.source})."
        )
    name = f"{file_stem(job)}-anonymized.{output.extension}"
    return attachment(bytes(output.data), name, output.content_type)


@api.post("/jobs/{job_id}/restore", response={200: schemas.RestoreOut, **ERRORS}, tags=["results"])
def restore(request: HttpRequest, job_id: int, body: schemas.RestoreIn) -> dict[str, Any]:
    """Put the originals back into text that came back (numbered placeholders, with or without
    brackets, and consistent fakes), from the job's encrypted mapping; 409 when the job's
    operator is not reversible or the mapping was deleted with the original."""
    job = _job_for(request, job_id)
    try:
        restored = restore_for_job(job, body.text)
    except MappingUnavailable as exc:
        raise Refused(409, str(exc)) from None
    return {"text": restored.text, "replaced": restored.replaced, "distinct": restored.distinct}


@api.get("/jobs/{job_id}/bundle", response={200: bytes, **ERRORS}, tags=["results"])
def bundle(request: HttpRequest, job_id: int) -> HttpResponse:
    """A zip of the output, the receipt JSON and a readable receipt."""
    job = _succeeded_job(request, job_id)
    return attachment(bundle_zip(job, job.receipt), f"{file_stem(job)}.zip", "application/zip")


def _succeeded_job(request: HttpRequest, job_id: int) -> RewriteJob:
    job = _job_for(request, job_id)
    if job.state != RewriteJob.State.SUCCEEDED or getattr(job, "receipt", None) is None:
        raise Refused(409, f"Job {job.pk} is {job.state}; it has no output.")
    return job


@api.delete(
    "/documents/{document_id}/original",
    response={200: schemas.DocumentOut, **ERRORS},
    tags=["documents"],
)
def delete_original(request: HttpRequest, document_id: int) -> Document:
    """Purge a document's original text (and the originals in its jobs' spans); receipts,
    outputs and budget entries stay. Queued jobs of the document are cancelled."""
    document = _document_for(request, document_id)
    purge_document(document)
    document.refresh_from_db()
    return document


# --- shapes -------------------------------------------------------------------------------------


def job_out(job: RewriteJob) -> dict[str, Any]:
    def url(name: str, *args: int) -> str:
        return reverse(name, args=args or [job.pk])

    return {
        **{f: getattr(job, f) for f in schemas.JobOut.model_fields if hasattr(job, f)},
        "id": job.pk,
        "document": job.document,
        "finished": job.is_finished,
        "queue": _queue_out(job),
        "links": {
            "self": url("api:job"),
            "page": url("job_detail"),
            "output": url("api:output"),
            "original_format": url("api:original_format"),
            "restore": url("api:restore"),
            "spans": url("api:spans"),
            "receipt": url("api:receipt"),
            "bundle": url("api:bundle"),
            "cancel": url("api:cancel"),
            "delete_original": url("api:delete_original", job.document_id),
        },
    }


def _queue_out(job: RewriteJob) -> dict[str, Any] | None:
    position = queue_position(job)
    if position is None:
        return None
    return {
        "name": position.queue,
        "ahead": position.ahead,
        "running": position.running,
        "typical_seconds": position.typical_seconds,
        "wait_seconds": position.wait_seconds,
        "wait": position.wait_text,
    }


def attachment(body: str | bytes, filename: str, content_type: str) -> HttpResponse:
    charset = "; charset=utf-8" if isinstance(body, str) else ""
    response = HttpResponse(body, content_type=f"{content_type}{charset}")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
