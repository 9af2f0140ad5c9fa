"""Bearer-token authentication for the API: `Authorization: Bearer <personal API token>`."""

from __future__ import annotations

from django.http import HttpRequest
from ninja.security import HttpBearer

from webapp.accounts.services import user_for_token


class PersonalTokenAuth(HttpBearer):
    """A user's personal API token (settings page); revoked or expired tokens are refused."""

    def authenticate(self, request: HttpRequest, token: str):  # type: ignore[no-untyped-def]
        user = user_for_token(token)
        if user is not None:
            request.user = user  # the services and query helpers read request.user
        return user
