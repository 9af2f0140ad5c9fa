"""Per-user privacy budget: caps, and one ledger entry per job (spec §2.4).

A job's entry is written when it is submitted (a reservation of its worst-case cost), turned
into a charge in the transaction that stores its receipt, or released if the job fails or is
cancelled before any noised output was released.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from webapp.jobs.models import RewriteJob


def validate_cap_epsilon(value: float | None) -> None:
    if value is not None and (math.isnan(value) or value <= 0):
        raise ValidationError("ε cap must be a number > 0 (leave empty for no cap).")


def validate_cap_delta(value: float) -> None:
    if math.isnan(value) or not 0 <= value < 1:
        raise ValidationError("δ cap must lie in [0, 1); 0 admits no Gaussian release.")


class CapFields(models.Model):
    """A cap (ε_B, δ_B) on the user's formally private (Gaussian) releases, and whether
    releases without a formal guarantee are admitted at all."""

    epsilon_cap = models.FloatField(
        "epsilon cap (ε)",  # Django capitalises labels: "ε cap" became "Ε cap"
        null=True,
        blank=True,
        validators=[validate_cap_epsilon],
        help_text="Empty: no cap. Spent ε is always reported at the δ below.",
    )
    delta_cap = models.FloatField("delta cap (δ)", validators=[validate_cap_delta])
    require_formal_guarantee = models.BooleanField(
        "refuse releases without a formal guarantee",
        default=False,
        help_text="Refuse redaction-only, ε = ∞, seeded and other runs whose receipt claims no "
        "formal privacy guarantee (the ε cap cannot bound them).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class DefaultBudget(CapFields):
    """The cap a user gets when their budget row is first created (a single row)."""

    class Meta:
        verbose_name = "default cap for new users"
        verbose_name_plural = "default cap for new users"
        constraints = [models.CheckConstraint(condition=Q(id=1), name="default_budget_singleton")]

    def __str__(self) -> str:
        return f"default cap ε={self.epsilon_cap}, δ={self.delta_cap}"

    @classmethod
    def current(cls) -> DefaultBudget:
        """The stored default, or the one from settings (DEFAULT_BUDGET_EPSILON/DELTA and
        DEFAULT_REQUIRE_FORMAL_GUARANTEE)."""
        stored = cls.objects.filter(pk=1).first()
        if stored is not None:
            return stored
        eps = settings.DEFAULT_BUDGET_EPSILON
        return cls(
            pk=1,
            epsilon_cap=None if math.isinf(eps) else eps,
            delta_cap=settings.DEFAULT_BUDGET_DELTA,
            require_formal_guarantee=getattr(settings, "DEFAULT_REQUIRE_FORMAL_GUARANTEE", False),
        )


class UserBudget(CapFields):
    """A user's cap. Its row is also the lock that serialises the user's reservations."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="budget"
    )

    class Meta:
        verbose_name = "user's privacy cap"

    def __str__(self) -> str:
        return f"cap of {self.user}"


class LedgerEntry(models.Model):
    """What one job costs: its Gaussian events (σ, Δ) and, for other notions, its own figures."""

    class Kind(models.TextChoices):
        GAUSSIAN = "gaussian", "Gaussian, (ε, δ)-DP"
        D_PRIVACY = "d-privacy", "Gaussian, d-privacy (charged at worst case Δ = 2C)"
        OTHER = "other", "other notion (not charged against the cap)"
        NONE = "none", "no formal guarantee"

    class Status(models.TextChoices):
        RESERVED = "reserved"
        CHARGED = "charged"
        RELEASED = "released"

    CHARGEABLE = (Kind.GAUSSIAN, Kind.D_PRIVACY)

    # one entry per job (a unique constraint), so a re-delivered task cannot charge twice
    job = models.OneToOneField(RewriteJob, on_delete=models.PROTECT, related_name="ledger_entry")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ledger_entries"
    )
    status = models.CharField(max_length=16, choices=Status.choices, db_index=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    mechanism = models.CharField(max_length=64)
    notion = models.TextField()
    # one {"sigma", "sensitivity"} per noised chunk; d-privacy events carry the worst-case Δ = 2C
    events = models.JSONField(default=list, blank=True)
    mu_squared = models.FloatField(default=0.0, help_text="Σ (Δ/σ)² over the events")
    epsilon = models.FloatField(null=True, blank=True, help_text="the receipt's own ε, if finite")
    delta = models.FloatField(null=True, blank=True)
    basic_epsilon = models.FloatField(
        default=0.0, help_text="what this release adds to the basic-composition sum Σεᵢ"
    )
    basic_delta = models.FloatField(default=0.0)
    metric_unit = models.FloatField(null=True, blank=True)
    n_chunks = models.PositiveIntegerField(default=0)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "ledger entries"
        constraints = [
            models.CheckConstraint(condition=Q(mu_squared__gte=0), name="ledger_mu_squared_gte_0"),
        ]
        indexes = [
            # the page cache's fingerprint (count and latest settling of charged entries),
            # read from the index alone
            models.Index(fields=["owner", "status", "settled_at"], name="ledger_owner_settled"),
            # budget summaries: per-kind sums and the newest releases of a kind
            models.Index(fields=["owner", "status", "kind", "created_at"], name="ledger_summary"),
        ]

    def __str__(self) -> str:
        return f"ledger entry for job {self.job_id} ({self.status})"
