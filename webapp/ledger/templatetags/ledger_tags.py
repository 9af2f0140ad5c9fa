"""Template filters for privacy figures."""

from __future__ import annotations

from django import template

from webapp.ledger.costs import fmt

register = template.Library()


@register.filter
def eps(value: float | str | None) -> str:
    """A privacy figure with 4 significant digits; ∞ for no bound, — for none. Receipt payloads
    store non-finite figures as strings ("inf"), so numeric strings are read as numbers."""
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return value
    return fmt(value)
