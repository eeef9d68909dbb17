"""The Celery app: `celery -A config worker`. Tasks are autodiscovered in each app's tasks.py.

Without REDIS_URL the settings make every task run eagerly in-process, so `make run` needs
no broker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("numberdeck")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
