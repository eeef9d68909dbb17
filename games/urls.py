from django.urls import path

from . import views, views_numero, views_tables

app_name = "games"

urlpatterns = [
    path("game/<int:game_id>/", views.game_page, name="table"),
    path("game/<int:game_id>/replay/", views.game_replay, name="replay"),
    path("game/<int:game_id>/again/", views.play_again, name="play_again"),
    path("game/<int:game_id>/numero/selection/", views_numero.numero_selection, name="numero_selection"),
    path("play/free/<str:key>/", views.free_play_start, name="free_play_start"),
    # Tables with classmates
    path("play/tables/", views_tables.tables_panel, name="tables_panel"),
    path("play/tables/new/", views_tables.table_open, name="table_open"),
    path("play/tables/join/", views_tables.table_join_by_code, name="table_join_by_code"),
    path("table/<int:game_id>/", views_tables.lobby_page, name="lobby"),
    path("table/<int:game_id>/join/", views_tables.lobby_join, name="lobby_join"),
    path("table/<int:game_id>/leave/", views_tables.lobby_leave, name="lobby_leave"),
    path("table/<int:game_id>/bots/", views_tables.lobby_add_bot, name="lobby_add_bot"),
    path("table/<int:game_id>/bots/<int:seat_id>/remove/", views_tables.lobby_remove_bot,
         name="lobby_remove_bot"),
    path("table/<int:game_id>/invite/", views_tables.lobby_invite, name="lobby_invite"),
    path("table/<int:game_id>/start/", views_tables.lobby_start, name="lobby_start"),
    path("teach/classes/<int:pk>/tables/", views_tables.teacher_tables, name="teacher_tables"),
]
