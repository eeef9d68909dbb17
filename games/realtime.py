"""Telling connected tables that a game changed, with the views rendered once for them
(games/rendering.py `TablePush`): each socket sends on only its own seat's view. The message
goes through the channel layer (server-side, live/groups.py), never as a whole to a browser.

A broadcast is a courtesy, never part of the change: it is sent after the change committed,
and when the channel layer cannot take it the failure is logged and the caller carries on.
Every page reads the whole table again when its socket (re)connects. Pushes handed over from
different threads may arrive out of order; every socket drops a table older than the one it
already sent (live/consumer.py `Sent`).
"""

from live.groups import send_to_group


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def broadcast_game_changed(*, game_id: int, message: dict | None = None) -> bool:
    """Tell the game's group (`message`: a TablePush's; without one, the sockets render their
    own views); False (logged) when the channel layer is unavailable."""
    return send_to_group(game_group(game_id), message or {"type": "game.changed", "game_id": game_id})
