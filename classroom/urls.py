from django.urls import path

from . import views

app_name = "classroom"

urlpatterns = [
    path("teach/", views.teacher_home, name="teacher_home"),
    path("play/", views.student_home, name="student_home"),
]
