"""Staff-only audit pages: every user's spent budget, one user's history, chain verification."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from webapp.ledger import audit
from webapp.ledger.chart import cumulative_epsilon_svg
from webapp.ledger.services import budget_summary, effective_status
from webapp.ledger.verify import verify_receipt_chains

View = Callable[..., HttpResponse]


def staff_required(view: View) -> View:
    """Anonymous users go to the login page; signed-in users who are not staff get 403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:  # type: ignore[no-untyped-def]
        if not request.user.is_staff:
            raise PermissionDenied("The audit pages are for staff only.")
        return view(request, *args, **kwargs)

    return login_required(wrapper)


@require_GET
@staff_required
def audit_index(request: HttpRequest) -> HttpResponse:
    sort, descending = audit.parse_sort(request.GET.get("sort"))
    rows = audit.audit_rows(request.GET.get("sort"))
    columns = [
        (key, label, f"-{key}" if key == sort and not descending else key, key == sort)
        for key, label in audit.COLUMNS
    ]
    context = {"rows": rows, "columns": columns, "sort": sort, "descending": descending}
    return render(request, "ledger/audit.html", context)


@require_GET
@staff_required
def audit_csv_export(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(
        audit.audit_csv(audit.audit_rows(request.GET.get("sort"))),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = 'attachment; filename="privacy-budgets.csv"'
    return response


@require_GET
@staff_required
def audit_user(request: HttpRequest, user_id: int) -> HttpResponse:
    """One user's budget, receipts, ledger entries and ε after each release, each table paged
    (newest first) so the page stays the same size however long the history."""
    subject = get_object_or_404(get_user_model(), pk=user_id)
    summary = budget_summary(subject)
    entries = _page(request, "entries", audit.entries_newest_first(subject))
    steps = audit.cumulative_steps(subject)[::-1]
    points = _page(request, "points", steps)
    points.object_list = audit.points_at(points.object_list, summary.delta)
    return render(
        request,
        "ledger/audit_user.html",
        {
            "subject": subject,
            "summary": summary,
            "points": points,
            "entries": entries,
            "entry_statuses": [(e, effective_status(e)) for e in entries],
            "receipts": _page(request, "receipts", audit.receipts_newest_first(subject)),
            "chain": verify_receipt_chains(subject.pk),
        },
    )


def _page(request: HttpRequest, name: str, rows) -> Page:  # type: ignore[no-untyped-def]
    return Paginator(rows, audit.AUDIT_PAGE_SIZE).get_page(request.GET.get(name))


@require_GET
@staff_required
def audit_chart(request: HttpRequest, user_id: int) -> HttpResponse:
    subject = get_object_or_404(get_user_model(), pk=user_id)
    summary = budget_summary(subject)
    points, n_releases, unguaranteed = audit.chart_series(subject)
    svg = cumulative_epsilon_svg(
        points, summary.epsilon_cap, summary.delta, unguaranteed, n_releases=n_releases
    )
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


@require_GET
@staff_required
def audit_verify(request: HttpRequest) -> HttpResponse:
    return render(request, "ledger/verify.html", {"report": verify_receipt_chains()})
