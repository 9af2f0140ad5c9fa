"""Charge the receipts stored before the ledger existed, so no earlier release goes uncounted."""

from django.db import migrations


def backfill(apps, schema_editor):  # type: ignore[no-untyped-def]
    from webapp.ledger.costs import receipt_from_payload, release_cost

    Receipt = apps.get_model("jobs", "Receipt")
    LedgerEntry = apps.get_model("ledger", "LedgerEntry")
    charged = set(LedgerEntry.objects.values_list("job_id", flat=True))
    for receipt in Receipt.objects.exclude(job_id__in=charged).order_by("created_at", "pk"):
        cost = release_cost(receipt_from_payload(receipt.payload))
        LedgerEntry.objects.create(
            job_id=receipt.job_id,
            owner_id=receipt.owner_id,
            status="charged",
            kind=cost.kind,
            mechanism=cost.mechanism,
            notion=cost.notion,
            events=[e.to_dict() for e in cost.events],
            mu_squared=cost.mu_squared,
            epsilon=cost.epsilon,
            delta=cost.delta,
            basic_epsilon=cost.basic_epsilon,
            basic_delta=cost.basic_delta,
            metric_unit=cost.metric_unit,
            n_chunks=cost.n_chunks,
            details={**cost.details, "backfilled": True},
            settled_at=receipt.created_at,
        )


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial"), ("jobs", "0001_initial")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
