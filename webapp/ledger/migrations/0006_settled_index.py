"""The budget cache fingerprint (count, latest settled_at of charged entries) from an index."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0005_cap_labels"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="ledgerentry",
            name="ledger_ledg_owner_i_47197b_idx",
        ),
        migrations.AddIndex(
            model_name="ledgerentry",
            index=models.Index(
                fields=["owner", "status", "settled_at"], name="ledger_owner_settled"
            ),
        ),
    ]
