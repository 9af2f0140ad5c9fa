"""Views: authorise, validate, call a service, render. Every object goes through the owner."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from anonymizer.receipts import receipt_human_text
from anonymizer.types import Receipt as ReceiptData
from webapp.jobs import services
from webapp.jobs.forms import SubmitForm
from webapp.jobs.models import RewriteJob


def _get_job_for_user(request: HttpRequest, job_id: int) -> RewriteJob:
    return get_object_or_404(
        RewriteJob.objects.select_related("document").filter(owner=request.user), pk=job_id
    )


@login_required
def submit(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SubmitForm(request.POST, request.FILES)
        if form.is_valid():
            job = services.submit_text(
                request.user,
                name=form.cleaned_data["name"],
                text=form.document_text,
                rewrite_settings=form.rewrite_settings,
                source=form.document_source,
            )
            return redirect("job_detail", job_id=job.pk)
    else:
        form = SubmitForm()
    return render(request, "jobs/submit.html", {"form": form})


@login_required
def job_detail(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _get_job_for_user(request, job_id)
    return render(request, "jobs/job_detail.html", _job_context(job))


@login_required
def job_status(request: HttpRequest, job_id: int) -> HttpResponse:
    """The polled fragment; once the job ends it comes without the polling trigger."""
    job = _get_job_for_user(request, job_id)
    return render(request, "jobs/job_detail.html#status", _job_context(job))


@login_required
@require_POST
def job_cancel(request: HttpRequest, job_id: int) -> HttpResponse:
    job = services.cancel_job(_get_job_for_user(request, job_id))
    if request.htmx:
        return render(request, "jobs/job_detail.html#status", _job_context(job))
    return redirect("job_detail", job_id=job.pk)


@login_required
def history(request: HttpRequest) -> HttpResponse:
    jobs = RewriteJob.objects.filter(owner=request.user).select_related("document")[:200]
    return render(request, "jobs/history.html", {"jobs": jobs})


@login_required
def download_output(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _get_job_for_user(request, job_id)
    if job.state != RewriteJob.State.SUCCEEDED:
        return HttpResponse("This job has no output.", status=409, content_type="text/plain")
    return _attachment(job.output, f"{_stem(job)}-job{job.pk}-anonymized.txt", "text/plain")


@login_required
def download_receipt(request: HttpRequest, job_id: int) -> HttpResponse:
    job = _get_job_for_user(request, job_id)
    receipt = getattr(job, "receipt", None)
    if receipt is None:
        return HttpResponse("This job has no receipt.", status=409, content_type="text/plain")
    body = json.dumps(
        {
            "job": job.pk,
            "sha256": receipt.sha256,
            "prev_sha256": receipt.prev_sha256,
            "receipt": receipt.payload,
        },
        indent=2,
        ensure_ascii=False,
    )
    return _attachment(body, f"{_stem(job)}-job{job.pk}-receipt.json", "application/json")


def _attachment(body: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _stem(job: RewriteJob) -> str:
    keep = "".join(c if c.isalnum() or c in "-_" else "-" for c in job.document.name)
    return (keep.strip("-")[:60] or "document").rsplit(".", 1)[0]


def _job_context(job: RewriteJob) -> dict:
    receipt = getattr(job, "receipt", None)
    context: dict = {"job": job, "receipt": receipt}
    if receipt is not None:
        context["receipt_json"] = json.dumps(receipt.payload, indent=2, ensure_ascii=False)
        context["receipt_text"] = receipt_human_text(
            ReceiptData.from_dict(_receipt_fields(receipt.payload))
        )
    return context


def _receipt_fields(payload: dict) -> dict:
    import math

    data = dict(payload)
    for key in ("epsilon_total", "epsilon_per_chunk"):
        if data.get(key) == "inf":
            data[key] = math.inf
    return data
