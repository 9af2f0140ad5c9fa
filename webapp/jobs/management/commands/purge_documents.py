"""Purge original documents older than the retention period (ANONYMIZER_DOCUMENT_RETENTION_DAYS)."""

from django.core.management.base import BaseCommand

from webapp.jobs.retention import purge_expired_documents


class Command(BaseCommand):
    help = "Purge original texts older than the retention period; receipts and outputs stay."

    def handle(self, *args, **options) -> None:  # type: ignore[no-untyped-def]
        count = purge_expired_documents()
        self.stdout.write(f"purged {count} document(s)")
