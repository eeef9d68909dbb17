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

A line is data (`Line`), worded only when it is shown, in the reader's language: the projector's
push is rendered once per language (arena/screen.py), so the line is read from the database once
and said in each. Its numbers and equations sit in <bdi> (they read left to right inside an
Arabic sentence). A game's hook may return the line's facts (a mapping with "line": one of
SENTENCES' kinds, and its values: worded here, in every language), or, as before, a finished
English sentence, which is shown as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from arena.models import Arena, ArenaGame
from games import registry
from games.engine.skills import ClassMove
from games.models import Move

# How many of the class's latest attempts a line reads.
RECENT = 500

# The operations a line may name, as the cards show them (the same in every language).
SIGNS = {"+": "+", "add": "+", "-": "−", "subtract": "−", "x": "×", "multiply": "×", "×": "×",
         "/": "÷", "divide": "÷", "÷": "÷", "−": "−"}


def _sign(value: Any) -> str:
    return SIGNS.get(str(value), str(value))


# Each kind of line: its words (chosen by its count: Arabic has six plural forms) and the values
# they show, from the facts the game gave. Whole sentences with named placeholders.
def _first_moves(facts: Mapping) -> tuple[str, dict]:
    return _("The first moves are coming…"), {}


def _moves_and_games(facts: Mapping) -> tuple[str, dict]:
    moves, games = int(facts["moves"]), int(facts["games"])
    # Two whole sentences: each has its own count (and so its own plural form).
    words = " ".join((
        ngettext("The class has made %(moves)s move.", "The class has made %(moves)s moves.", moves),
        ngettext("%(games)s game finished.", "%(games)s games finished.", games)))
    return words, {"moves": moves, "games": games}


def _fact_run(facts: Mapping) -> tuple[str, dict]:
    count = int(facts["count"])
    # Translators: the arena's projector. %(fact)s is a times-table fact such as "7 × 8".
    return ngettext("%(fact)s named right %(count)s time in a row.",
                    "%(fact)s named right %(count)s times in a row.", count), \
        {"fact": f"{facts['a']} × {facts['b']}", "count": count}


def _facts_right(facts: Mapping) -> tuple[str, dict]:
    count = int(facts["count"])
    # Translators: the arena's projector: how many of the class's latest times-table facts were right.
    return ngettext("Times-table facts: %(right)s of the last %(count)s named right.",
                    "Times-table facts: %(right)s of the last %(count)s named right.", count), \
        {"right": int(facts["right"]), "count": count}


def _sums_run(facts: Mapping) -> tuple[str, dict]:
    count = int(facts["count"])
    return ngettext("%(count)s sum worked out right in a row.",
                    "%(count)s sums worked out right in a row.", count), {"count": count}


def _most_played_operator(facts: Mapping) -> tuple[str, dict]:
    count = int(facts["count"])
    # Translators: %(card)s is an operator card: +, −, × or ÷.
    return ngettext("Most played operator card: %(card)s (%(count)s time).",
                    "Most played operator card: %(card)s (%(count)s times).", count), \
        {"card": _sign(facts["card"]), "count": count}


def _best_round(facts: Mapping) -> tuple[str, dict]:
    points = int(facts["points"])
    # Translators: Add or Multiply?: the most points one player made in one round.
    # %(equation)s is the sum itself, such as "8 × 9 = 72", and 72 is the points.
    return ngettext("Best round: %(equation)s point.", "Best round: %(equation)s points.", points), \
        {"equation": f"{facts['a']} {_sign(facts['operation'])} {facts['b']} = {points}"}


def _most_taken_card(facts: Mapping) -> tuple[str, dict]:
    count = int(facts["count"])
    # Translators: Numero: the number card that took most often, and how many times.
    return ngettext("Most taken card: %(card)s (%(count)s take).",
                    "Most taken card: %(card)s (%(count)s takes).", count), \
        {"card": int(facts["card"]), "count": count}


SENTENCES: dict[str, Callable[[Mapping], tuple[str, dict]]] = {
    "first_moves": _first_moves, "moves_and_games": _moves_and_games, "fact_run": _fact_run,
    "facts_right": _facts_right, "sums_run": _sums_run,
    "most_played_operator": _most_played_operator, "best_round": _best_round,
    "most_taken_card": _most_taken_card,
}


@dataclass(frozen=True)
class Line:
    """One class line: its kind and facts, worded in the language active when it is shown.
    `text`: a game's own finished sentence (the old hook contract), shown as it is."""

    kind: str = ""
    facts: Mapping[str, Any] = field(default_factory=dict)
    text: str = ""

    def worded(self) -> tuple[str, dict]:
        return SENTENCES[self.kind](self.facts) if self.kind else (self.text, {})

    def __str__(self) -> str:
        words, values = self.worded()
        return words % values if values else words

    def html(self) -> SafeString:
        """The line for a page: escaped, each value in <bdi> (left to right in any sentence)."""
        words, values = self.worded()
        if not values:
            return conditional_escape(words)
        return mark_safe(conditional_escape(words) % {
            name: format_html("<bdi>{}</bdi>", value) for name, value in values.items()})


def recent_moves(*, arena: Arena, limit: int = RECENT) -> list[ClassMove]:
    """The students' latest attempts at the arena's tables, oldest first."""
    rows = (Move.objects.filter(game__arena_table__arena=arena, seat__bot_level="")
            .order_by("-id").values_list("accepted", "action", "events", "analysis", "answer")[:limit])
    moves = [ClassMove(accepted=accepted, action=action if accepted else None,
                       events=(events or ()) if accepted else (), analysis=analysis or {}, answer=answer)
             for accepted, action, events, analysis, answer in rows]
    moves.reverse()
    return moves


def game_line(*, key: str, moves: list[ClassMove]) -> Line | None:
    """The game's own line from these moves, or None (no hook, or nothing to say yet)."""
    spec = registry.get(key)
    hook = spec.skills.class_line if spec is not None and spec.skills is not None else None
    said = hook(moves) if hook is not None and moves else None
    if isinstance(said, Mapping):
        kind = said.get("line")
        return Line(kind=kind, facts=dict(said)) if kind in SENTENCES else None
    return Line(text=said) if said else None


def generic_line(*, arena: Arena) -> Line:
    moves = Move.objects.filter(game__arena_table__arena=arena, accepted=True, seat__bot_level="").count()
    if not moves:
        return Line(kind="first_moves")
    games = ArenaGame.objects.filter(arena=arena, counted_at__isnull=False).count()
    return Line(kind="moves_and_games", facts={"moves": moves, "games": games})


def for_arena(*, arena: Arena) -> Line:
    return game_line(key=arena.key, moves=recent_moves(arena=arena)) or generic_line(arena=arena)
