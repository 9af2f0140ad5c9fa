"""Template filters for privacy figures."""

from __future__ import annotations

from django import template

from webapp.ledger.costs import fmt

register = template.Library()


@register.filter
def eps(value: float | None) -> str:
    """A privacy figure with 4 significant digits; ∞ for no bound, — for none."""
    return fmt(value)
