from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("game/<int:game_id>/", views.game_page, name="table"),
    path("game/<int:game_id>/replay/", views.game_replay, name="replay"),
    path("game/<int:game_id>/again/", views.play_again, name="play_again"),
    path("play/free/<str:key>/", views.free_play_start, name="free_play_start"),
]
