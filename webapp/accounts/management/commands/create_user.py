"""Create an account from a script: with a password read from stdin, or as an invite link."""

from __future__ import annotations

import sys

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from webapp.accounts import services


class Command(BaseCommand):
    help = (
        "Create a user with a password read from stdin (--password-stdin), or make a one-time "
        "invite link for them to set their own (--invite; mailed too when EMAIL_HOST is set)."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument("--staff", action="store_true", help="operator (staff) access")
        how = parser.add_mutually_exclusive_group(required=True)
        how.add_argument("--password-stdin", action="store_true", help="read the password")
        how.add_argument("--invite", action="store_true", help="print a one-time invite link")
        parser.add_argument(
            "--base-url", default=None, help="site address for the link (ANONYMIZER_SITE_URL)"
        )
        parser.add_argument(
            "--exists-ok",
            action="store_true",
            help="exit 0 without changes if the user already exists (idempotent deployments)",
        )

    def handle(self, *args, **options) -> None:  # type: ignore[no-untyped-def]
        username = options["username"]
        User = get_user_model()
        if options["exists_ok"] and User.objects.filter(username=username).exists():
            self.stdout.write(f"User {username} exists; nothing changed.")
            return
        try:
            if options["invite"]:
                issued = services.create_invite(
                    username=username,
                    email=options["email"],
                    is_staff=options["staff"],
                    base_url=options["base_url"],
                )
                mailed = f" (mailed to {issued.mailed_to})" if issued.mailed_to else ""
                self.stdout.write(f"Invite for {username}{mailed}: {issued.url}")
                return
            password = sys.stdin.readline().rstrip("\n")
            services.create_user(
                username, password=password, email=options["email"], is_staff=options["staff"]
            )
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        self.stdout.write(self.style.SUCCESS(f"Created user {username}."))
