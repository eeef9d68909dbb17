"""What the projector shows, read for the whole room (arena/selectors.py says what may be
shown there: first names and initials, no ratings, no hidden cards, no named mistakes)."""

from __future__ import annotations

from arena import class_line, selectors
from arena.models import Arena

TOP = 5
STREAKS = 3


def for_screen(*, arena: Arena) -> dict:
    counts = selectors.counts(arena=arena)
    context = {"arena": arena, "counts": counts, "with_points": arena.with_points,
               "line": class_line.for_arena(arena=arena)}
    players = [p for p in selectors.standings(arena=arena) if p.status != p.Status.OUT]
    if arena.with_points:
        context["top"] = [{"place": p.place, "name": p.public_name, "points": p.points,
                           "on_fire": p.on_fire} for p in players[:TOP] if p.games]
    else:
        context["totals"] = selectors.class_totals(arena=arena)
    hot = sorted((p for p in players if p.streak >= 2), key=lambda p: (-p.streak, p.public_name))
    context["streaks"] = [{"name": p.public_name, "streak": p.streak} for p in hot[:STREAKS]]
    context["on_fire"] = len(hot)
    return context
