"""Figures for the staff audit pages: one row per user, sorting, CSV, the cumulative series."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Count, Max

from anonymizer.accounting import composed_epsilon
from webapp.ledger.chart import Point, Unguaranteed
from webapp.ledger.models import LedgerEntry
from webapp.ledger.services import (
    BudgetSummary,
    cap_for,
    effective_status,
    ledger_entries,
    summaries_for_users,
)

SORTS = {
    "user": lambda r: r.username.lower(),
    "spent": lambda r: r.summary.epsilon_spent,
    "formal": lambda r: r.summary.n_gaussian_releases,
    "unguaranteed": lambda r: len(r.summary.no_guarantee),
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
                len(s.d_privacy),
                len(s.other),
                len(s.no_guarantee),
                " ".join(str(r.job_id) for r in s.no_guarantee),
                int(s.require_formal_guarantee),
                r.n_jobs,
                r.last_activity.isoformat() if r.last_activity else "",
            ]
        )
    return out.getvalue()


def cumulative_points(user) -> list[Point]:  # type: ignore[no-untyped-def]
    """Exact and basic ε (at the user's cap δ) after each charged release, in time order."""
    delta = cap_for(user).delta_cap
    charged = [
        e
        for e in ledger_entries(user.pk)
        if e.kind in LedgerEntry.CHARGEABLE and effective_status(e) == LedgerEntry.Status.CHARGED
    ]
    charged.sort(key=lambda e: (e.settled_at or e.created_at, e.pk))
    mu_squared: list[float] = []
    basic: list[float] = []
    points = []
    for e in charged:
        mu_squared.append(e.mu_squared)
        basic.append(e.basic_epsilon)
        points.append(
            Point(
                e.settled_at or e.created_at,
                composed_epsilon(math.fsum(mu_squared), delta),
                math.fsum(basic),
                e.job_id,
            )
        )
    return points


def unguaranteed_points(user) -> list[Unguaranteed]:  # type: ignore[no-untyped-def]
    """The user's charged releases without a formal guarantee, in time order (chart marks)."""
    entries = [
        e
        for e in ledger_entries(user.pk)
        if e.kind == LedgerEntry.Kind.NONE and effective_status(e) == LedgerEntry.Status.CHARGED
    ]
    entries.sort(key=lambda e: (e.settled_at or e.created_at, e.pk))
    return [Unguaranteed(e.settled_at or e.created_at, e.job_id) for e in entries]


def _none_last(x: float | None) -> float:
    return math.inf if x is None else x


def _num(x: float | None) -> str:
    """12 significant digits: exact enough for any audit, without binary float noise
    (63.99999999999997 is 64)."""
    if x is None:
        return ""
    return "inf" if math.isinf(x) else f"{float(x):.12g}"
