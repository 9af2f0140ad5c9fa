"""Issue 11: the per-user policy on releases without a formal guarantee, and seeded runs
(reproducible, so never private) moved out of the Gaussian total into that list."""

from django.db import migrations, models

HELP = (
    "Refuse redaction-only, ε = ∞, seeded and other runs whose receipt claims no formal "
    "privacy guarantee (the ε cap cannot bound them)."
)


def reclassify_seeded(apps, schema_editor):  # type: ignore[no-untyped-def]
    LedgerEntry = apps.get_model("ledger", "LedgerEntry")
    seeded = LedgerEntry.objects.filter(details__seeded=True).exclude(kind="none")
    for entry in seeded:
        entry.details = {
            **entry.details,
            "reclassified": "seeded runs are not private: moved from the Gaussian total "
            f"(kind {entry.kind}, μ² = {entry.mu_squared:g}) to releases without a guarantee",
        }
        entry.kind = "none"
        entry.events = []
        entry.mu_squared = 0.0
        entry.epsilon = None
        entry.basic_epsilon = 0.0
        entry.basic_delta = 0.0
        entry.save(
            update_fields=[
                "details",
                "kind",
                "events",
                "mu_squared",
                "epsilon",
                "basic_epsilon",
                "basic_delta",
            ]
        )


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_backfill_from_receipts")]

    operations = [
        *(
            migrations.AddField(
                model_name=model,
                name="require_formal_guarantee",
                field=models.BooleanField(
                    default=False,
                    help_text=HELP,
                    verbose_name="refuse releases without a formal guarantee",
                ),
            )
            for model in ("defaultbudget", "userbudget")
        ),
        migrations.RunPython(reclassify_seeded, migrations.RunPython.noop),
    ]
