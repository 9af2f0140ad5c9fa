"""Verify the receipt hash chains; exit with status 1 and name the first broken link, if any."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from webapp.ledger.verify import verify_receipt_chains


class Command(BaseCommand):
    help = "Recompute every stored receipt's SHA-256 and its link to the previous receipt."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--user", help="check only this username's chain")
        parser.add_argument(
            "--heads", action="store_true", help="also print each chain's newest hash"
        )

    def handle(self, *args, **options) -> None:  # type: ignore[no-untyped-def]
        owner_id = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"no user named {options['user']!r}")
            owner_id = user.pk
        report = verify_receipt_chains(owner_id)
        if options["heads"]:
            for head in report.heads:
                self.stdout.write(f"head {head.username} {head.length} {head.sha256}")
        if report.ok:
            self.stdout.write(
                self.style.SUCCESS(
                    f"OK: {report.n_receipts} receipt(s) in {report.n_chains} chain(s) verified"
                )
            )
            return
        for link in report.broken:
            self.stdout.write(f"broken: {link}")
        raise CommandError(f"first broken link: {report.first_broken}")
