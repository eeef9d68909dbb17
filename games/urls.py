"""A table is one game and its seats, from gathering players to its end. Its two pages: the lobby
(`/lobby/<id>/`, `games:lobby`: classmates gather and the host starts) and the game page
(`/game/<id>/`, `games:game`: the cards are dealt). Each sends to the other when the table is in
the other's stage."""

from django.urls import path
from django.views.generic import RedirectView

from games.views import game, lobby, selection

app_name = "games"

urlpatterns = [
    path("game/<int:game_id>/", game.game_page, name="game"),
    path("game/<int:game_id>/replay/", game.game_replay, name="replay"),
    path("game/<int:game_id>/again/", game.play_again, name="play_again"),
    path("game/<int:game_id>/stop/", game.game_stop, name="stop"),
    path("game/<int:game_id>/selection/", selection.game_selection, name="selection"),
    path("play/free/<str:key>/", game.free_play_start, name="free_play_start"),
    # Tables with classmates
    path("play/tables/", lobby.tables_panel, name="tables_panel"),
    path("play/tables/join/", lobby.table_join_by_code, name="table_join_by_code"),
    path("lobby/<int:game_id>/", lobby.lobby_page, name="lobby"),
    path("lobby/<int:game_id>/join/", lobby.lobby_join, name="lobby_join"),
    path("lobby/<int:game_id>/leave/", lobby.lobby_leave, name="lobby_leave"),
    path("lobby/<int:game_id>/bots/", lobby.lobby_add_bot, name="lobby_add_bot"),
    path("lobby/<int:game_id>/bots/<int:seat_id>/remove/", lobby.lobby_remove_bot,
         name="lobby_remove_bot"),
    path("lobby/<int:game_id>/invite/", lobby.lobby_invite, name="lobby_invite"),
    path("lobby/<int:game_id>/start/", lobby.lobby_start, name="lobby_start"),
    # The lobby's former address: a link shared or bookmarked with it still opens the lobby.
    path("table/<int:game_id>/", RedirectView.as_view(pattern_name="games:lobby", permanent=True,
                                                      query_string=True)),
]
