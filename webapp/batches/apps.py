from django.apps import AppConfig


class BatchesConfig(AppConfig):
    name = "webapp.batches"
    label = "batches"
    verbose_name = "Batches"
    default_auto_field = "django.db.models.BigAutoField"
