from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "webapp.accounts"
    label = "accounts"
    verbose_name = "Accounts, invites and API tokens"
    default_auto_field = "django.db.models.BigAutoField"
