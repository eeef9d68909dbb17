from django.urls import path

from . import views

app_name = "rostering"

urlpatterns = [
    path("school/rosters/", views.upload, name="upload"),
    path("school/rosters/<int:pk>/", views.preview, name="preview"),
]
