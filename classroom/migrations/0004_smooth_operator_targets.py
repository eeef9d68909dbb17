"""Smooth Operator's presets were raised so that no game can end before every player has made a
decision (the old "Quick" target, 100, was reached in a first turn by a child who never moved;
games/engine/smooth_operator/__init__.py explains the new targets). Assignments made with the
old presets get the new targets too; unfinished games keep the options they were dealt with.
The numbers are written here, not imported, so this migration stays what it was."""

from django.db import migrations

GAME = "smooth_operator"
OLD_TO_NEW = {"quick": (100, 650), "short": (250, 800), "standard": (500, 1000), "long": (1000, 1500)}


def raise_targets(apps, schema_editor):
    Assignment = apps.get_model("classroom", "Assignment")
    for assignment in Assignment.objects.filter(game=GAME, preset__in=list(OLD_TO_NEW)):
        old, new = OLD_TO_NEW[assignment.preset]
        if (assignment.options or {}).get("target") == old:
            assignment.options = {**assignment.options, "target": new}
            assignment.save(update_fields=["options"])


class Migration(migrations.Migration):
    dependencies = [("classroom", "0003_coteacherinvite")]
    operations = [migrations.RunPython(raise_targets, migrations.RunPython.noop)]
