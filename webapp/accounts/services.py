"""Accounts without the admin: invites, password-reset links, personal API tokens.

Secrets (invite links, API tokens) are shown once and stored as their SHA-256 only.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from webapp.accounts.models import ApiToken, Invite

log = logging.getLogger(__name__)
TOKEN_PREFIX = "anon_"
# Writing last_used_at on every API call would turn each read into a write; once a minute is
# enough to tell a user which token is in use.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class InviteError(Exception):
    """An invite link that cannot be used (unknown, used, revoked or expired)."""


def sha256_hex(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def mail_configured() -> bool:
    """Mail goes out only when EMAIL_HOST is set; otherwise links are shown to staff."""
    return bool(getattr(settings, "EMAIL_HOST", ""))


def absolute_url(path: str, base_url: str | None = None) -> str:
    return (base_url or settings.SITE_URL).rstrip("/") + path


# --- invites --------------------------------------------------------------------------


@dataclass(frozen=True)
class IssuedInvite:
    invite: Invite
    url: str  # contains the secret: shown once, never stored
    mailed_to: str | None


def validate_new_username(username: str) -> str:
    """The username field's own rules, and no account or open invite with it yet."""
    User = get_user_model()
    field = User._meta.get_field(User.USERNAME_FIELD)
    username = field.clean(username, None)
    if User.objects.filter(**{User.USERNAME_FIELD: username}).exists():
        raise ValidationError(f"An account named “{username}” already exists.")
    if open_invites().filter(username=username).exists():
        raise ValidationError(f"An open invite for “{username}” exists; revoke it first.")
    return username


def open_invites():  # type: ignore[no-untyped-def]
    return Invite.objects.filter(
        accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
    )


def create_invite(
    *,
    username: str,
    email: str = "",
    is_staff: bool = False,
    created_by: AbstractBaseUser | None = None,
    base_url: str | None = None,
) -> IssuedInvite:
    """Store an invite and return its one-time link; mail it when mail is configured."""
    username = validate_new_username(username)
    # An expired invite still holds the name in the unique constraint; close it first.
    Invite.objects.filter(
        username=username, accepted_at__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    secret = secrets.token_urlsafe(32)
    try:
        invite = Invite.objects.create(
            username=username,
            email=email,
            is_staff=is_staff,
            token_sha256=sha256_hex(secret),
            created_by=created_by,
            expires_at=timezone.now() + timedelta(days=settings.INVITE_VALID_DAYS),
        )
    except IntegrityError:
        raise ValidationError(f"An open invite for “{username}” exists; revoke it first.") from None
    url = absolute_url(reverse("invite_accept", args=[secret]), base_url)
    mailed_to = None
    if email and mail_configured():
        send_mail(
            "Your account on the anonymizer",
            render_to_string("accounts/invite_email.txt", {"invite": invite, "url": url}),
            None,
            [email],
        )
        mailed_to = email
    log.info("invite %s created for username=%s mailed=%s", invite.pk, username, bool(mailed_to))
    return IssuedInvite(invite=invite, url=url, mailed_to=mailed_to)


def invite_for_secret(secret: str) -> Invite:
    """The open invite this link belongs to, or InviteError saying why it cannot be used."""
    invite = Invite.objects.filter(token_sha256=sha256_hex(secret)).first()
    if invite is None:
        raise InviteError("This invite link is not valid. Ask your administrator for a new one.")
    if invite.status == "accepted":
        raise InviteError("This invite link was already used. Log in with your password.")
    if invite.status == "revoked":
        raise InviteError("This invite link was withdrawn. Ask your administrator for a new one.")
    if invite.status == "expired":
        raise InviteError("This invite link has expired. Ask your administrator for a new one.")
    return invite


def accept_invite(secret: str, password: str) -> AbstractBaseUser:
    """Create the invited account with this password; the link works once."""
    User = get_user_model()
    with transaction.atomic():
        invite = invite_for_secret(secret)
        claimed = Invite.objects.filter(pk=invite.pk, accepted_at__isnull=True).update(
            accepted_at=timezone.now()
        )
        if not claimed:
            raise InviteError("This invite link was already used. Log in with your password.")
        if User.objects.filter(**{User.USERNAME_FIELD: invite.username}).exists():
            raise InviteError(
                f"An account named “{invite.username}” was created meanwhile. "
                "Ask your administrator for a new invite."
            )
        user = User.objects.create_user(
            invite.username, email=invite.email, password=password, is_staff=invite.is_staff
        )
        Invite.objects.filter(pk=invite.pk).update(user=user)
    log.info("invite %s accepted: user %s created", invite.pk, user.pk)
    return user


def revoke_invite(invite_id: int) -> bool:
    return bool(
        Invite.objects.filter(
            pk=invite_id, accepted_at__isnull=True, revoked_at__isnull=True
        ).update(revoked_at=timezone.now())
    )


def password_reset_url(user: AbstractBaseUser, base_url: str | None = None) -> str:
    """A Django password-reset link (one use, PASSWORD_RESET_TIMEOUT) for staff to hand over."""
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    return absolute_url(path, base_url)


def create_user(
    username: str, *, password: str, email: str = "", is_staff: bool = False
) -> AbstractBaseUser:
    """A new account with a password checked by AUTH_PASSWORD_VALIDATORS."""
    username = validate_new_username(username)
    User = get_user_model()
    candidate = User(username=username, email=email)
    password_validation.validate_password(password, candidate)
    return User.objects.create_user(username, email=email, password=password, is_staff=is_staff)


# --- API tokens -----------------------------------------------------------------------


def create_token(user, name: str, expires_in_days: int | None = None) -> tuple[ApiToken, str]:  # type: ignore[no-untyped-def]
    """Store a new token for the user; the plaintext is returned here and never again."""
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    expires_at = timezone.now() + timedelta(days=expires_in_days) if expires_in_days else None
    token = ApiToken.objects.create(
        user=user,
        name=name.strip()[:100] or "unnamed",
        prefix=secret[: len(TOKEN_PREFIX) + 6],
        key_sha256=sha256_hex(secret),
        expires_at=expires_at,
    )
    log.info("api token %s created for user %s", token.pk, user.pk)
    return token, secret


def revoke_token(user, token_id: int) -> bool:  # type: ignore[no-untyped-def]
    """Revoke one of the user's own tokens; another user's id changes nothing."""
    return bool(
        ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )


def active_tokens(user):  # type: ignore[no-untyped-def]
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at")


def user_for_token(secret: str):  # type: ignore[no-untyped-def]
    """The active user an API token belongs to, or None (unknown, revoked, expired, inactive)."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_sha256=sha256_hex(secret), revoked_at__isnull=True)
        .first()
    )
    if token is None or token.status != "active" or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user
