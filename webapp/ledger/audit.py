"""Figures for the staff audit pages: one row per user, sorting, CSV, the cumulative series."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from itertools import accumulate

from django.contrib.auth import get_user_model
from django.db.models import Count, Max

from anonymizer.accounting import composed_epsilon
from webapp.jobs.models import Receipt
from webapp.ledger.chart import Point, Unguaranteed, visible_releases
from webapp.ledger.models import LedgerEntry
from webapp.ledger.services import (
    BudgetSummary,
    cap_for,
    effective_status,
    ledger_entries,
    summaries_for_users,
    with_job_states,
)

SORTS = {
    "user": lambda r: r.username.lower(),
    "spent": lambda r: r.summary.epsilon_spent,
    "formal": lambda r: r.summary.n_gaussian_releases,
    "unguaranteed": lambda r: r.summary.no_guarantee_count,
    "basic": lambda r: r.summary.basic_epsilon,
    "cap": lambda r: _none_last(r.summary.epsilon_cap),
    "remaining": lambda r: _none_last(r.summary.epsilon_remaining),
    "reserved": lambda r: r.summary.n_reserved_jobs,
    "jobs": lambda r: r.n_jobs,
    "last": lambda r: r.last_activity.timestamp() if r.last_activity else -math.inf,
}
COLUMNS = [
    ("user", "User"),
    ("spent", "Spent ε (exact)"),
    ("formal", "…covers releases"),
    ("unguaranteed", "Without guarantee"),
    ("basic", "Σεᵢ (basic)"),
    ("cap", "Cap ε_B"),
    ("remaining", "Remaining ε"),
    ("reserved", "Pending jobs"),
    ("jobs", "Jobs"),
    ("last", "Last activity"),
]
DEFAULT_SORT = "-spent"
AUDIT_PAGE_SIZE = 50  # rows per table on a user's audit page


@dataclass(frozen=True)
class AuditRow:
    user_id: int
    username: str
    is_staff: bool
    n_jobs: int
    last_activity: datetime | None
    summary: BudgetSummary


def parse_sort(raw: str | None) -> tuple[str, bool]:
    """('spent', True) from '-spent'; unknown keys fall back to the default."""
    raw = raw or DEFAULT_SORT
    key, descending = raw.lstrip("-"), raw.startswith("-")
    if key not in SORTS:
        return DEFAULT_SORT.lstrip("-"), True
    return key, descending


def audit_rows(sort: str | None = None) -> list[AuditRow]:
    """Every user with their budget figures, sorted."""
    users = list(
        get_user_model()
        .objects.annotate(n_jobs=Count("jobs"), last_activity=Max("jobs__created_at"))
        .order_by("username")
    )
    summaries = summaries_for_users(u.pk for u in users)
    rows = [
        AuditRow(u.pk, u.get_username(), u.is_staff, u.n_jobs, u.last_activity, summaries[u.pk])
        for u in users
    ]
    key, descending = parse_sort(sort)
    return sorted(rows, key=SORTS[key], reverse=descending)


def audit_csv(rows: list[AuditRow]) -> str:
    """The table as CSV, with the job ids of every release without a formal guarantee (the
    summaries list only the newest)."""
    unguaranteed = unguaranteed_job_ids([r.user_id for r in rows])
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "user_id",
            "username",
            "epsilon_spent_exact",
            "delta",
            "basic_epsilon_sum",
            "basic_delta_sum",
            "epsilon_cap",
            "epsilon_remaining",
            "epsilon_including_pending",
            "pending_jobs",
            "epsilon_covers_releases",
            "d_privacy_releases",
            "other_notion_releases",
            "no_guarantee_releases",
            "no_guarantee_job_ids",
            "requires_formal_guarantee",
            "jobs",
            "last_activity",
        ]
    )
    for r in rows:
        s = r.summary
        writer.writerow(
            [
                r.user_id,
                r.username,
                _num(s.epsilon_spent),
                _num(s.delta),
                _num(s.basic_epsilon),
                _num(s.basic_delta),
                _num(s.epsilon_cap),
                _num(s.epsilon_remaining),
                _num(s.epsilon_committed),
                s.n_reserved_jobs,
                s.n_gaussian_releases,
                s.d_privacy_count,
                s.other_count,
                s.no_guarantee_count,
                " ".join(map(str, unguaranteed.get(r.user_id, ()))),
                int(s.require_formal_guarantee),
                r.n_jobs,
                r.last_activity.isoformat() if r.last_activity else "",
            ]
        )
    return out.getvalue()


@dataclass(frozen=True)
class Step:
    """A charged formally private release and the running sums after it (ε not solved yet)."""

    at: datetime
    mu_squared: float
    basic_epsilon: float
    job_id: int


# what the cumulative series reads of an entry
_SERIES_FIELDS = ("job_id", "status", "kind", "mu_squared", "basic_epsilon", "settled_at")


def cumulative_steps(user) -> list[Step]:  # type: ignore[no-untyped-def]
    """The user's charged formally private releases in time order, with running μ² and Σεᵢ.

    Reads only the columns the sums need (no ε solve), so a page can solve just its rows.
    """
    entries = (
        LedgerEntry.objects.filter(owner_id=user.pk, kind__in=LedgerEntry.CHARGEABLE)
        .exclude(status=LedgerEntry.Status.RELEASED)
        .select_related("job")
        .only(*_SERIES_FIELDS, "created_at", "job__state", "job__noised_release")
    )
    charged = [e for e in entries if effective_status(e) == LedgerEntry.Status.CHARGED]
    charged.sort(key=lambda e: (e.settled_at or e.created_at, e.pk))
    mu_squared = accumulate(e.mu_squared for e in charged)
    basic = accumulate(e.basic_epsilon for e in charged)
    return [
        Step(e.settled_at or e.created_at, mu, eps, e.job_id)
        for e, mu, eps in zip(charged, mu_squared, basic, strict=True)
    ]


def points_at(steps: Iterable[Step], delta: float) -> list[Point]:
    """Exact ε (at δ) after each step: one numerical solve per step."""
    return [
        Point(s.at, composed_epsilon(s.mu_squared, delta), s.basic_epsilon, s.job_id) for s in steps
    ]


def cumulative_points(user) -> list[Point]:  # type: ignore[no-untyped-def]
    """Exact and basic ε (at the user's cap δ) after each charged release, in time order."""
    return points_at(cumulative_steps(user), cap_for(user).delta_cap)


def chart_series(user) -> tuple[list[Point], int, list[Unguaranteed]]:  # type: ignore[no-untyped-def]
    """What the chart draws: the visible releases' ε (solved for those only), the number of
    formally private releases, and the releases without a guarantee."""
    steps = cumulative_steps(user)
    unguaranteed = unguaranteed_points(user)
    shown = visible_releases(
        [s.at.timestamp() for s in steps], [u.at.timestamp() for u in unguaranteed]
    )
    points = points_at([steps[i] for i in shown], cap_for(user).delta_cap)
    return points, len(steps), unguaranteed


def unguaranteed_points(user) -> list[Unguaranteed]:  # type: ignore[no-untyped-def]
    """The user's charged releases without a formal guarantee, in time order (chart marks)."""
    entries = [
        e
        for e in ledger_entries(user.pk)
        if e.kind == LedgerEntry.Kind.NONE and effective_status(e) == LedgerEntry.Status.CHARGED
    ]
    entries.sort(key=lambda e: (e.settled_at or e.created_at, e.pk))
    return [Unguaranteed(e.settled_at or e.created_at, e.job_id) for e in entries]


def entries_newest_first(user):  # type: ignore[no-untyped-def]
    """The user's ledger entries with their jobs' states, newest first (a paged table)."""
    entries = LedgerEntry.objects.filter(owner_id=user.pk).order_by("-created_at", "-pk")
    return with_job_states(entries)


def receipts_newest_first(user):  # type: ignore[no-untyped-def]
    """The user's receipts, newest first (a paged table)."""
    return Receipt.objects.filter(owner=user).order_by("-created_at", "-pk")


def unguaranteed_job_ids(user_ids: list[int]) -> dict[int, list[int]]:
    """Each user's charged releases without a formal guarantee, as job ids in time order."""
    entries = (
        LedgerEntry.objects.filter(owner_id__in=user_ids, kind=LedgerEntry.Kind.NONE)
        .exclude(status=LedgerEntry.Status.RELEASED)
        .select_related("job")
        .only("owner_id", "job_id", "status", "job__state", "job__noised_release")
        .order_by("created_at", "pk")
    )
    found: dict[int, list[int]] = {}
    for e in entries:
        if effective_status(e) == LedgerEntry.Status.CHARGED:
            found.setdefault(e.owner_id, []).append(e.job_id)
    return found


def _none_last(x: float | None) -> float:
    return math.inf if x is None else x


def _num(x: float | None) -> str:
    """12 significant digits: exact enough for any audit, without binary float noise
    (63.99999999999997 is 64)."""
    if x is None:
        return ""
    return "inf" if math.isinf(x) else f"{float(x):.12g}"
