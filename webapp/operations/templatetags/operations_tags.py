"""Template filters for what a user may see about this server."""

from __future__ import annotations

from django import template

from webapp.operations.mechanisms import reason_for

register = template.Library()


@register.filter
def visible_to(reason: str | None, user) -> str | None:  # type: ignore[no-untyped-def]
    """A mechanism's unavailability reason as `user` may see it (exact for operators)."""
    return reason_for(user, reason)
