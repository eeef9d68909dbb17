from django.db import migrations


def memberships_from_classroom(apps, schema_editor):
    """Every student whose class was set gets one active membership of it, joined when their
    account was made: their class, games and evidence stay as they were."""
    User = apps.get_model("accounts", "User")
    Membership = apps.get_model("accounts", "Membership")
    students = User.objects.filter(classroom__isnull=False).values_list("pk", "classroom_id", "date_joined")
    Membership.objects.bulk_create(
        [Membership(student_id=pk, classroom_id=classroom_id, joined_at=joined)
         for pk, classroom_id, joined in students.iterator(chunk_size=2000)],
        batch_size=2000, ignore_conflicts=True)


def classroom_from_memberships(apps, schema_editor):
    """Back: each student's class is the first active membership's (the earliest joined)."""
    User = apps.get_model("accounts", "User")
    Membership = apps.get_model("accounts", "Membership")
    for m in Membership.objects.filter(archived_at__isnull=True).order_by("-joined_at", "-pk"):
        User.objects.filter(pk=m.student_id).update(classroom_id=m.classroom_id)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_membership'),
    ]

    operations = [
        migrations.RunPython(memberships_from_classroom, classroom_from_memberships),
    ]
