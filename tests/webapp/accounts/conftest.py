"""Account fixtures: fast password hashing, a staff user (the operator)."""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def operator(django_user_model):  # type: ignore[no-untyped-def]
    return django_user_model.objects.create_user(
        "operator", password="operator-password-1", is_staff=True
    )


@pytest.fixture
def mail_on(settings):  # type: ignore[no-untyped-def]
    """Mail configured (pytest-django's locmem backend collects it in mail.outbox)."""
    settings.EMAIL_HOST = "smtp.example.test"
    return settings
