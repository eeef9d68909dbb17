from django.apps import AppConfig


class LiveConfig(AppConfig):
    """The live layer: what every page that updates itself over a WebSocket shares (docs/live.md)."""

    name = "live"
    verbose_name = "Live pages"

    def ready(self):
        from live import signed_out

        signed_out.connect()  # a user's sessions ended: close their open sockets
