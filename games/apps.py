from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Django: modules that register something are imported once the app registry is
        # ready. The after-commit path queues `games.tasks.wake_bots` by name
        # (games/services/after_commit.py says why), so its tasks must be registered with
        # Celery in every process, not only in a worker: an eager Celery (tests, `make run`
        # without Redis) then runs them in-process.
        import games.tasks  # noqa: F401
