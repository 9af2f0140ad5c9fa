"""Views: authorise, validate, call a service, render. Every object goes through the owner."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from anonymizer import list_mechanisms
from webapp.jobs import services
from webapp.jobs.documents import DocumentError
from webapp.jobs.downloads import bundle_zip, file_stem, receipt_json
from webapp.jobs.forms import SubmitForm, keep_upload
from webapp.jobs.models import Document, Review, RewriteJob
from webapp.jobs.planning import PLANNING_ERRORS, PlanningError, plan_bounded, planning_message
from webapp.jobs.queries import SORTS, HistoryQuery, history_page
from webapp.jobs.result import result_context
from webapp.jobs.retention import purge_document
from webapp.jobs.review import start_review_from_form
from webapp.jobs.submission import SubmissionRefused, submit_form
from webapp.jobs.uploads import oversized_upload
from webapp.ledger.services import budget_summary, remaining_after
from webapp.operations.mechanisms import reason_for
from webapp.operations.queueing import queue_position

log = logging.getLogger(__name__)


def _get_job_for_user(request: HttpRequest, job_id: int) -> RewriteJob:
    # the original text (up to the upload limit) is not shown here: it loads only if read
    jobs = RewriteJob.objects.select_related("document", "receipt").defer("document__text")
    return get_object_or_404(jobs.filter(owner=request.user), pk=job_id)


def _get_document_for_user(request: HttpRequest, document_id: int) -> Document:
    return get_object_or_404(Document.objects.filter(owner=request.user), pk=document_id)


# --- submit ---------------------------------------------------------------------------


@login_required
def submit(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and "choose" not in request.POST:
        form = _bound_form(request)
        if form.is_valid() and form.reviewing:
            review = start_review_from_form(request.user, form)
            return redirect("review_detail", review_id=review.pk)
        if form.is_valid():
            job = _submit_valid_form(request, form)
            if job is not None:
                return redirect("job_detail", job_id=job.pk)
    elif request.method == "POST":  # no-JS "show this mechanism's settings" button
        form = _settings_switch_form(request)
    else:
        form = SubmitForm(initial=_initial_from_job(request), user=request.user)
    return render(request, "jobs/submit.html", {"form": form, "mechanisms": list_mechanisms()})


def _bound_form(request: HttpRequest, **kwargs) -> SubmitForm:  # type: ignore[no-untyped-def]
    files = request.FILES  # parses the body, so an oversized upload is known below
    return SubmitForm(
        request.POST, files, user=request.user, oversized_upload=oversized_upload(request), **kwargs
    )


def _submit_valid_form(request: HttpRequest, form: SubmitForm) -> RewriteJob | None:
    try:
        return submit_form(request.user, form)
    except SubmissionRefused as exc:
        form.add_error(None, str(exc))
        return None


def _settings_switch_form(request: HttpRequest) -> SubmitForm:
    """The form for the newly chosen mechanism, keeping what was entered. A browser cannot be
    given a file back, so an uploaded file is read now (with the same checks as on submit) and
    stored as the user's document, which the form then carries by its id."""
    initial = _carry_over(request.POST)
    upload = request.FILES.get("file")
    problem = None
    if upload is not None or oversized_upload(request):
        try:
            document = keep_upload(request.user, upload, oversized_upload(request))
        except DocumentError as exc:
            problem = str(exc)
        else:
            initial.update(document=document.pk, name=initial.get("name") or document.name)
    form = SubmitForm(initial=initial, user=request.user)
    if problem:
        form.show_error("file", problem)
    return form


def _carry_over(post) -> dict:  # type: ignore[no-untyped-def]
    return {k: post.get(k) for k in ("name", "text", "document", "mechanism") if post.get(k)}


def _initial_from_job(request: HttpRequest) -> dict:
    """Resubmitting a job: its document and settings, for the user to change."""
    initial: dict = {}
    if request.GET.get("mechanism"):
        initial["mechanism"] = request.GET["mechanism"]
    job_id = request.GET.get("from_job", "")
    if job_id.isdecimal():
        job = _get_job_for_user(request, int(job_id))
        review = Review.objects.filter(job=job).first()  # a reviewed job ran with gold spans
        chosen = review.settings if review is not None else job.settings
        initial.update({k: v for k, v in chosen.items() if v not in (None, [], "")})
        for key in ("allow_list", "deny_list", "sensitive_words"):  # one string per line
            if isinstance(initial.get(key), list):
                initial[key] = "\n".join(initial[key])
        initial["mechanism"] = request.GET.get("mechanism") or job.mechanism
        if not job.document.is_purged:
            initial.update(document=job.document.pk, name=job.document.name)
    return initial


@login_required
@require_GET
def submit_params(request: HttpRequest) -> HttpResponse:
    """The parameter fieldset for the mechanism picked in the select (HTMX swap)."""
    form = SubmitForm(initial={"mechanism": request.GET.get("mechanism")}, user=request.user)
    return render(request, "jobs/submit.html#params", {"form": form})


@login_required
@require_POST
def submit_preview(request: HttpRequest) -> HttpResponse:
    """The receipt the rewrite would carry, from anonymizer.plan(): no model is loaded."""
    has_document = (
        request.POST.get("text", "").strip() or request.FILES or request.POST.get("document")
    )
    if not has_document:
        form = SubmitForm(initial={"mechanism": request.POST.get("mechanism")}, user=request.user)
        return render(request, "jobs/submit.html#preview", {"form": form, "preview": None})
    form = _bound_form(request, for_preview=True)
    unavailable = reason_for(request.user, form.info.unavailable_reason())
    context: dict = {"form": form, "preview": None, "unavailable": unavailable}
    if form.is_valid():
        try:
            planned = plan_bounded(form.document_text, form.rewrite_settings)
            context["budget_after"] = remaining_after(request.user, planned.receipt)
        except PlanningError as exc:
            context["preview_error"] = str(exc)
        except PLANNING_ERRORS as exc:
            context["preview_error"] = planning_message(exc)
        else:
            context.update(
                preview=planned.receipt,
                preview_pii=planned.n_pii,
                preview_exact=planned.exact,
                preview_chars=planned.n_chars,
                inline_plan_max_chars=settings.INLINE_PLAN_MAX_CHARS,
            )
    return render(request, "jobs/submit.html#preview", context)


# --- jobs -----------------------------------------------------------------------------


@login_required
def job_detail(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _get_job_for_user(request, job_id)
    context = _job_context(job, request)
    if request.htmx and request.GET.get("part") == "result":
        return render(request, "jobs/job_detail.html#result", context)
    return render(request, "jobs/job_detail.html", context)


@login_required
def job_status(request: HttpRequest, job_id: int) -> HttpResponse:
    """The polled fragment; once the job ends it comes without the polling trigger."""
    job = _get_job_for_user(request, job_id)
    response = render(request, "jobs/job_detail.html#status", _job_context(job))
    if job.is_finished and request.htmx:
        response["HX-Refresh"] = "true"  # load the full result page once
    return response


@login_required
@require_POST
def job_cancel(request: HttpRequest, job_id: int) -> HttpResponse:
    job = services.cancel_job(_get_job_for_user(request, job_id))
    if request.htmx:
        return render(request, "jobs/job_detail.html#status", _job_context(job))
    return redirect("job_detail", job_id=job.pk)


def _job_context(job: RewriteJob, request: HttpRequest | None = None) -> dict:
    receipt = getattr(job, "receipt", None) if job.state == RewriteJob.State.SUCCEEDED else None
    context: dict = {
        "job": job,
        "receipt": receipt,
        "output_preview": job.output[: settings.JOB_PAGE_OUTPUT_CHARS],
        "retention_days": settings.DOCUMENT_RETENTION_DAYS,
        "queue_position": queue_position(job),
    }
    if receipt is not None:
        context.update(result_context(job, receipt, request))
    return context


# --- history --------------------------------------------------------------------------


@login_required
@require_GET
def history(request: HttpRequest) -> HttpResponse:
    query = HistoryQuery.from_params(request.GET)
    context = {
        "page": history_page(request.user, query),
        "query": query,
        "columns": [
            (key, label)
            for key, label in zip(
                SORTS, ("Date", "Document", "Mechanism", "ε / δ", "State", "K"), strict=True
            )
        ],
        "mechanisms": [m.name for m in list_mechanisms()],
        "states": RewriteJob.State.values,
    }
    if request.htmx:  # filters, sorts and pages swap the table only: no budget box in it
        return render(request, "jobs/history.html#table", context)
    context["budget"] = budget_summary(request.user)
    return render(request, "jobs/history.html", context)


# --- downloads and deletion -----------------------------------------------------------


@login_required
def download_output(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _get_job_for_user(request, job_id)
    if job.state != RewriteJob.State.SUCCEEDED:
        return HttpResponse("This job has no output.", status=409, content_type="text/plain")
    return _attachment(job.output, f"{file_stem(job)}-anonymized.txt", "text/plain")


@login_required
def download_receipt(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _get_job_for_user(request, job_id)
    receipt = getattr(job, "receipt", None)
    if receipt is None:
        return HttpResponse("This job has no receipt.", status=409, content_type="text/plain")
    return _attachment(receipt_json(receipt), f"{file_stem(job)}-receipt.json", "application/json")


@login_required
def download_zip(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _get_job_for_user(request, job_id)
    receipt = getattr(job, "receipt", None)
    if receipt is None:
        return HttpResponse("This job has no output yet.", status=409, content_type="text/plain")
    return _attachment(bundle_zip(job, receipt), f"{file_stem(job)}.zip", "application/zip")


@login_required
@require_POST
def document_delete(request: HttpRequest, document_id: int) -> HttpResponse:
    document = _get_document_for_user(request, document_id)
    purge_document(document)
    messages.info(request, f"The original of “{document.name}” was deleted; receipts stay.")
    job = document.jobs.order_by("-created_at").first()
    return redirect("job_detail", job_id=job.pk) if job else redirect("history")


def _attachment(body: str | bytes, filename: str, content_type: str) -> HttpResponse:
    charset = "; charset=utf-8" if isinstance(body, str) else ""
    response = HttpResponse(body, content_type=f"{content_type}{charset}")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
