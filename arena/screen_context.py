"""What the projector shows, read for the whole room (arena/selectors.py says what may be
shown there: first names and initials, no ratings, no hidden cards, no named mistakes).

Before the start it is the lobby (who has joined); while the arena runs, the counts, the top
five (or the class's totals) and the streaks; at the end, the podium (or the class's totals and
the most improved), which then fills the screen (static/css/arena.css).
"""

from __future__ import annotations

from arena import class_line, selectors
from arena.models import Arena, ArenaPlayer

TOP = 5
STREAKS = 3
# Names the lobby shows (the latest to join first) and names a podium place shows: enough for
# a class or two, and a push stays small (at most 2 KB: tests/arena/test_screen.py).
LOBBY_NAMES = 30
PODIUM_NAMES = 10


def for_screen(*, arena: Arena) -> dict:
    """Read per round (every ARENA_ROUND_SECONDS) for an arena of up to hundreds: only the
    rows shown are read, never the whole standings."""
    counts = selectors.counts(arena=arena)
    context = {"arena": arena, "counts": counts, "with_points": arena.with_points}
    if arena.status == Arena.Status.OPEN:
        names = selectors.joined_names(arena=arena, limit=LOBBY_NAMES)
        context.update(joined=names, more_joined=counts.joined - len(names))
        return context
    if arena.status == Arena.Status.FINISHED:
        if arena.with_points:
            context["podium"] = selectors.podium(arena=arena, names_shown=PODIUM_NAMES)
        else:
            context["totals"] = selectors.class_totals(arena=arena)
        return context
    context["line"] = class_line.for_arena(arena=arena)
    if arena.with_points:
        # Taken-out students keep their place in the teacher's standings but are not shown
        # here: read as many more rows as there are of them.
        out = arena.players.filter(status=ArenaPlayer.Status.OUT).count()
        leaders = [p for p in selectors.standings(arena=arena, limit=TOP + out)
                   if p.status != p.Status.OUT]
        context["top"] = [{"place": p.place, "name": p.public_name, "points": p.points,
                           "on_fire": p.on_fire} for p in leaders[:TOP] if p.games]
    else:
        context["totals"] = selectors.class_totals(arena=arena)
    hot, on_fire = selectors.on_a_streak(arena=arena, limit=STREAKS)
    context["streaks"] = [{"name": p.public_name, "streak": p.streak} for p in hot]
    context["on_fire"] = on_fire
    return context
