import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):
    """The old one-class column goes (memberships hold every class now); and teachers without
    an e-mail (people from a school's platform) no longer collide on a blank address."""

    dependencies = [
        ('accounts', '0007_memberships_from_classroom'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='user',
            name='classroom',
        ),
        migrations.RemoveConstraint(
            model_name='user',
            name='unique_teacher_email',
        ),
        migrations.AddConstraint(
            model_name='user',
            constraint=models.UniqueConstraint(django.db.models.functions.text.Lower('email'), condition=models.Q(('role', 'teacher'), models.Q(('email', ''), _negated=True)), name='unique_teacher_email'),
        ),
    ]
