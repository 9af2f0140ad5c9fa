"""`{% querystring_for query sort=... page=... %}`: links that keep the table's other filters."""

from urllib.parse import urlencode

from django import template

register = template.Library()


@register.simple_tag
def querystring_for(query, **changes) -> str:  # type: ignore[no-untyped-def]
    if "sort" in changes:
        changes["sort"] = query.sort_param_for(changes["sort"])
        changes.setdefault("page", 1)
    return urlencode(query.params(**changes))
