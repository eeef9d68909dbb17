"""One live line for the whole class from the arena's moves (the projector's last row).

The game says it, through its plug-in (`GameSkills.class_line`: "7 × 8 named right 14 times
in a row", "Most taken card: 12"), from the class's recent attempts; only the game knows
which of its facts were face up. What it is given is cut down here to what the class may
see: the students' attempts only (a computer player is not the class), and of a refused
attempt only its analysis (its action may name a card its player still holds; the game reads
only the fact it judged). A game without a line, or with nothing to say yet, gets the
generic count of moves and finished games.

It runs at every pairing round (every ARENA_ROUND_SECONDS) for every live arena, so it is one
query of the last RECENT attempts, newest first by id, with only the columns a line reads.
"""

from __future__ import annotations

from arena.models import Arena, ArenaGame
from games import registry
from games.engine.skills import ClassMove
from games.models import Move

# How many of the class's latest attempts a line reads.
RECENT = 500

FIRST_MOVES = "The first moves are coming…"


def recent_moves(*, arena: Arena, limit: int = RECENT) -> list[ClassMove]:
    """The students' latest attempts at the arena's tables, oldest first."""
    rows = (Move.objects.filter(game__arena_table__arena=arena, seat__bot_level="")
            .order_by("-id").values_list("accepted", "action", "events", "analysis", "answer")[:limit])
    moves = [ClassMove(accepted=accepted, action=action if accepted else None,
                       events=(events or ()) if accepted else (), analysis=analysis or {}, answer=answer)
             for accepted, action, events, analysis, answer in rows]
    moves.reverse()
    return moves


def game_line(*, key: str, moves: list[ClassMove]) -> str | None:
    """The game's own line from these moves, or None (no hook, or nothing to say yet)."""
    spec = registry.get(key)
    hook = spec.skills.class_line if spec is not None and spec.skills is not None else None
    return hook(moves) if hook is not None and moves else None


def generic_line(*, arena: Arena) -> str:
    moves = Move.objects.filter(game__arena_table__arena=arena, accepted=True, seat__bot_level="").count()
    if not moves:
        return FIRST_MOVES
    games = ArenaGame.objects.filter(arena=arena, counted_at__isnull=False).count()
    return (f"The class has made {moves} move{'' if moves == 1 else 's'} and finished "
            f"{games} game{'' if games == 1 else 's'}.")


def for_arena(*, arena: Arena) -> str:
    return game_line(key=arena.key, moves=recent_moves(arena=arena)) or generic_line(arena=arena)
