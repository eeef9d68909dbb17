from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Django: receivers are connected once the app registry is ready (they import models
        # and the tasks), so this is the one place they can be imported from.
        from games import receivers

        receivers.connect()
