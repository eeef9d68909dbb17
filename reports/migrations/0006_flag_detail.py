# Flags from the detail rows (reports/detail_flags.py): a flag's row is its measure and detail.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('reports', '0005_report_revision'),
    ]

    operations = [
        migrations.AddField(
            model_name='needshelpflag',
            name='detail',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.AlterField(
            model_name='needshelpflag',
            name='reason',
            field=models.CharField(choices=[('miss_rate', 'Misses this much more often than the class'), ('rule_errors', 'Many rule errors in one game'), ('fact', 'A times-table fact'), ('operation', 'An operation'), ('family', 'A family of skills')], max_length=12),
        ),
        migrations.RemoveConstraint(
            model_name='needshelpflag',
            name='one_flag_per_student_measure_reason_game',
        ),
        migrations.AddConstraint(
            model_name='needshelpflag',
            constraint=models.UniqueConstraint(fields=('student', 'measure', 'reason', 'detail', 'game'), name='one_flag_per_student_row_reason_game', nulls_distinct=False),
        ),
    ]
