from django.apps import AppConfig
from django.db.models.signals import post_migrate


class LedgerConfig(AppConfig):
    name = "webapp.ledger"
    label = "ledger"
    verbose_name = "Privacy budget ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from webapp.ledger.services import forget_settled_totals

        # a migration may rewrite charged entries in place (0003 reclassified seeded runs)
        post_migrate.connect(forget_settled_totals, sender=self)
