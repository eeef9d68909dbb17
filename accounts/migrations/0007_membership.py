import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """A student's classes become rows of their own (`Membership`): a child may be in several.
    0008 copies each student's class into one; 0009 drops the old column."""

    dependencies = [
        ('accounts', '0006_teacher_email_may_be_blank'),
        ('classroom', '0006_classroom_language'),
    ]

    operations = [
        migrations.CreateModel(
            name='Membership',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('joined_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('archived_at', models.DateTimeField(blank=True, null=True)),
                ('classroom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='classroom.classroom')),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['classroom', 'archived_at'], name='accounts_me_classro_8ca996_idx')],
                'constraints': [models.UniqueConstraint(fields=('student', 'classroom'), name='one_membership_per_class')],
            },
        ),
    ]
