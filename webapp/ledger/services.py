"""The privacy ledger: reserve at submit, charge with the receipt, release on failure; summaries.

Admission (spec §2.4): a job is admitted only if μ²_spent + μ²_reserved + μ²_job ≤ μ_B².
The check and the reservation run in the submit transaction after locking the user's
`UserBudget` row: `SELECT ... FOR UPDATE` on PostgreSQL; on SQLite the transaction already
holds the database write lock (settings use `BEGIN IMMEDIATE`), and an UPDATE of the row
takes it in any transaction mode. So concurrent submissions of one user are serialised.

A reservation counts while its job is queued or running, or once a noised output was
released (`job.noised_release`); a failed or cancelled job without one costs nothing, even
when it ended through a path that does not call `release_reservation` (the stale-job reaper,
purging a document).

The charge never breaks the cap: `charge_job` runs in the transaction that stores the output,
and when the real cost is above the reservation (basic composition costs *more* at a smaller
K than planned) it re-checks the cap under the budget lock and raises `ChargeRefused`, so the
caller fails the job and stores no output. A user whose cap requires a formal guarantee gets
no release without one, at submission or at charge time. Every spent-ε figure covers the
formally private (Gaussian) releases only; summaries count them and list the others.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from typing import Any

from django.core.cache import caches
from django.db import connection
from django.db.models import Count, F, Max, Sum
from django.utils import timezone
from django.utils.text import Truncator

from anonymizer.accounting import composed_epsilon
from anonymizer.types import Receipt
from webapp.jobs.models import RewriteJob
from webapp.ledger import costs
from webapp.ledger.costs import ReleaseCost, fmt
from webapp.ledger.models import CapFields, DefaultBudget, LedgerEntry, UserBudget

log = logging.getLogger(__name__)
Status = LedgerEntry.Status
Kind = LedgerEntry.Kind
ACTIVE_STATES = (RewriteJob.State.QUEUED, RewriteJob.State.RUNNING)
# Releases of each non-Gaussian kind a page summary lists by job (the newest); counts and
# totals always cover all of them.
LISTED_RELEASES = 50
# The per-process cache of users' settled totals (settings.CACHES)
SUMMARY_CACHE = "summaries"


class BudgetExceeded(Exception):
    """The job's worst-case cost does not fit in what remains of the user's cap.

    The explanation (which searches for the largest ε that would fit) is worked out when it is
    first read, after the submit transaction has rolled back and released the budget lock.
    """

    def __init__(self, summary: BudgetSummary, cost: ReleaseCost, planned: Receipt) -> None:
        super().__init__()
        self.summary, self.cost, self.planned = summary, cost, planned

    @cached_property
    def after(self) -> BudgetAfter:
        return _after(self.summary, self.cost, self.planned)

    def __str__(self) -> str:
        return self.after.message


class ChargeRefused(Exception):
    """Charging this release would break the user's cap (or their formal-guarantee policy);
    the caller must fail the job without storing its output."""


@dataclass(frozen=True)
class Release:
    """One job in the lists kept apart from the Gaussian total."""

    job_id: int
    mechanism: str
    notion: str
    epsilon: float | None
    delta: float | None
    metric_unit: float | None
    n_chunks: int
    worst_case_epsilon: float  # d-privacy: ε against arbitrary documents (Δ = 2C)
    details: dict[str, Any]
    created_at: datetime
    # what a list says of it: the receipt's statement (else its notion), at most 160 characters;
    # truncated once here, not on every page (the budget box lists up to 50)
    statement: str = ""


@dataclass(frozen=True)
class NotionTotal:
    """Releases of one non-Gaussian notion, summed by basic composition."""

    notion: str
    n_jobs: int
    epsilon_sum: float


@dataclass(frozen=True)
class BudgetSummary:
    """A user's spent and remaining budget; every ε is at the cap's δ unless said otherwise."""

    epsilon_cap: float | None
    delta: float
    mu_squared_cap: float
    mu_squared_spent: float
    mu_squared_reserved: float
    n_reserved_jobs: int
    n_gaussian_releases: int
    basic_epsilon: float
    basic_delta: float
    d_privacy: list[Release] = field(default_factory=list)
    other: list[Release] = field(default_factory=list)
    no_guarantee: list[Release] = field(default_factory=list)
    require_formal_guarantee: bool = False
    # set when the lists above hold only the newest LISTED_RELEASES (aggregate summaries)
    n_d_privacy: int | None = None
    n_other: int | None = None
    n_no_guarantee: int | None = None
    notion_totals: tuple[NotionTotal, ...] | None = None

    @property
    def d_privacy_count(self) -> int:
        return len(self.d_privacy) if self.n_d_privacy is None else self.n_d_privacy

    @property
    def other_count(self) -> int:
        return len(self.other) if self.n_other is None else self.n_other

    @property
    def no_guarantee_count(self) -> int:
        return len(self.no_guarantee) if self.n_no_guarantee is None else self.n_no_guarantee

    @property
    def capped(self) -> bool:
        return not math.isinf(self.mu_squared_cap)

    @cached_property  # a numerical solve; pages read it several times
    def epsilon_spent(self) -> float:
        """Exact ε(δ) of all charged releases: get_epsilon_gaussian(1/μ, δ)."""
        return costs.epsilon_at(self.mu_squared_spent, self.delta)

    @cached_property  # a numerical solve; pages read it several times
    def epsilon_committed(self) -> float:
        """Exact ε(δ) including the reservations of queued and running jobs."""
        return costs.epsilon_at(self.mu_squared_spent + self.mu_squared_reserved, self.delta)

    @property
    def mu_squared_available(self) -> float:
        return self.mu_squared_cap - self.mu_squared_spent - self.mu_squared_reserved

    @cached_property  # a numerical solve; pages read it several times
    def epsilon_remaining(self) -> float | None:
        """The ε (at δ) one more release could still use; None without a cap."""
        if not self.capped:
            return None
        return costs.epsilon_at(max(self.mu_squared_available, 0.0), self.delta)

    @property
    def percent_used(self) -> int:
        """Share of the cap's μ² already spent or reserved (for a progress bar)."""
        if not self.capped:
            return 0
        if self.mu_squared_cap <= 0:
            return 100
        used = (self.mu_squared_spent + self.mu_squared_reserved) / self.mu_squared_cap
        return min(100, round(100 * used))

    @property
    def coverage(self) -> str:
        """What the spent-ε figure covers, and what it leaves out, in one line."""
        return coverage_note(
            self.n_gaussian_releases, self.no_guarantee, self.other_count, self.no_guarantee_count
        )

    @property
    def other_totals(self) -> list[NotionTotal]:
        if self.notion_totals is not None:
            return list(self.notion_totals)
        totals: dict[str, list[float]] = {}
        for release in self.other:
            totals.setdefault(release.notion, []).append(release.epsilon or 0.0)
        return [NotionTotal(n, len(eps), math.fsum(eps)) for n, eps in sorted(totals.items())]


@dataclass(frozen=True)
class BudgetAfter:
    """What a planned job would do to the user's budget (the live preview and the refusal)."""

    fits: bool
    chargeable: bool
    kind: str
    delta: float
    epsilon_cap: float | None
    epsilon_job: float  # this job alone, worst case, exact at δ
    epsilon_spent_after: float  # all releases incl. pending ones and this job
    epsilon_remaining_before: float | None
    epsilon_remaining_after: float | None
    largest_fitting_epsilon: float | None
    more_like_this: int | None  # how many more such jobs would fit after this one
    message: str
    coverage: str = ""  # what "spent after it" covers, and which releases it leaves out


def coverage_note(
    n_formal: int,
    no_guarantee: list[Release],
    n_other: int = 0,
    n_no_guarantee: int | None = None,
) -> str:
    """“covers N formally private releases; M without a guarantee (jobs …) are not in it”."""
    text = f"covers {n_formal} formally private release{'s' if n_formal != 1 else ''}"
    m = len(no_guarantee) if n_no_guarantee is None else n_no_guarantee
    if m:
        jobs = ", ".join(str(r.job_id) for r in no_guarantee[:20])
        more = f" and {m - 20} more" if m > 20 else ""
        text += (
            f"; {m} release{'s' if m != 1 else ''} without a formal guarantee "
            f"(job{'s' if m != 1 else ''} {jobs}{more}) {'are' if m != 1 else 'is'} not in it"
        )
    if n_other:
        plural = "s" if n_other != 1 else ""
        text += f"; {n_other} token-level release{plural} (their own notion) listed apart"
    return text


# --- lifecycle (called by webapp.jobs.services) ----------------------------------------


def reserve_for_job(job: RewriteJob, planned: Receipt) -> LedgerEntry:
    """Check the job's worst-case cost against the cap and reserve it, atomically.

    Call inside the transaction that creates the job; raises BudgetExceeded (and so rolls
    the job back) if it does not fit.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("reserve_for_job must run inside the job's transaction")
    cost = costs.release_cost(planned)
    if _needs_admission(cost):
        summary = _aggregate_summary(_lock_budget(job.owner), job.owner_id)
        if not _fits(summary, cost):
            raise BudgetExceeded(summary, cost, planned)
    entry = LedgerEntry.objects.create(
        job=job, owner_id=job.owner_id, status=Status.RESERVED, **_entry_fields(cost)
    )
    log.info("job %s reserved μ²=%.6g (%s)", job.pk, cost.mu_squared, cost.kind)
    return entry


class BatchBudgetExceeded(BudgetExceeded):
    """Not every job of a batch fits: only the first `n_fit` would; nothing was reserved.

    `summary` is the budget before the batch; `cost` and `planned` are the first job that
    does not fit after the ones before it.
    """

    def __init__(  # type: ignore[no-untyped-def]
        self, summary, cost, planned, *, n_fit: int, n_total: int
    ) -> None:
        super().__init__(summary, cost, planned)
        self.n_fit, self.n_total = n_fit, n_total

    def __str__(self) -> str:
        head = f"The batch of {self.n_total} documents was not submitted:"
        if self.n_fit == 0:
            return f"{head} not even the first fits. {super().__str__()}"
        delta = self.summary.delta
        return (
            f"{head} what remains of your privacy budget (ε = "
            f"{fmt(self.summary.epsilon_remaining)} at δ = {fmt(delta)}) takes only "
            f"{self.n_fit} of them; each needs up to ε = "
            f"{fmt(composed_epsilon(self.cost.mu_squared, delta))} at that δ. Submit at most "
            f"{self.n_fit} documents, lower ε, or ask an administrator to raise your cap."
        )


def reserve_for_jobs(jobs: list[RewriteJob], planned: list[Receipt]) -> list[LedgerEntry]:
    """Admit and reserve several jobs of one user together, under one lock: all or none.

    Each job is checked with the same rule as `reserve_for_job`, counting the jobs before it
    as reserved; raises BatchBudgetExceeded (rolling the batch back) at the first that does
    not fit.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("reserve_for_jobs must run inside the jobs' transaction")
    if len(jobs) != len(planned) or len({j.owner_id for j in jobs}) > 1:
        raise ValueError("one planned receipt per job, all jobs of one user")
    job_costs = [costs.release_cost(p) for p in planned]
    if jobs and any(_needs_admission(c) for c in job_costs):
        before = _aggregate_summary(_lock_budget(jobs[0].owner), jobs[0].owner_id)
        summary = before
        for index, (cost, receipt) in enumerate(zip(job_costs, planned, strict=True)):
            if not _fits(summary, cost):
                raise BatchBudgetExceeded(before, cost, receipt, n_fit=index, n_total=len(jobs))
            summary = _with_reservation(summary, cost)
    entries = LedgerEntry.objects.bulk_create(
        LedgerEntry(job=job, owner_id=job.owner_id, status=Status.RESERVED, **_entry_fields(cost))
        for job, cost in zip(jobs, job_costs, strict=True)
    )
    log.info("jobs %s reserved together", [j.pk for j in jobs])
    return entries


def _needs_admission(cost: ReleaseCost) -> bool:
    """Whether a release is checked against the user's cap and policy (other notions are
    always admitted, so they need no lock)."""
    return cost.chargeable or cost.kind == Kind.NONE


def _with_reservation(summary: BudgetSummary, cost: ReleaseCost) -> BudgetSummary:
    if not cost.chargeable:
        return summary
    return replace(
        summary,
        mu_squared_reserved=summary.mu_squared_reserved + cost.mu_squared,
        n_reserved_jobs=summary.n_reserved_jobs + 1,
    )


def charge_job(job: RewriteJob, receipt: Receipt) -> LedgerEntry:
    """Record the receipt's events as spent; run it in the transaction that stores the receipt.

    Raises ChargeRefused, before anything is written, when the release would break the cap
    (its cost exceeds its reservation and the rest of the cap cannot take the difference) or
    the user's policy refuses releases without a formal guarantee. Idempotent: an entry
    already charged is left as it is.
    """
    cost = costs.release_cost(receipt)
    now = timezone.now()
    entry = LedgerEntry.objects.select_for_update().filter(job=job).first()
    if entry is not None and entry.status == Status.CHARGED:
        log.warning("job %s is already charged; not charging again", job.pk)
        return entry
    reserved = entry.mu_squared if entry is not None and entry.status == Status.RESERVED else 0
    _recheck_at_charge(job, cost, reserved)
    if entry is None:  # a job that was never reserved (created outside submit_job)
        return LedgerEntry.objects.create(
            job=job,
            owner_id=job.owner_id,
            status=Status.CHARGED,
            settled_at=now,
            **_entry_fields(cost),
        )
    fields = _entry_fields(cost)
    for name, value in fields.items():
        setattr(entry, name, value)
    entry.status, entry.settled_at = Status.CHARGED, now
    entry.save(update_fields=[*fields, "status", "settled_at"])
    return entry


def _recheck_at_charge(job: RewriteJob, cost: ReleaseCost, reserved_mu_squared: float) -> None:
    """Refuse a charge the cap or the policy cannot take (see charge_job)."""
    over = cost.chargeable and cost.mu_squared > reserved_mu_squared * (1 + 1e-9)
    if not over and cost.kind != Kind.NONE:
        return
    if over:
        log.warning(
            "job %s costs μ²=%.6g, more than its reservation %.6g: re-checking the cap",
            job.pk,
            cost.mu_squared,
            reserved_mu_squared,
        )
    budget = _lock_budget(job.owner)
    summary = _aggregate_summary(budget, job.owner_id, exclude_job_id=job.pk)
    if _fits(summary, cost):
        return
    if cost.kind == Kind.NONE:
        raise ChargeRefused(
            "Not released: this rewrite carries no formal privacy guarantee "
            f"({cost.notion}), and your account only admits releases with one."
        )
    raise ChargeRefused(
        f"Not released: this rewrite's real cost (K = {cost.n_chunks} chunks, ε = "
        f"{fmt(composed_epsilon(cost.mu_squared, summary.delta))} at δ = {fmt(summary.delta)}) "
        "is above what was reserved for it, and the rest of your cap cannot take it "
        f"(ε = {fmt(summary.epsilon_remaining)} remains of ε = {fmt(summary.epsilon_cap)}). "
        "Nothing was stored or charged; resubmit with a smaller ε."
    )


def release_reservation(job_id: int) -> None:
    """End a failed or cancelled job's reservation: released, or charged if noise went out."""
    noised = RewriteJob.objects.filter(pk=job_id, noised_release=True).exists()
    LedgerEntry.objects.filter(job_id=job_id, status=Status.RESERVED).update(
        status=Status.CHARGED if noised else Status.RELEASED, settled_at=timezone.now()
    )


# --- caps -----------------------------------------------------------------------------


def ensure_budget(user) -> UserBudget:  # type: ignore[no-untyped-def]
    """The user's cap row, created from the current default on first use."""
    default = DefaultBudget.current()
    budget, _ = UserBudget.objects.get_or_create(
        user=user,
        defaults={
            "epsilon_cap": default.epsilon_cap,
            "delta_cap": default.delta_cap,
            "require_formal_guarantee": default.require_formal_guarantee,
        },
    )
    return budget


def cap_for(user) -> CapFields:  # type: ignore[no-untyped-def]
    """The user's cap without creating a row (the default if they have none yet)."""
    return UserBudget.objects.filter(user=user).first() or DefaultBudget.current()


def _lock_budget(user) -> UserBudget:  # type: ignore[no-untyped-def]
    budget = ensure_budget(user)
    if connection.features.has_select_for_update:
        return UserBudget.objects.select_for_update().get(pk=budget.pk)
    # SQLite has no row locks: a write takes the database lock until commit
    # (already held under BEGIN IMMEDIATE; this makes DEFERRED transactions safe too).
    UserBudget.objects.filter(pk=budget.pk).update(delta_cap=F("delta_cap"))
    return budget


# --- summaries --------------------------------------------------------------------------


def budget_summary(user) -> BudgetSummary:  # type: ignore[no-untyped-def]
    """The user's spent (exact and basic), reserved and remaining budget, and other notions.

    Computed in the database (a few aggregate queries, whatever the number of jobs); the
    lists of non-Gaussian releases hold the newest LISTED_RELEASES, their counts cover all.
    """
    settled, reserving = _cached_settled_totals([user.pk])
    pending = None if user.pk in reserving else []
    return _aggregate_summary(cap_for(user), user.pk, settled=settled[user.pk], pending=pending)


def remaining_after(user, planned: Receipt) -> BudgetAfter:  # type: ignore[no-untyped-def]
    """What would remain after the planned job, or why it would not be admitted."""
    return _after(budget_summary(user), costs.release_cost(planned), planned)


def summaries_for_users(user_ids: Iterable[int]) -> dict[int, BudgetSummary]:
    """Summaries of many users (the audit table), from the same aggregates and cache as a
    page's: a fixed number of queries, plus the sums of users whose charged entries changed."""
    ids = list(user_ids)
    caps: dict[int, CapFields] = {b.user_id: b for b in UserBudget.objects.filter(user_id__in=ids)}
    default = DefaultBudget.current()
    settled, reserving = _cached_settled_totals(ids)
    pending: dict[int, list[LedgerEntry]] = {i: [] for i in ids}
    if reserving:
        for entry in _pending_entries(LedgerEntry.objects.filter(owner_id__in=reserving)):
            pending[entry.owner_id].append(entry)
    return {
        i: _aggregate_summary(caps.get(i, default), i, settled=settled[i], pending=pending[i])
        for i in ids
    }


def effective_status(entry: LedgerEntry) -> str:
    """Whether an entry is spent, still reserved, or released, from its job's state."""
    if entry.status != Status.RESERVED:
        return entry.status
    if entry.job.noised_release or entry.job.state == RewriteJob.State.SUCCEEDED:
        return Status.CHARGED
    if entry.job.state in ACTIVE_STATES:
        return Status.RESERVED
    return Status.RELEASED


def _aggregate_summary(
    cap: CapFields,
    owner_id: int,
    exclude_job_id: int | None = None,
    settled: SettledTotals | None = None,
    pending: list[LedgerEntry] | None = None,
) -> BudgetSummary:
    """The same figures as `_summarise`, summed by the database instead of row by row.

    Charged entries are summed per kind in one GROUP BY without touching the jobs (or come
    from `settled`, the page cache's copy of those sums); only entries still marked reserved
    (a user's few queued or running jobs) are read with their job to work out their
    effective status.
    """
    entries = LedgerEntry.objects.filter(owner_id=owner_id)
    if exclude_job_id is not None:
        entries = entries.exclude(job_id=exclude_job_id)
    if settled is None:
        settled = _settled_totals(entries)
    if pending is None:
        pending = _pending_entries(entries)
    sums = settled.sums
    spent = [sums[k][1] for k in LedgerEntry.CHARGEABLE if k in sums]
    basic_eps = [sums[k][2] for k in LedgerEntry.CHARGEABLE if k in sums]
    basic_delta = [sums[k][3] for k in LedgerEntry.CHARGEABLE if k in sums]
    n_spent = sum(sums[k][0] for k in LedgerEntry.CHARGEABLE if k in sums)
    counts = {kind: sums[kind][0] if kind in sums else 0 for kind in _LISTED_KINDS}
    reserved: list[float] = []
    pending_charged: list[LedgerEntry] = []
    for entry in pending:
        status = effective_status(entry)
        if status == Status.RESERVED and entry.kind in LedgerEntry.CHARGEABLE:
            reserved.append(entry.mu_squared)
        elif status == Status.CHARGED:
            pending_charged.append(entry)
            if entry.kind in LedgerEntry.CHARGEABLE:
                spent.append(entry.mu_squared)
                basic_eps.append(entry.basic_epsilon)
                basic_delta.append(entry.basic_delta)
                n_spent += 1
            if entry.kind in counts:
                counts[entry.kind] += 1
    listed = {
        kind: _newest_releases(
            settled.newest.get(kind, ()), [e for e in pending_charged if e.kind == kind]
        )
        for kind in _LISTED_KINDS
    }
    return BudgetSummary(
        epsilon_cap=cap.epsilon_cap,
        delta=cap.delta_cap,
        mu_squared_cap=costs.cap_mu_squared(cap.epsilon_cap, cap.delta_cap),
        mu_squared_spent=math.fsum(spent),
        mu_squared_reserved=math.fsum(reserved),
        n_reserved_jobs=len(reserved),
        n_gaussian_releases=n_spent,
        basic_epsilon=math.fsum(basic_eps),
        basic_delta=math.fsum(basic_delta),
        d_privacy=listed[Kind.D_PRIVACY],
        other=listed[Kind.OTHER],
        no_guarantee=listed[Kind.NONE],
        require_formal_guarantee=cap.require_formal_guarantee,
        n_d_privacy=counts[Kind.D_PRIVACY],
        n_other=counts[Kind.OTHER],
        n_no_guarantee=counts[Kind.NONE],
        notion_totals=_notion_totals(settled.notions, pending_charged)
        if counts[Kind.OTHER]
        else (),
    )


# A listed release with the (created_at, pk) of its entry, the order the lists keep.
_Listed = tuple[tuple[datetime, int], Release]


@dataclass(frozen=True)
class SettledTotals:
    """What a user's charged entries add up to, per kind, and the newest of each listed kind.

    An entry never changes once charged and is never deleted, so these only grow; a copy is
    current while the user's charged entries keep the same `fingerprint` (their count and
    latest settling time). Code that rewrites charged entries in place (a data migration)
    must call `forget_settled_totals`; `migrate` does it, and processes started after a
    migration begin with an empty cache.
    """

    fingerprint: tuple[int, datetime | None]
    sums: dict[str, tuple[int, float, float, float]]  # kind: (n, Σμ², Σε_basic, Σδ_basic)
    newest: dict[str, tuple[_Listed, ...]]
    notions: dict[str, tuple[int, float]]  # other notions: (n, Σε)


def _settled_totals(entries) -> SettledTotals:  # type: ignore[no-untyped-def]
    charged = entries.filter(status=Status.CHARGED)
    rows = list(
        charged.values("kind")
        .annotate(n=Count("pk"), mu=Sum("mu_squared"), eps=Sum("basic_epsilon"))
        .annotate(dlt=Sum("basic_delta"), last=Max("settled_at"))
        .order_by()
    )
    sums = {row["kind"]: (row["n"], row["mu"], row["eps"], row["dlt"]) for row in rows}
    lasts = [row["last"] for row in rows if row["last"] is not None]
    newest = {
        kind: tuple(
            ((e.created_at, e.pk), _release(e))
            for e in charged.filter(kind=kind)
            .defer("events")
            .order_by("-created_at", "-pk")[:LISTED_RELEASES]
        )
        for kind in _LISTED_KINDS
        if kind in sums
    }
    notions = {
        row["notion"]: (row["n"], row["eps"] or 0.0)
        for row in charged.filter(kind=Kind.OTHER)
        .values("notion")
        .annotate(n=Count("pk"), eps=Sum("epsilon"))
        .order_by()
    }
    fingerprint = (sum(row["n"] for row in rows), max(lasts, default=None))
    return SettledTotals(fingerprint, sums, newest, notions)


def with_job_states(entries):  # type: ignore[no-untyped-def]
    """Entries with the job fields `effective_status` needs, without the large ones (spans,
    outputs) or the entries' event logs."""
    return entries.select_related("job").defer(
        "events", *(f"job__{name}" for name in _LARGE_JOB_FIELDS)
    )


def forget_settled_totals(**_: object) -> None:
    """Empty this process's cache of settled totals (also a `post_migrate` receiver)."""
    caches[SUMMARY_CACHE].clear()


def _pending_entries(entries) -> list[LedgerEntry]:  # type: ignore[no-untyped-def]
    """Entries still marked reserved, with the job state their effective status needs."""
    return list(with_job_states(entries.filter(status=Status.RESERVED)))


def _cached_settled_totals(owner_ids: list[int]) -> tuple[dict[int, SettledTotals], set[int]]:
    """The users' settled totals from this process's cache where their fingerprint matches,
    and which of the users have entries still marked reserved.

    One index-only query (per user, the count and latest settling time of the charged
    entries, and whether any are still reserved) instead of the sums and lists over every
    entry; a charge made anywhere changes the fingerprint, and only the users whose
    fingerprint changed are summed again. A user without reserved entries needs no query
    for pending ones: on PostgreSQL every round trip to the server counts on a busy machine.
    """
    now: dict[int, tuple[int, datetime | None]] = {}
    reserving: set[int] = set()
    for row in (
        LedgerEntry.objects.filter(
            owner_id__in=owner_ids, status__in=(Status.CHARGED, Status.RESERVED)
        )
        .values("owner_id", "status")
        .annotate(n=Count("*"), last=Max("settled_at"))
        .order_by()
    ):
        if row["status"] == Status.CHARGED:
            now[row["owner_id"]] = (row["n"], row["last"])
        else:
            reserving.add(row["owner_id"])
    cache = caches[SUMMARY_CACHE]
    keys = {owner_id: f"settled:{owner_id}:{LISTED_RELEASES}" for owner_id in owner_ids}
    hits = cache.get_many(keys.values())
    totals: dict[int, SettledTotals] = {}
    for owner_id, key in keys.items():
        hit = hits.get(key)
        if hit is not None and hit.fingerprint == now.get(owner_id, (0, None)):
            totals[owner_id] = hit
        else:
            totals[owner_id] = _settled_totals(LedgerEntry.objects.filter(owner_id=owner_id))
            cache.set(key, totals[owner_id])
    return totals, reserving


def _newest_releases(newest: tuple[_Listed, ...], pending: list[LedgerEntry]) -> list[Release]:
    """The newest LISTED_RELEASES charged releases of a kind, oldest first like the full lists."""
    merged = sorted(
        [*newest, *(((e.created_at, e.pk), _release(e)) for e in pending)], key=lambda x: x[0]
    )
    return [release for _, release in merged[-LISTED_RELEASES:]]


def _notion_totals(
    settled: dict[str, tuple[int, float]], pending: list[LedgerEntry]
) -> tuple[NotionTotal, ...]:
    totals: dict[str, list[float]] = {}
    counts: dict[str, int] = {}
    for notion, (n, eps) in settled.items():
        totals.setdefault(notion, []).append(eps)
        counts[notion] = counts.get(notion, 0) + n
    for entry in pending:
        if entry.kind == Kind.OTHER:
            totals.setdefault(entry.notion, []).append(entry.epsilon or 0.0)
            counts[entry.notion] = counts.get(entry.notion, 0) + 1
    return tuple(NotionTotal(n, counts[n], math.fsum(totals[n])) for n in sorted(totals))


_LISTED_KINDS = (Kind.D_PRIVACY, Kind.OTHER, Kind.NONE)
# what a summary never reads of a pending entry's job (effective_status needs its state)
_LARGE_JOB_FIELDS = ("spans", "output", "settings", "error")


def _entry_query():  # type: ignore[no-untyped-def]
    return LedgerEntry.objects.select_related("job").order_by("created_at", "pk")


def ledger_entries(user_id: int) -> list[LedgerEntry]:
    """The user's entries with their jobs, oldest first."""
    return list(_entry_query().filter(owner_id=user_id))


def _summarise(cap: CapFields, entries: Iterable[LedgerEntry]) -> BudgetSummary:
    spent: list[float] = []
    reserved: list[float] = []
    basic_eps: list[float] = []
    basic_delta: list[float] = []
    lists: dict[str, list[Release]] = {Kind.D_PRIVACY: [], Kind.OTHER: [], Kind.NONE: []}
    for entry in entries:
        status = effective_status(entry)
        if status == Status.RESERVED and entry.kind in LedgerEntry.CHARGEABLE:
            reserved.append(entry.mu_squared)
        if status != Status.CHARGED:
            continue
        if entry.kind in LedgerEntry.CHARGEABLE:
            spent.append(entry.mu_squared)
            basic_eps.append(entry.basic_epsilon)
            basic_delta.append(entry.basic_delta)
        if entry.kind in lists:
            lists[entry.kind].append(_release(entry))
    return BudgetSummary(
        epsilon_cap=cap.epsilon_cap,
        delta=cap.delta_cap,
        mu_squared_cap=costs.cap_mu_squared(cap.epsilon_cap, cap.delta_cap),
        mu_squared_spent=math.fsum(spent),
        mu_squared_reserved=math.fsum(reserved),
        n_reserved_jobs=len(reserved),
        n_gaussian_releases=len(spent),
        basic_epsilon=math.fsum(basic_eps),
        basic_delta=math.fsum(basic_delta),
        d_privacy=lists[Kind.D_PRIVACY],
        other=lists[Kind.OTHER],
        no_guarantee=lists[Kind.NONE],
        require_formal_guarantee=cap.require_formal_guarantee,
    )


def _release(entry: LedgerEntry) -> Release:
    return Release(
        job_id=entry.job_id,
        mechanism=entry.mechanism,
        notion=entry.notion,
        epsilon=entry.epsilon,
        delta=entry.delta,
        metric_unit=entry.metric_unit,
        n_chunks=entry.n_chunks,
        worst_case_epsilon=entry.basic_epsilon,
        details=entry.details,
        created_at=entry.created_at,
        statement=Truncator(_statement(entry) or entry.notion).chars(160),
    )


def _statement(entry: LedgerEntry) -> str:
    details = entry.details if isinstance(entry.details, dict) else {}
    return str(details.get("statement") or "")


def _entry_fields(cost: ReleaseCost) -> dict[str, Any]:
    return {
        "kind": cost.kind,
        "mechanism": cost.mechanism,
        "notion": cost.notion,
        "events": [e.to_dict() for e in cost.events],
        "mu_squared": cost.mu_squared,
        "epsilon": cost.epsilon,
        "delta": cost.delta,
        "basic_epsilon": cost.basic_epsilon,
        "basic_delta": cost.basic_delta,
        "metric_unit": cost.metric_unit,
        "n_chunks": cost.n_chunks,
        "details": cost.details,
    }


# --- admission --------------------------------------------------------------------------


def _fits(summary: BudgetSummary, cost: ReleaseCost) -> bool:
    """Admit iff μ²_spent + μ²_reserved + μ²_job ≤ μ_B²; a release without a formal guarantee
    iff the user's policy allows it; releases under other notions always."""
    if cost.kind == Kind.NONE:
        return not summary.require_formal_guarantee
    committed = summary.mu_squared_spent + summary.mu_squared_reserved
    return not cost.chargeable or committed + cost.mu_squared <= summary.mu_squared_cap


def _after(summary: BudgetSummary, cost: ReleaseCost, planned: Receipt) -> BudgetAfter:
    delta = summary.delta
    committed = summary.mu_squared_spent + summary.mu_squared_reserved
    job_mu2 = cost.mu_squared
    fits = _fits(summary, cost)
    remaining_before = summary.epsilon_remaining
    remaining_after = None
    if summary.capped and fits:
        remaining_after = composed_epsilon(
            max(summary.mu_squared_cap - committed - job_mu2, 0), delta
        )
    more = None
    if summary.capped and fits and cost.chargeable and job_mu2 > 0:
        more = math.floor((summary.mu_squared_cap - committed - job_mu2) / job_mu2)
    largest = None
    if not fits:
        largest = costs.largest_fitting_epsilon(planned, summary.mu_squared_available)
    after = BudgetAfter(
        fits=fits,
        chargeable=cost.chargeable,
        kind=cost.kind,
        delta=delta,
        epsilon_cap=summary.epsilon_cap,
        epsilon_job=composed_epsilon(job_mu2, delta),
        epsilon_spent_after=composed_epsilon(committed + (job_mu2 if fits else 0.0), delta),
        epsilon_remaining_before=remaining_before,
        epsilon_remaining_after=remaining_after,
        largest_fitting_epsilon=largest,
        more_like_this=more,
        message="",
    )
    return _with_message(after, summary, cost)


def _with_message(after: BudgetAfter, summary: BudgetSummary, cost: ReleaseCost) -> BudgetAfter:
    d = fmt(after.delta)
    coverage = _committed_coverage(summary, int(cost.chargeable and after.fits))
    if cost.kind == Kind.OTHER:
        text = (
            f"This release has its own notion ({cost.notion}); it is listed separately in "
            "your ledger and costs nothing against your (ε, δ) cap."
        )
    elif cost.kind == Kind.NONE and not after.fits:
        text = (
            "Refused: your account only admits releases with a formal privacy guarantee (an "
            f"administrator set this), and this one would carry none ({cost.notion})."
        )
    elif cost.kind == Kind.NONE:
        m = summary.no_guarantee_count + 1
        text = (
            f"This release carries no formal privacy guarantee ({cost.notion}); it costs "
            "nothing against your (ε, δ) cap, which does not bound it. It is listed in your "
            f"ledger as release number {m} without a formal guarantee; your spent "
            f"ε = {fmt(summary.epsilon_committed)} {coverage}, and does not include it."
        )
    elif after.fits:
        pending = _pending_note(summary)
        worst = (
            " It is charged at its worst case (distance 2C), because its d-privacy ε "
            "is not comparable with worst-case DP."
            if cost.kind == Kind.D_PRIVACY
            else ""
        )
        if summary.capped:
            text = (
                f"This job uses ε = {fmt(after.epsilon_job)} at δ = {d}. After it your "
                f"releases total ε = {fmt(after.epsilon_spent_after)}{pending} (exact "
                f"composition; this figure {coverage}); "
                f"ε = {fmt(after.epsilon_remaining_after)} will remain of your "
                f"cap ε = {fmt(summary.epsilon_cap)} at δ = {d}, enough for "
                f"{after.more_like_this} more job{'s' if after.more_like_this != 1 else ''} "
                f"like this.{worst}"
            )
        else:
            text = (
                f"No cap is set. After this job your releases total "
                f"ε = {fmt(after.epsilon_spent_after)} at δ = {d}{pending} "
                f"(exact composition; this figure {coverage}).{worst}"
            )
    else:
        text = _refusal(after, summary, cost)
    return BudgetAfter(**{**after.__dict__, "message": text, "coverage": coverage})


def _refusal(after: BudgetAfter, summary: BudgetSummary, cost: ReleaseCost) -> str:
    d = fmt(after.delta)
    head = (
        f"Not enough privacy budget left for this job. Your cap is "
        f"ε = {fmt(summary.epsilon_cap)} at δ = {d}; your releases total "
        f"ε = {fmt(summary.epsilon_committed)}{_pending_note(summary)} (exact composition; "
        f"this figure {_committed_coverage(summary)})."
    )
    chunks = f"K = {cost.n_chunks} chunk{'s' if cost.n_chunks != 1 else ''}"
    if after.largest_fitting_epsilon is None:
        return (
            f"{head} Nothing usable remains: not even ε = {costs.SMALLEST_EPSILON_TRIED:g} "
            f"fits at {chunks}. An administrator can raise your cap."
        )
    return (
        f"{head} What remains allows one more release of "
        f"ε = {fmt(after.epsilon_remaining_before)} at δ = {d}; this job needs "
        f"ε = {fmt(after.epsilon_job)} at that δ ({chunks}). At K = {cost.n_chunks} it fits "
        f"with ε ≤ {fmt(after.largest_fitting_epsilon)} (δ = {fmt(cost.delta)}, same "
        f"composition, clip radius{' and unit u' if cost.metric_unit is not None else ''})."
    )


def _committed_coverage(summary: BudgetSummary, extra: int = 0) -> str:
    """What a committed figure (charged + pending, + `extra` planned) covers."""
    n = summary.n_gaussian_releases + summary.n_reserved_jobs + extra
    return coverage_note(n, summary.no_guarantee, n_no_guarantee=summary.no_guarantee_count)


def _pending_note(summary: BudgetSummary) -> str:
    n = summary.n_reserved_jobs
    if not n:
        return ""
    jobs = "1 queued or running job" if n == 1 else f"{n} queued or running jobs"
    return f", including {jobs} (returned on failure or cancellation)"
