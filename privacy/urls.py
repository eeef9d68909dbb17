from django.urls import path

from . import pages, views

app_name = "privacy"

urlpatterns = [
    path("teach/students/<int:pk>/data.zip", views.student_export, name="student_export"),
    path("teach/classes/<int:pk>/data.zip", views.class_export, name="class_export"),
    path("teach/students/<int:pk>/erase/", views.student_erase, name="student_erase"),
    path("privacy/", pages.privacy_page, name="privacy"),
    path("privacy/access-log/", pages.access_log_all, name="access_log"),
    path("teach/classes/<int:pk>/access-log/", pages.class_access_log, name="class_access_log"),
]
