"""Documents, rewrite jobs and their receipts; every row belongs to one user."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Document(models.Model):
    """A submitted text. Its text can be purged (by its owner or retention) while its jobs stay."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="documents"
    )
    name = models.CharField(max_length=255)
    source = models.CharField(max_length=16, default="paste")  # paste | txt | md | docx | pdf
    text = models.TextField(blank=True)
    sha256 = models.CharField(max_length=64)
    n_chars = models.PositiveIntegerField(default=0)
    # the uploaded .docx, kept (and purged) with the text to write the output in its format
    original_file = models.BinaryField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    purged_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # the history sorted by document name walks this index from its first page
            models.Index(fields=["owner", "name", "id"], name="document_owner_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_purged(self) -> bool:
        return self.purged_at is not None


class RewriteJob(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        CANCELLED = "cancelled"

    FINAL_STATES = (State.SUCCEEDED, State.FAILED, State.CANCELLED)

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="jobs"
    )
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="jobs")
    mechanism = models.CharField(max_length=64, db_index=True)
    # the broker queue the mechanism's registry entry names ("cpu" or "gpu")
    queue = models.CharField(max_length=16, default="cpu")
    settings = models.JSONField(default=dict)
    state = models.CharField(
        max_length=16, choices=State.choices, default=State.QUEUED, db_index=True
    )
    progress = models.FloatField(default=0.0)
    stage = models.CharField(max_length=128, default="queued")
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # times a worker claimed it; a claim after a lost worker is a new attempt
    attempts = models.PositiveIntegerField(default=0)
    # when its task message was last sent (the sweep rings again if the broker lost it)
    rung_at = models.DateTimeField(null=True, blank=True)
    cancel_requested = models.BooleanField(default=False)
    error = models.TextField(blank=True)
    output = models.TextField(blank=True)
    spans = models.JSONField(default=list, blank=True)
    epsilon = models.FloatField(null=True, blank=True)
    delta = models.FloatField(null=True, blank=True)
    n_chunks = models.PositiveIntegerField(null=True, blank=True)
    noised_release = models.BooleanField(default=False)
    pseudonym_set = models.ForeignKey(
        "PseudonymSet", null=True, blank=True, on_delete=models.SET_NULL, related_name="jobs"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # newest first with the pk tie-break, read backwards (and oldest first forwards)
            models.Index(fields=["owner", "created_at", "id"], name="job_owner_created"),
            # the document-name sort and search join documents from the index, not the rows
            models.Index(fields=["owner", "document", "id"], name="job_owner_document"),
            # the history table's other sorts (each with the pk tie-break) and filters
            models.Index(fields=["owner", "mechanism", "id"], name="job_owner_mechanism"),
            models.Index(fields=["owner", "epsilon", "id"], name="job_owner_epsilon"),
            models.Index(fields=["owner", "state", "id"], name="job_owner_state"),
            models.Index(fields=["owner", "n_chunks", "id"], name="job_owner_k"),
            # the sweep: queued jobs by queue and ring time, running jobs by heartbeat
            models.Index(fields=["state", "queue", "rung_at"], name="job_sweep_queued"),
            models.Index(fields=["state", "heartbeat_at"], name="job_sweep_running"),
        ]

    def __str__(self) -> str:
        return f"job {self.pk} ({self.mechanism}, {self.state})"

    @property
    def is_finished(self) -> bool:
        return self.state in self.FINAL_STATES

    @property
    def percent(self) -> int:
        return round(self.progress * 100)


class Receipt(models.Model):
    """The privacy receipt of a succeeded job. Append-only, hash-chained per user."""

    job = models.OneToOneField(RewriteJob, on_delete=models.PROTECT, related_name="receipt")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="receipts"
    )
    payload = models.JSONField()
    sha256 = models.CharField(max_length=64, unique=True)
    prev_sha256 = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "prev_sha256"],
                name="receipt_chain_has_no_forks",
                condition=~Q(prev_sha256=""),
            )
        ]

    def __str__(self) -> str:
        return f"receipt for job {self.job_id}"

    def save(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        if self.pk is not None and not self._state.adding:
            raise ValueError("receipts are append-only and cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise ValueError("receipts are append-only and cannot be deleted")


class Review(models.Model):
    """A person's review of the detections in a document before its rewrite (issue 13).

    `candidates` are the detection pass's spans (offsets, category, score, source; no text),
    `decisions` maps a candidate's index to accept/reject, `added` holds the spans the
    reviewer marked. Applying it creates the job, whose rewrite uses exactly these spans.
    """

    class State(models.TextChoices):
        DETECTING = "detecting"
        READY = "ready"
        APPLIED = "applied"
        FAILED = "failed"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews"
    )
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="reviews")
    settings = models.JSONField(default=dict)  # the user's settings (detector, lists, ...)
    pseudonym_set_name = models.CharField(max_length=64, blank=True)
    state = models.CharField(max_length=16, choices=State.choices, default=State.DETECTING)
    error = models.TextField(blank=True)
    candidates = models.JSONField(default=list, blank=True)
    decisions = models.JSONField(default=dict, blank=True)
    added = models.JSONField(default=list, blank=True)
    threshold = models.FloatField(default=0.0)
    job = models.OneToOneField(
        RewriteJob, null=True, blank=True, on_delete=models.SET_NULL, related_name="review"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    detected_at = models.DateTimeField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"review {self.pk} ({self.state})"


class ReplacementMapping(models.Model):
    """Replacement → original for a reversible operator, Fernet-encrypted; deleted with the
    original document."""

    job = models.OneToOneField(RewriteJob, on_delete=models.CASCADE, related_name="mapping")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    operator = models.CharField(max_length=16)
    n_entries = models.PositiveIntegerField(default=0)
    token = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"mapping for job {self.job_id}"


class OutputFile(models.Model):
    """The output in the original's format (.docx), written by the worker with the result."""

    job = models.OneToOneField(RewriteJob, on_delete=models.CASCADE, related_name="output_file")
    extension = models.CharField(max_length=8)
    content_type = models.CharField(max_length=128)
    data = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f".{self.extension} output of job {self.job_id}"


class PseudonymSet(models.Model):
    """A user's named set of documents that share numbered placeholders and fakes. Its
    memory is keyed by salted hashes of the strings, so it holds no original text."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pseudonym_sets"
    )
    name = models.CharField(max_length=64)
    memory_token = models.BinaryField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="pseudonym_set_name_per_user")
        ]

    def __str__(self) -> str:
        return self.name


class OperatorSecret(models.Model):
    """A user's secret salt for hashes (and for keying their pseudonym sets), encrypted."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="operator_secret"
    )
    token = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"salt of user {self.owner_id}"
