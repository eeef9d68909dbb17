from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "reports"
    label = "reports"
    verbose_name = "Skill reports"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Django: receivers import models, so they are connected here, once the app registry
        # is ready. (Importing them imports tasks.py too, which registers every reports task.)
        from . import receivers

        receivers.connect()
