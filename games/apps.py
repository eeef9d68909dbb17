from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Django: modules that register something are imported once the app registry is
        # ready. The after-commit path runs `games.tasks.wake_bots`, looked up by name in
        # Celery's registry (games/services/after_commit.py says why), so the tasks must be
        # registered in every process, not only in a worker.
        import games.tasks  # noqa: F401

        # The engines' sentences and words (games/engine/words.py), shown on any page, are said
        # in the reader's language.
        from games.engine.words import set_translator
        from games.words import say

        set_translator(say)
