"""The end of a game for its player: how they played, in the figures and the words of their
"My progress" page and of the parents' report.

The figures are the game's skill evidence for the player's seat, counted by the reports' own
machinery (games/engine/evidence.py) and summed as the reports sum them; each is said in the
one sentence of its measure (`well_sentence`). So a game that ends "You chose the best card 0
times out of 2" is the game that adds 0 of 2 to "My progress", never "2 of 2" by another
rule.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from games.engine.evidence import counts, game_evidence
from games.engine.skills import GENERIC_MEASURES, well_sentence
from games.words import say
from games.models import Game, Seat
from games.selectors.play import seat_move_facts
from games.spec import GameSpec

NOTHING_COUNTED = gettext_lazy("Thanks for playing: every game makes you faster.")


def how_you_played(*, spec: GameSpec, game: Game, seat: Seat) -> list[str]:
    """One sentence per measure the player had a chance at in this game (the game's own
    measures in their order, then playing by the rules)."""
    skills = spec.skills
    moves = seat_move_facts(game=game, seat=seat, skills=skills)
    rows = game_evidence(skills, moves, {seat.pk: seat.name}, {seat.pk})
    measures = [m for m in (*(skills.measures if skills else ()), *GENERIC_MEASURES) if m.has_misses]
    found = counts(rows, [m.id for m in measures])
    return [say(well_sentence(m, *found[m.id])) for m in measures if m.id in found] or [str(NOTHING_COUNTED)]
