"""Telling connected tables that a game changed. Each consumer then renders its own viewer's
view, so the message itself carries no cards at all."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def broadcast_game_changed(*, game_id: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(game_group(game_id), {"type": "game.changed", "game_id": game_id})
