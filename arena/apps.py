from django.apps import AppConfig


class ArenaConfig(AppConfig):
    """The class arena: the whole class plays at once, paired by level, with a projector page."""

    name = "arena"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Count an arena game as soon as it finishes (games/signals.py), rather than at the
        # next round.
        from arena import receivers  # noqa: F401
