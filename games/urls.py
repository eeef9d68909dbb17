from django.urls import path

from games.views import lobby, selection, table

app_name = "games"

urlpatterns = [
    path("game/<int:game_id>/", table.game_page, name="table"),
    path("game/<int:game_id>/replay/", table.game_replay, name="replay"),
    path("game/<int:game_id>/again/", table.play_again, name="play_again"),
    path("game/<int:game_id>/stop/", table.game_stop, name="stop"),
    path("game/<int:game_id>/selection/", selection.game_selection, name="selection"),
    path("play/free/<str:key>/", table.free_play_start, name="free_play_start"),
    # Tables with classmates
    path("play/tables/", lobby.tables_panel, name="tables_panel"),
    path("play/tables/join/", lobby.table_join_by_code, name="table_join_by_code"),
    path("table/<int:game_id>/", lobby.lobby_page, name="lobby"),
    path("table/<int:game_id>/join/", lobby.lobby_join, name="lobby_join"),
    path("table/<int:game_id>/leave/", lobby.lobby_leave, name="lobby_leave"),
    path("table/<int:game_id>/bots/", lobby.lobby_add_bot, name="lobby_add_bot"),
    path("table/<int:game_id>/bots/<int:seat_id>/remove/", lobby.lobby_remove_bot,
         name="lobby_remove_bot"),
    path("table/<int:game_id>/invite/", lobby.lobby_invite, name="lobby_invite"),
    path("table/<int:game_id>/start/", lobby.lobby_start, name="lobby_start"),
]
