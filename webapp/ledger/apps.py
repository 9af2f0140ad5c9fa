from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "webapp.ledger"
    label = "ledger"
    verbose_name = "Privacy budget ledger"
    default_auto_field = "django.db.models.BigAutoField"
