from django.urls import path

from . import views

app_name = "reports"

urlpatterns = [
    path("teach/classes/<int:pk>/reports/", views.dashboard, name="dashboard"),
    path("teach/classes/<int:pk>/reports/recompute/", views.recompute, name="recompute"),
    path("teach/classes/<int:pk>/reports/moves/", views.moves, name="moves"),
    path("teach/classes/<int:pk>/reports/facts/", views.facts, name="facts"),
    path("teach/classes/<int:pk>/reports/practise/", views.practise, name="practise"),
    path("teach/classes/<int:pk>/reports/students/<int:student_id>/", views.student_report,
         name="student"),
    path("teach/classes/<int:pk>/reports/students/<int:student_id>/report.pdf", views.student_pdf,
         name="student_pdf"),
    path("teach/classes/<int:pk>/reports/skills.csv", views.skills_csv, name="skills_csv"),
    path("teach/classes/<int:pk>/reports/exports/", views.exports, name="exports"),
    path("teach/classes/<int:pk>/reports/jobs/<int:job_id>/", views.job, name="job"),
    path("teach/classes/<int:pk>/reports/jobs/<int:job_id>/download/", views.job_download,
         name="job_download"),
    path("play/progress/", views.my_progress, name="my_progress"),
]
