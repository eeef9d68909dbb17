from django.apps import AppConfig


class PrivacyConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "privacy"

    def ready(self):
        # A teacher watching a game through its socket is logged like its page
        # (privacy/middleware.py).
        from games.signals import table_watched

        from .middleware import game_socket_opened

        table_watched.connect(game_socket_opened, dispatch_uid="privacy.game_socket_opened")
