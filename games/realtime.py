"""Telling connected tables that a game changed, with the views rendered once for them
(games/rendering.py `TablePush`): each socket sends on only its own seat's view. The message
goes through the channel layer (server-side), never as a whole to a browser.

A broadcast is a courtesy, never part of the change: it is sent after the change committed,
and when the channel layer cannot take it (Redis stopped or restarting) the failure is logged
and the caller carries on. Nothing is lost: every page reads the whole table again when its
socket (re)connects.
"""

import logging

import redis.exceptions
from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

# What a channel layer raises when its transport is away: channels-redis lets redis-py's
# errors through (ConnectionError, TimeoutError), or the socket's own OSError; a full channel
# raises ChannelFull. Anything else is a bug and is raised.
LAYER_ERRORS = (redis.exceptions.RedisError, OSError, TimeoutError, ChannelFull)


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def broadcast_game_changed(*, game_id: int, message: dict | None = None) -> bool:
    """Tell the game's group (`message`: a TablePush's; without one, the sockets render their
    own views); False (logged) when the channel layer is unavailable."""
    return send_to_group(game_group(game_id), message or {"type": "game.changed", "game_id": game_id})


def send_to_group(group: str, message: dict) -> bool:
    """Send one message to a channel-layer group from synchronous code; False (logged) when
    the channel layer is unavailable: its pages catch up when their socket reconnects."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        async_to_sync(layer.group_send)(group, message)
    except LAYER_ERRORS as exc:
        log.warning("%s changed but its pages were not told (channel layer: %r); they catch "
                    "up when their socket reconnects", group, exc)
        return False
    return True
