from django.apps import AppConfig


class RosteringConfig(AppConfig):
    name = "rostering"
    verbose_name = "Rostering (OneRoster)"
    default_auto_field = "django.db.models.BigAutoField"
