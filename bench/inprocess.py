"""Django in-process on a fresh SQLite database in a temp dir (the embedded default), for the
benchmarks that time full request handling with the test client."""

from __future__ import annotations

import os
import tempfile


def django_on_temp_sqlite(prefix: str) -> str:
    """Point the settings at a new temp var dir (SQLite inside), set Django up and migrate.

    Returns the temp dir. Must run before anything imports Django models."""
    tmp = tempfile.mkdtemp(prefix=prefix)
    os.environ["ANONYMIZER_VAR_DIR"] = tmp
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SECRET_KEY", f"{prefix}only-secret-key-0123456789abcdefghij")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return tmp
