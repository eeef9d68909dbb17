from django.urls import path

from . import views

app_name = "privacy"

urlpatterns = [
    path("teach/students/<int:pk>/data.zip", views.student_export, name="student_export"),
    path("teach/classes/<int:pk>/data.zip", views.class_export, name="class_export"),
    path("teach/students/<int:pk>/erase/", views.student_erase, name="student_erase"),
]
