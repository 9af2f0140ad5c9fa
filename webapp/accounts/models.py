"""Invites (one-time links that let a person set their own password) and personal API tokens.

Both hold a secret that is shown once and stored only as its SHA-256: the secrets are 256-bit
random strings, so a fast hash is enough (no password-stretching needed) and a leaked
database gives no usable link or token.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class Invite(models.Model):
    """A one-time link for `username`; accepting it creates the account with the password set."""

    username = models.CharField(max_length=150)
    email = models.EmailField(blank=True)
    is_staff = models.BooleanField(default=False)
    token_sha256 = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invites_sent",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invite",
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["username"],
                condition=Q(accepted_at__isnull=True, revoked_at__isnull=True),
                name="one_open_invite_per_username",
            )
        ]

    def __str__(self) -> str:
        return f"invite for {self.username} ({self.status})"

    @property
    def status(self) -> str:
        if self.accepted_at:
            return "accepted"
        if self.revoked_at:
            return "revoked"
        if self.expires_at <= timezone.now():
            return "expired"
        return "open"

    @property
    def is_open(self) -> bool:
        return self.status == "open"


class ApiToken(models.Model):
    """A personal API token: named by its owner, shown once, revocable, optionally expiring."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    prefix = models.CharField(
        max_length=16, help_text="The token's first characters, to tell it apart."
    )
    key_sha256 = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def status(self) -> str:
        if self.revoked_at:
            return "revoked"
        if self.expires_at and self.expires_at <= timezone.now():
            return "expired"
        return "active"
