"""The history table's query: the owner's jobs, filtered, searched, sorted and paginated."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.utils import timezone

from webapp.jobs.models import RewriteJob

SORTS = {
    "date": "created_at",
    "document": "document__name",
    "mechanism": "mechanism",
    "epsilon": "epsilon",
    "state": "state",
    "k": "n_chunks",
}
PAGE_SIZE = 25


@dataclass(frozen=True)
class HistoryQuery:
    q: str = ""
    mechanism: str = ""
    state: str = ""
    date_from: date | None = None
    date_to: date | None = None
    sort: str = "date"
    descending: bool = True
    page: int = 1

    @classmethod
    def from_params(cls, params) -> HistoryQuery:  # type: ignore[no-untyped-def]
        sort = params.get("sort", "-date")
        descending = sort.startswith("-")
        key = sort.lstrip("-")
        return cls(
            q=params.get("q", "").strip()[:100],
            mechanism=params.get("mechanism", "").strip(),
            state=params.get("state", "").strip(),
            date_from=_parse_date(params.get("from")),
            date_to=_parse_date(params.get("to")),
            sort=key if key in SORTS else "date",
            descending=descending,
            page=_parse_int(params.get("page"), 1),
        )

    def params(self, **changes) -> dict[str, str]:  # type: ignore[no-untyped-def]
        """Query-string parameters for a link to a changed view of the same table."""
        values = {
            "q": self.q,
            "mechanism": self.mechanism,
            "state": self.state,
            "from": self.date_from.isoformat() if self.date_from else "",
            "to": self.date_to.isoformat() if self.date_to else "",
            "sort": ("-" if self.descending else "") + self.sort,
            "page": str(self.page),
        }
        values.update({k: str(v) for k, v in changes.items()})
        return {k: v for k, v in values.items() if v and not (k == "page" and v == "1")}

    def sort_param_for(self, column: str) -> str:
        if column == self.sort:
            return column if self.descending else f"-{column}"
        return f"-{column}" if column in ("date", "epsilon", "k") else column


HISTORY_COLUMNS = (
    "pk",
    "created_at",
    "mechanism",
    "epsilon",
    "delta",
    "state",
    "n_chunks",
    "document__name",
    "document__purged_at",
)


def jobs_for_history(user, query: HistoryQuery) -> QuerySet[RewriteJob]:  # type: ignore[no-untyped-def]
    """The owner's jobs, filtered and sorted (each sort with the pk as tie-break)."""
    jobs = RewriteJob.objects.filter(owner=user)
    if query.q:
        jobs = jobs.filter(document__name__icontains=query.q)
    if query.mechanism:
        jobs = jobs.filter(mechanism=query.mechanism)
    if query.state:
        jobs = jobs.filter(state=query.state)
    tz = timezone.get_current_timezone()
    if query.date_from:
        jobs = jobs.filter(created_at__gte=datetime.combine(query.date_from, time.min, tz))
    if query.date_to:
        jobs = jobs.filter(created_at__lte=datetime.combine(query.date_to, time.max, tz))
    order = ("-" if query.descending else "") + SORTS[query.sort]
    return jobs.order_by(order, "-pk" if query.descending else "pk")


class HistoryRows:
    """The table's rows for a Paginator, in one query that picks the page's ids first (a
    "deferred join").

    A page deep in a long history (OFFSET 5,000) made the database read, join and sort
    every skipped job row; here the subquery only walks the sort's index for the page's ids,
    and the outer query loads those 25 jobs with their documents by primary key. One round
    trip, not two: on PostgreSQL each costs a wake-up of the server process, which on a busy
    machine is most of a page's database time.
    """

    def __init__(self, jobs: QuerySet[RewriteJob], ordered: QuerySet[RewriteJob]) -> None:
        self.jobs, self.in_order = jobs, ordered

    def count(self) -> int:
        return self.jobs.count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, page: slice) -> list[RewriteJob]:
        ids = self.in_order.values("pk")[page]
        rows = RewriteJob.objects.filter(pk__in=ids).select_related("document")
        return list(rows.only(*HISTORY_COLUMNS).order_by(*self.in_order.query.order_by))


def history_page(user, query: HistoryQuery) -> Page:  # type: ignore[no-untyped-def]
    jobs = jobs_for_history(user, query)
    ordered = jobs
    if query.sort == "document":
        # true of every job; it lets PostgreSQL read a page from the documents' name index
        # instead of sorting every job by name (the count does without the join)
        ordered = jobs.filter(document__owner=user)
    return Paginator(HistoryRows(jobs, ordered), PAGE_SIZE).get_page(query.page)


def _parse_date(raw: str | None) -> date | None:
    try:
        return date.fromisoformat(raw) if raw else None
    except ValueError:
        return None


def _parse_int(raw: str | None, default: int) -> int:
    try:
        return max(1, int(raw)) if raw else default
    except ValueError:
        return default
