"""Batch pages: the batch form, the user's batches, one batch's progress, its zip."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from anonymizer import list_mechanisms
from webapp.batches import services
from webapp.batches.downloads import batch_stem, batch_zip
from webapp.batches.forms import BatchForm
from webapp.batches.models import Batch
from webapp.batches.progress import batch_progress
from webapp.batches.uploads import install_batch_upload_handler, upload_refusal
from webapp.ledger.services import BudgetExceeded


def _get_batch_for_user(request: HttpRequest, batch_id: int) -> Batch:
    return get_object_or_404(Batch.objects.filter(owner=request.user), pk=batch_id)


@csrf_exempt  # checked below, once the batch's upload limits are in place
@login_required
def batch_new(request: HttpRequest) -> HttpResponse:
    install_batch_upload_handler(request)
    return _batch_new(request)


@csrf_protect
def _batch_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and "choose" not in request.POST:
        form = BatchForm(
            request.POST, request.FILES, user=request.user, upload_refusal=upload_refusal(request)
        )
        if form.is_valid():
            try:
                batch = form.submit()
            except BudgetExceeded as exc:
                form.add_error(None, str(exc))
            else:
                return redirect("batch_detail", batch_id=batch.pk)
    elif request.method == "POST":  # no-JS "show this mechanism's settings" button
        keep = {k: request.POST.get(k) for k in ("name", "mechanism") if request.POST.get(k)}
        form = BatchForm(initial=keep, user=request.user)
    else:
        form = BatchForm(initial={"mechanism": request.GET.get("mechanism")}, user=request.user)
    return render(request, "batches/new.html", {"form": form, "mechanisms": list_mechanisms()})


@login_required
@require_GET
def batch_list(request: HttpRequest) -> HttpResponse:
    batches = Batch.objects.filter(owner=request.user)[:100]
    rows = [(batch, batch_progress(batch)) for batch in batches]
    return render(request, "batches/list.html", {"rows": rows})


@login_required
@require_GET
def batch_detail(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = _get_batch_for_user(request, batch_id)
    context = {"batch": batch, "progress": batch_progress(batch)}
    template = "batches/detail.html#progress" if request.htmx else "batches/detail.html"
    return render(request, template, context)


@login_required
@require_POST
def batch_cancel(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = _get_batch_for_user(request, batch_id)
    services.cancel_batch(batch)
    return redirect("batch_detail", batch_id=batch.pk)


@login_required
@require_GET
def batch_download(request: HttpRequest, batch_id: int) -> HttpResponse:
    batch = _get_batch_for_user(request, batch_id)
    progress = batch_progress(batch)
    if not progress.n_succeeded:
        return HttpResponse(
            "No document of this batch has an output yet.", status=409, content_type="text/plain"
        )
    response = HttpResponse(batch_zip(batch, progress), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{batch_stem(batch)}.zip"'
    return response
