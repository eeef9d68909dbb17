from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "classroom.reports"
    label = "reports"
    verbose_name = "Skill reports"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Celery autodiscovers tasks.py only; the export tasks live in their own module.
        from . import export_tasks  # noqa: F401
