"""A student back on their arena page, and the classmates waiting for them at a new table.

A round seats a student whose game has just ended while their page still shows the result; it
comes back to the arena page by itself (or they press "Back to the arena") and goes on to the
new table from there. A classmate seated with them who was already on the arena page is held
there until then (arena/selectors.py `seconds_until_table_opens`), and is told the moment it
happens, so both pages open the table together.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import cache

from arena import realtime
from arena.models import ArenaPlayer
from arena.selectors import back_on_arena_page_key, table_hold_seconds
from games.models import Game, Seat

log = logging.getLogger(__name__)


def arena_page_opened(*, player: ArenaPlayer) -> None:
    """The student opened their arena page now: remember it (in the cache, for as long as it
    can hold anybody), and when they are seated at a game in play, tell the classmates seated
    there (their arena pages re-render: one held for this student goes to the table now).
    Without the cache, classmates are held for the longest (`table_hold_seconds`), never stuck."""
    try:
        cache.set(back_on_arena_page_key(player.arena_id, player.user_id), time.time(),
                  timeout=int(table_hold_seconds() * 4))
    except Exception:  # noqa: BLE001 - a page view must not fail for a courtesy
        log.warning("arena %s: could not note that student %s is back", player.arena_id,
                    player.user_id, exc_info=True)
        return
    if player.status != ArenaPlayer.Status.PLAYING or player.game is None or \
            player.game.status != Game.Status.ACTIVE:
        return
    for user_id in (Seat.objects.filter(game_id=player.game_id, user__isnull=False)
                    .exclude(user_id=player.user_id).values_list("user_id", flat=True)):
        realtime.tell_player(arena_id=player.arena_id, user_id=user_id)
