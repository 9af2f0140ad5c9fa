"""A named batch: several documents submitted together, one ordinary job (with its own receipt
and ledger entry) per document. The batch only groups the jobs; it owns nothing else."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from webapp.jobs.models import RewriteJob


class Batch(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="batches"
    )
    name = models.CharField(max_length=255)
    mechanism = models.CharField(max_length=64)
    settings = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "batches"
        indexes = [models.Index(fields=["owner", "-created_at"])]

    def __str__(self) -> str:
        return f"batch {self.pk} “{self.name}”"


class BatchItem(models.Model):
    """One document of a batch: its place and name in the upload, and its job."""

    batch = models.ForeignKey(Batch, on_delete=models.CASCADE, related_name="items")
    job = models.OneToOneField(RewriteJob, on_delete=models.CASCADE, related_name="batch_item")
    position = models.PositiveIntegerField()
    filename = models.CharField(max_length=255)

    class Meta:
        ordering = ["batch", "position"]
        constraints = [
            models.UniqueConstraint(fields=["batch", "position"], name="batch_item_position")
        ]

    def __str__(self) -> str:
        return f"{self.filename} (batch {self.batch_id}, job {self.job_id})"
