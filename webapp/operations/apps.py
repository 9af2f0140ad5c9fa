from django.apps import AppConfig


class OperationsConfig(AppConfig):
    name = "webapp.operations"
    label = "operations"
    verbose_name = "Operator's view"
