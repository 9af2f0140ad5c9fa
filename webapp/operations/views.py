"""The operator's page (staff): mechanisms and why one cannot run, the broker's queues and the
workers behind them, recent failures, and the receipt-chain check."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from webapp.jobs.models import RewriteJob
from webapp.ledger.verify import verify_receipt_chains
from webapp.ledger.views import staff_required
from webapp.operations.mechanisms import mechanism_statuses
from webapp.operations.workers import workers_report

RECENT = timedelta(hours=24)


@require_GET
@staff_required
def operator(request: HttpRequest) -> HttpResponse:
    """The fast parts at once; workers and chains load in the page (or at once with ?now=1)."""
    since = timezone.now() - RECENT
    recent = RewriteJob.objects.filter(created_at__gte=since)
    context = {
        "mechanisms": mechanism_statuses(),
        "states": dict(recent.values_list("state").annotate(n=Count("pk")).order_by()),
        "failures": recent.filter(state=RewriteJob.State.FAILED)
        .select_related("owner")
        .order_by("-finished_at")[:5],
    }
    if request.GET.get("now"):
        context.update(workers=workers_report(), chain=verify_receipt_chains())
    return render(request, "operations/operator.html", context)


@require_GET
@staff_required
def operator_workers(request: HttpRequest) -> HttpResponse:
    return render(request, "operations/operator.html#workers", {"workers": workers_report()})


@require_GET
@staff_required
def operator_chain(request: HttpRequest) -> HttpResponse:
    return render(request, "operations/operator.html#chain", {"chain": verify_receipt_chains()})
