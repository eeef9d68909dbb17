"""One live line for the whole class from the arena's moves (the projector's last row)."""

from __future__ import annotations

from arena.models import Arena, ArenaGame
from games.models import Move


def for_arena(*, arena: Arena) -> str:
    moves = Move.objects.filter(game__arena_table__arena=arena, accepted=True).count()
    games = ArenaGame.objects.filter(arena=arena, counted_at__isnull=False).count()
    if not moves:
        return "The first moves are coming…"
    return f"The class has made {moves} moves and finished {games} games."
