from django.urls import path

from . import pages

app_name = "privacy"

urlpatterns = [
    path("privacy/", pages.privacy_page, name="privacy"),
    path("privacy/access-log/", pages.access_log_all, name="access_log"),
    path("teach/classes/<int:pk>/access-log/", pages.class_access_log, name="class_access_log"),
]
