from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "classroom.reports"
    label = "reports"
    verbose_name = "Skill reports"
    default_auto_field = "django.db.models.BigAutoField"
