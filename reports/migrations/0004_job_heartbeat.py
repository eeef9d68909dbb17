"""Report jobs get a heartbeat and the time they were handed to the broker (docs/reports.md,
"When a worker dies or Redis stops"). Both are null for existing jobs: a running job without a
heartbeat is judged by when it was made. Queued jobs were handed to the broker when they were
made (on commit), so they get `sent_at` = `created_at`: one that never started is given up on
(Try again) rather than shown as waiting for Redis."""

from django.db import migrations, models


def queued_jobs_were_sent(apps, schema_editor):
    RecomputeJob = apps.get_model("reports", "RecomputeJob")
    RecomputeJob.objects.filter(status="queued").update(sent_at=models.F("created_at"))


class Migration(migrations.Migration):

    dependencies = [
        ("reports", "0003_evidence_lean_writes"),
    ]

    operations = [
        migrations.AddField(
            model_name="recomputejob",
            name="heartbeat_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="recomputejob",
            name="sent_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(queued_jobs_were_sent, migrations.RunPython.noop, elidable=True),
    ]
