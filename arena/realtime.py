"""Telling an arena's open pages that it changed: the projector (`screen` group, teachers)
and each student's own page (a group per player, so what a child is sent is only theirs).

A push is a courtesy sent after the change committed: when the channel layer cannot take it,
the failure is logged (live/groups.py) and every page reads the arena again when its socket
reconnects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.db import transaction

from live.groups import send_to_group


def screen_group(arena_id: int) -> str:
    return f"arena.{arena_id}.screen"


def player_group(arena_id: int, user_id: int) -> str:
    return f"arena.{arena_id}.player.{user_id}"


def push_screen(*, arena_id: int, parts: dict[str, str], on_failure: Callable[[], None] | None = None) -> bool:
    """The projector's new fragment, already rendered in each language (language code -> HTML):
    every projector shows the same, each in its teacher's language. `on_failure`: see
    live.groups.send_to_group."""
    return send_to_group(screen_group(arena_id), {"type": "arena.screen", "parts": parts},
                         on_failure=on_failure)


def tell_player(*, arena_id: int, user_id: int) -> bool:
    """A student's arena changed for them (seated, paused, over): their page re-renders."""
    return send_to_group(player_group(arena_id, user_id), {"type": "arena.player"})


def tell_players_on_commit(*, arena_id: int, user_ids: Iterable[int]) -> None:
    """`tell_player` for each of these students once the transaction commits (nobody hears of
    a change that was rolled back)."""
    ids = sorted(set(user_ids))
    transaction.on_commit(lambda: [tell_player(arena_id=arena_id, user_id=uid) for uid in ids],
                          robust=True)
