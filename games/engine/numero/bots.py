"""Numero bots. Each is given only `view(state, seat)` and answers with one action.

A bot's turn is a *plan* (bot_base.py: what every level shares).

- starter (the easiest): like the beginner, but it often does not see a take it
  could make (then it builds or discards at random);
- beginner: any take as the centre is (at random), otherwise a random build or discard;
  in a last turn or in Solitaire it follows the search's plan (wild cards included).
- player: the take that wins the most cards (wild cards included); otherwise the leaflet's
  advice: build with the answer in hand (joining as many centre cards as it can), else
  discard one card of a pair, else the higher card of a number sentence it holds (a + b = c),
  else its lowest card.
- expert: see expert.py.
"""

from __future__ import annotations

from ..bots import BotRatings
from .bot_base import (NumeroBot, after_wild, leaflet_discard, numbers_in, plan_steps,
                       signature, wilds_in)
from .cards import apply_wild, sort_cards, value_of
from .expert import ExpertBot
from .search import best_take
from .view import search_items

# The planted Numero player and the tests reach the shared helpers through this module.
__all__ = ["BOTS", "BOTS_BY_GAME", "RATINGS_BY_GAME", "BeginnerBot", "ExpertBot", "NumeroBot", "PlayerBot",
           "StarterBot", "after_wild", "leaflet_discard", "numbers_in", "plan_steps", "signature", "wilds_in"]


class BeginnerBot(NumeroBot):
    level = "beginner"

    def wild_only_step(self, view):
        moves = [{"type": "discard_wild", "card": w} for w in sort_cards(view["hand"])]
        moves += [{"type": "wild", "card": w, "target": item["cards"][0]}
                  for w in sort_cards(view["hand"]) for item in view["centre"]
                  if apply_wild(w, item["value"]) is not None]
        return self.rng.choice(moves)

    def must_take(self, view):
        takes = self.takes_now(view, limit=20)
        if takes:
            return [self.rng.choice(takes)]
        return super().must_take(view)

    def turn(self, view):
        takes = self.takes_now(view, limit=20)
        if takes:
            return [self.rng.choice(takes)]
        return [self.build_or_discard(view)]

    def build_or_discard(self, view) -> dict:
        options = [self.build_action(view, c, s) for c, s in self.builds(view, limit=10)]
        options += [{"type": "discard", "card": c} for c in sorted(set(numbers_in(view["hand"])))]
        return self.rng.choice(options)


class StarterBot(BeginnerBot):
    """The beginner who often misses a take: with probability `misses_takes` it builds or
    discards at random although it could take. The chance is set so that its rating sits
    below the weakest planted student's (see RATINGS_BY_GAME below). Where only a take may
    end the turn (a last turn, Solitaire) it plays as the beginner does."""

    level = "starter"
    misses_takes = 0.6

    def turn(self, view):
        if self.rng.random() < self.misses_takes:
            return [self.build_or_discard(view)]
        return super().turn(view)


class PlayerBot(NumeroBot):
    level = "player"

    def turn(self, view):
        plan = best_take(search_items(view["centre"]), view["hand"], "cards")
        if plan is not None:
            return plan_steps(view, plan)
        builds = self.builds(view)
        if builds:
            # join as many centre cards as possible, then the bigger build
            centre = view["centre"]
            card, indices = max(builds, key=lambda b: (
                sum(len(centre[i]["cards"]) for i in b[1]),
                value_of(b[0]) + sum(centre[i]["value"] for i in b[1])))
            return [self.build_action(view, card, indices)]
        return [{"type": "discard", "card": leaflet_discard(numbers_in(view["hand"]))}]


BOTS = {"starter": StarterBot, "beginner": BeginnerBot, "player": PlayerBot, "expert": ExpertBot}
BOTS_BY_GAME = {"numero": BOTS, "numero_solitaire": dict(BOTS)}


# The bots' ratings (games/engine/bots.py `BotRatings`), measured on the 2-core development
# machine (level 1, 2 players) by
#     python -m games.engine.calibrate numero --games 400 --seed 1
# When the bots change, run it again and copy its figures here.
# Numero Solitaire is played alone: nobody to be rated against, so no ratings.
# The starter's side by `... --games 300 --seed 1 --part low`.
RATINGS_BY_GAME = {"numero": BotRatings(
    levels={"starter": 561, "beginner": 1000, "player": 1262, "expert": 1417},
    mix={-1: 561, -0.75: 692, -0.5: 790, -0.25: 918,
         0: 1000, 0.25: 1103, 0.5: 1212, 0.75: 1303, 1: 1417})}
