"""Account pages: accept an invite, the user's settings and API tokens, staff invites.

Pages that show a secret (a new token, a new invite or reset link) are rendered in the POST
response itself and marked no-store, so the secret is never stored or cached.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.views import PasswordResetView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from webapp.accounts import services
from webapp.accounts.forms import InviteForm, ResetLinkForm, TokenForm
from webapp.accounts.models import ApiToken, Invite
from webapp.ledger.models import UserBudget
from webapp.ledger.services import budget_summary, cap_for
from webapp.ledger.views import staff_required

INVITE_SESSION_KEY = "_invite_secret"


# --- invites (the invitee's side) ------------------------------------------------------


@never_cache
def invite_accept(request: HttpRequest, secret: str) -> HttpResponse:
    """Check the link, keep its secret in the session and drop it from the URL (like Django's
    password reset does), so the secret does not leak through the Referer header or history."""
    try:
        services.invite_for_secret(secret)
    except services.InviteError as exc:
        return render(request, "accounts/invite_invalid.html", {"reason": str(exc)}, status=410)
    request.session[INVITE_SESSION_KEY] = secret
    return redirect("invite_set_password")


@never_cache
def invite_set_password(request: HttpRequest) -> HttpResponse:
    secret = request.session.get(INVITE_SESSION_KEY, "")
    try:
        invite = services.invite_for_secret(secret)
    except services.InviteError as exc:
        return render(request, "accounts/invite_invalid.html", {"reason": str(exc)}, status=410)
    candidate = get_user_model()(username=invite.username, email=invite.email)
    form = SetPasswordForm(candidate, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.accept_invite(secret, form.cleaned_data["new_password1"])
        except services.InviteError as exc:
            return render(request, "accounts/invite_invalid.html", {"reason": str(exc)}, status=410)
        del request.session[INVITE_SESSION_KEY]
        messages.success(request, f"Your password is set. Log in as {invite.username}.")
        return redirect("login")
    return render(request, "accounts/invite_set_password.html", {"form": form, "invite": invite})


# --- the user's own settings and tokens ---------------------------------------------------


@never_cache
@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    new_token = None
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        token, secret = services.create_token(
            request.user, form.cleaned_data["name"], form.cleaned_data["expires_in_days"]
        )
        new_token = {"token": token, "secret": secret}
        form = TokenForm()
    cap = cap_for(request.user)
    context = {
        "form": form,
        "new_token": new_token,
        "tokens": services.active_tokens(request.user),
        "cap": cap,
        "cap_is_default": not isinstance(cap, UserBudget),
        "budget": budget_summary(request.user),
        "mail_configured": services.mail_configured(),
    }
    return render(request, "accounts/settings.html", context)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken.objects.filter(user=request.user), pk=token_id)
    services.revoke_token(request.user, token.pk)
    messages.info(request, f"Token “{token.name}” ({token.prefix}…) was revoked.")
    return redirect("account_settings")


# --- password reset: by mail when mail is configured ---------------------------------------


def password_reset(request: HttpRequest) -> HttpResponse:
    if not services.mail_configured():
        return render(request, "registration/password_reset_unavailable.html")
    return PasswordResetView.as_view()(request)


# --- staff: invites and reset links ----------------------------------------------------------


@never_cache
@staff_required
def invites(request: HttpRequest) -> HttpResponse:
    action = request.POST.get("action") if request.method == "POST" else None
    invite_form = InviteForm(request.POST if action == "invite" else None)
    reset_form = ResetLinkForm(request.POST if action == "reset" else None)
    issued = reset_link = None
    base_url = request.build_absolute_uri("/")
    if action == "invite" and invite_form.is_valid():
        issued = services.create_invite(
            **invite_form.cleaned_data, created_by=request.user, base_url=base_url
        )
        invite_form = InviteForm()
    elif action == "reset" and reset_form.is_valid():
        reset_link = {
            "user": reset_form.user,
            "url": services.password_reset_url(reset_form.user, base_url),
        }
        reset_form = ResetLinkForm()
    context = {
        "invite_form": invite_form,
        "reset_form": reset_form,
        "issued": issued,
        "reset_link": reset_link,
        "invites": Invite.objects.select_related("created_by", "user")[:50],
        "mail_configured": services.mail_configured(),
    }
    return render(request, "accounts/invites.html", context)


@require_POST
@staff_required
def invite_revoke(request: HttpRequest, invite_id: int) -> HttpResponse:
    invite = get_object_or_404(Invite, pk=invite_id)
    if services.revoke_invite(invite.pk):
        messages.info(request, f"The invite for {invite.username} was withdrawn.")
    return redirect("invites")
