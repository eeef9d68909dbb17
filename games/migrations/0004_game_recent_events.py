from django.db import migrations, models

RECENT_EVENTS = 8


def fill_recent_events(apps, schema_editor):
    """Games dealt before the field existed: their last accepted moves' events, as the table
    read them from the moves until now (games that are still being played show the same log)."""
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    for game_id in Game.objects.exclude(state=None).values_list("pk", flat=True).iterator():
        events = list(Move.objects.filter(game_id=game_id, accepted=True).order_by("-sequence")
                      .values_list("events", flat=True)[:RECENT_EVENTS])
        if events:
            events.reverse()
            Game.objects.filter(pk=game_id).update(recent_events=events)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_ratings"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="recent_events",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(fill_recent_events, migrations.RunPython.noop),
    ]
