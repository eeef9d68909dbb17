"""What games does when its own signals say a table changed (connected by GamesConfig.ready()).

This is what keeps the imports one way: the move service sends `game_changed` and never
imports the tasks, while the tasks play bots through the move service.
"""

from games import realtime, signals
from games.tasks import schedule_bot_moves


def table_changed(sender, *, game_id: int, schedule_bots: bool = True, **kwargs) -> None:
    """After a committed change: tell the table (and lobby) pages, then let any bot whose
    turn it is play. Each step logs its own transport failure (Redis or the broker away) and
    the other still runs: a bot is queued even when the broadcast failed."""
    realtime.broadcast_game_changed(game_id=game_id)
    if schedule_bots:
        schedule_bot_moves(game_id=game_id)


def connect() -> None:
    signals.game_changed.connect(table_changed, dispatch_uid="games.table_changed")
