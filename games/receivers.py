"""What games does when its own signals say a table changed (connected by GamesConfig.ready()).

This is what keeps the imports one way: the move service sends `game_changed` and never
imports the tasks, while the tasks play bots through the move service.
"""

import logging

from games import realtime, signals
from games.rendering import table_push
from games.services.ratings import ratings_update_for_game
from games.tasks import schedule_bot_moves

log = logging.getLogger(__name__)


def table_changed(sender, *, game_id: int, schedule_bots: bool = True,
                  by_seat_id: int | None = None, game=None, seats=None, **kwargs) -> None:
    """After a committed change: render the players' views once and tell the table (and
    lobby) pages, then let any bot whose turn it is play. Each step logs its own failure and
    the others still run: a bot is queued even when the broadcast failed, and a view that
    could not be rendered here is rendered by each socket itself."""
    try:
        push = table_push(game_id=game_id, by_seat_id=by_seat_id, game=game, seats=seats)
    except Exception:  # noqa: BLE001 - the change is committed; the sockets render their own
        log.exception("game %s: the views could not be rendered for the push", game_id)
        push = None
    realtime.broadcast_game_changed(game_id=game_id, message=push.message() if push else None)
    if schedule_bots and (push is None or push.has_bots):
        schedule_bot_moves(game_id=game_id)


def game_rated(sender, *, game_id: int, **kwargs) -> None:
    """After a game's finish was committed: its students' ratings move (once: the service is
    idempotent). In the same thread, so a "just right" game started next already uses them."""
    ratings_update_for_game(game_id=game_id)


def connect() -> None:
    signals.game_changed.connect(table_changed, dispatch_uid="games.table_changed")
    signals.game_finished.connect(game_rated, dispatch_uid="games.game_rated")
