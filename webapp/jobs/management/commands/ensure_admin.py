"""Create the `admin` superuser with a random password, printed once, if no superuser exists."""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create an admin account with a random password (printed once) if none exists."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username: str, **options) -> None:  # type: ignore[no-untyped-def]
        User = get_user_model()
        if User.objects.filter(is_superuser=True).exists():
            self.stdout.write(
                "An admin account already exists; its password was shown when "
                "it was created (reset with `manage.py changepassword admin`)."
            )
            return
        password = secrets.token_urlsafe(16)
        User.objects.create_superuser(username=username, email="", password=password)
        self.stdout.write(
            self.style.SUCCESS(
                f"Created admin account: username={username} password={password}  "
                "(shown once; store it now)"
            )
        )
