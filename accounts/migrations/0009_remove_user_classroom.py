from django.db import migrations


class Migration(migrations.Migration):
    """The old one-class column goes: memberships (0007, 0008) hold every class now."""

    dependencies = [
        ('accounts', '0008_memberships_from_classroom'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='user',
            name='classroom',
        ),
    ]
