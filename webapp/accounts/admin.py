"""Django admin: invites and API tokens are listed for staff; secrets never appear anywhere."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from webapp.accounts.models import ApiToken, Invite


class ListedOnlyAdmin(admin.ModelAdmin):
    """Created through the app (which shows the secret once); here only listed or revoked."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(Invite)
class InviteAdmin(ListedOnlyAdmin):
    list_display = ["username", "email", "is_staff", "status", "created_by", "created_at"]
    search_fields = ["username", "email"]
    exclude = ["token_sha256"]


@admin.register(ApiToken)
class ApiTokenAdmin(ListedOnlyAdmin):
    list_display = ["name", "user", "prefix", "status", "created_at", "last_used_at"]
    search_fields = ["name", "user__username", "prefix"]
    list_select_related = ["user"]
    exclude = ["key_sha256"]
