"""Forms for invites, reset links and API tokens; the password rules are Django's validators."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model

from webapp.accounts.services import validate_new_username

TOKEN_LIFETIMES = [("90", "90 days"), ("30", "30 days"), ("365", "1 year"), ("", "never")]


class InviteForm(forms.Form):
    username = forms.CharField(max_length=150, help_text="The name they will log in with.")
    email = forms.EmailField(
        required=False, help_text="Optional; the link is mailed there when mail is configured."
    )
    is_staff = forms.BooleanField(
        required=False, label="operator (staff): audit pages, operator page, invites"
    )

    def clean_username(self) -> str:
        return validate_new_username(self.cleaned_data["username"])


class ResetLinkForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")

    def clean_username(self):  # type: ignore[no-untyped-def]
        User = get_user_model()
        user = User.objects.filter(
            **{User.USERNAME_FIELD: self.cleaned_data["username"]}, is_active=True
        ).first()
        if user is None:
            raise forms.ValidationError("No active account has this username.")
        self.user = user
        return self.cleaned_data["username"]


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=100, help_text="What it is for, e.g. “nightly export script”."
    )
    expires_in_days = forms.TypedChoiceField(
        choices=TOKEN_LIFETIMES,
        coerce=int,
        empty_value=None,
        required=False,
        initial="90",
        label="Expires after",
    )
