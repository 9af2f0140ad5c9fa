"""Django admin: users' caps (editable), the default cap; receipts and ledger entries read-only."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from webapp.jobs.models import Receipt
from webapp.ledger.costs import fmt
from webapp.ledger.models import DefaultBudget, LedgerEntry, UserBudget
from webapp.ledger.services import budget_summary


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows that the app only appends: viewable, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False


@admin.register(UserBudget)
class UserBudgetAdmin(admin.ModelAdmin):
    list_display = [
        "user",
        "epsilon_cap",
        "delta_cap",
        "require_formal_guarantee",
        "spent",
        "remaining",
        "updated_at",
    ]
    search_fields = ["user__username"]
    list_select_related = ["user"]
    autocomplete_fields = ["user"]
    readonly_fields = ["spent", "remaining", "audit_link"]

    @admin.display(description="spent ε (exact, at δ cap)")
    def spent(self, obj: UserBudget) -> str:
        if not obj.pk:
            return "—"
        summary = budget_summary(obj.user)
        return f"{fmt(summary.epsilon_spent)} ({summary.coverage})"

    @admin.display(description="remaining ε")
    def remaining(self, obj: UserBudget) -> str:
        if not obj.pk:
            return "—"
        summary = budget_summary(obj.user)
        return fmt(summary.epsilon_remaining) if summary.capped else "no cap"

    @admin.display(description="audit")
    def audit_link(self, obj: UserBudget) -> str:
        if not obj.pk:
            return "—"
        return format_html(
            '<a href="{}">audit page</a>', reverse("ledger:audit_user", args=[obj.user_id])
        )


@admin.register(DefaultBudget)
class DefaultBudgetAdmin(admin.ModelAdmin):
    list_display = ["__str__", "epsilon_cap", "delta_cap", "require_formal_guarantee", "updated_at"]
    exclude = ["id"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not DefaultBudget.objects.exists()

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:  # type: ignore[no-untyped-def]
        return False

    def save_model(self, request: HttpRequest, obj: DefaultBudget, form, change: bool) -> None:  # type: ignore[no-untyped-def]
        obj.pk = 1
        super().save_model(request, obj, form, change)


@admin.register(Receipt)
class ReceiptAdmin(ReadOnlyAdmin):
    list_display = ["pk", "owner", "job", "created_at", "short_sha", "short_prev"]
    list_filter = ["created_at"]
    search_fields = ["owner__username", "sha256", "prev_sha256"]
    list_select_related = ["owner", "job"]

    @admin.display(description="SHA-256")
    def short_sha(self, obj: Receipt) -> str:
        return obj.sha256[:12] + "…"

    @admin.display(description="previous")
    def short_prev(self, obj: Receipt) -> str:
        return (obj.prev_sha256[:12] + "…") if obj.prev_sha256 else "(first)"


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = [
        "job",
        "owner",
        "status",
        "kind",
        "mechanism",
        "epsilon",
        "delta",
        "n_chunks",
        "mu_squared",
        "created_at",
        "settled_at",
    ]
    list_filter = ["status", "kind", "mechanism"]
    search_fields = ["owner__username"]
    list_select_related = ["owner", "job"]


class DefaultCapFormSet(BaseInlineFormSet):
    """A user without a cap row of their own shows the default cap that applies to them; it is
    saved as their own only when changed."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        default = DefaultBudget.current()
        kwargs.setdefault(
            "initial",
            [
                {
                    "epsilon_cap": default.epsilon_cap,
                    "delta_cap": default.delta_cap,
                    "require_formal_guarantee": default.require_formal_guarantee,
                }
            ],
        )
        super().__init__(*args, **kwargs)


class UserBudgetInline(admin.StackedInline):
    model = UserBudget
    formset = DefaultCapFormSet
    can_delete = False
    max_num = 1
    verbose_name_plural = "privacy cap"
    fieldsets = [
        (
            None,
            {
                "fields": ["epsilon_cap", "delta_cap", "require_formal_guarantee"],
                "description": "Without a cap of their own a user has the default cap for new "
                "users, shown here; change it to give this user their own.",
            },
        )
    ]

    def get_extra(self, request: HttpRequest, obj=None, **kwargs) -> int:  # type: ignore[no-untyped-def]
        return 0 if obj is not None and UserBudget.objects.filter(user=obj).exists() else 1


User = get_user_model()
if admin.site.is_registered(User):
    user_admin_class = type(admin.site.get_model_admin(User))
    admin.site.unregister(User)
else:
    user_admin_class = UserAdmin


@admin.register(User)
class UserWithBudgetAdmin(user_admin_class):  # type: ignore[valid-type, misc]
    inlines = [*getattr(user_admin_class, "inlines", []), UserBudgetInline]
