"""Response headers that keep signed-in pages out of shared and browser caches."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers, patch_cache_control


class PrivatePagesNotCachedMiddleware:
    """Every response to a signed-in user gets `Cache-Control: no-store` (and `private`).

    Job pages, previews and downloads show original documents; marking every signed-in page
    covers new views too, and static files (served by WhiteNoise before this) are untouched.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            add_never_cache_headers(response)
            patch_cache_control(response, private=True)
        return response
