"""History indexes: newest first (read backwards), jobs to documents, documents by name."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0003_review_operators_restore"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="rewritejob",
            name="jobs_rewrit_owner_i_0009fe_idx",
        ),
        migrations.AddIndex(
            model_name="document",
            index=models.Index(fields=["owner", "name", "id"], name="document_owner_name"),
        ),
        migrations.AddIndex(
            model_name="rewritejob",
            index=models.Index(fields=["owner", "created_at", "id"], name="job_owner_created"),
        ),
        migrations.AddIndex(
            model_name="rewritejob",
            index=models.Index(fields=["owner", "document", "id"], name="job_owner_document"),
        ),
    ]
