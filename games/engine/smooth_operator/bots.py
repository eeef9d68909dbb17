"""Beginner and player bots for Smooth Operator. Both read only `view(state, seat)`.

`greedy_action` is the "player" level's heuristic as a pure function of what the deciding
player sees; the expert's rollouts use it too, on sampled states.
"""

from __future__ import annotations

from ..bots import Bot, BotRatings
from . import rules

# Which card a responder would rather keep for later, among cards giving the same award:
# `-` always plays and gives little, `/` is often the lowest when it divides, `x` is worst.
KEEP_VALUE = {"-": 4, "/": 3, "+": 2, "x": 1}
# Which special a stuck responder gives up first.
DISCARD_FIRST = ("free_turn", "double", "free_choice")


def lowest_card(hand, high: int, low: int) -> str:
    """The card giving the fewest points; among ties, the one least worth keeping."""
    options = rules.play_options(hand, high, low)
    return min(options, key=lambda card: (options[card], KEEP_VALUE[card]))


def comes_straight_back(deck_count: int, operator_discards: list) -> bool:
    """A special played now would be the only card to draw back (a pack cut short by a
    setup): playing free_turn or double again and again would never end the turn."""
    return deck_count == 0 and not operator_discards


def greedy_action(kind: str, hand, high: int, low: int, awards: dict, doubles: int,
                  recycled: bool = False) -> dict:
    """Respond with the lowest card; give up the least useful special; as the active player
    play free_turn, free_choice when it raises the awards, double, then end the turn."""
    if kind == rules.RESPONSE:
        return {"type": "play", "card": lowest_card(hand, high, low)}
    if kind == rules.PENALTY:
        return {"type": "penalty", "discard": next(c for c in DISCARD_FIRST if c in hand)}
    if "free_turn" in hand and not recycled:
        return {"type": "special", "card": "free_turn"}
    if "free_choice" in hand:
        sign = rules.best_sign(high, low)
        if rules.result(sign, high, low) * len(awards) > sum(awards.values()):
            return {"type": "special", "card": "free_choice", "sign": sign}
    if "double" in hand and sum(awards.values()) << doubles > 0 and not recycled:
        return {"type": "special", "card": "double"}
    return {"type": "end_turn"}


def recycled_in_view(view: dict) -> bool:
    return comes_straight_back(view["deck_counts"]["operator"], view["discards"]["operator"])


def _greedy_from_view(view: dict) -> dict:
    return greedy_action(view["decision"], view["hand"], view["high"], view["low"],
                         view["turn_awards"], view["doubles"], recycled_in_view(view))


class BeginnerBot(Bot):
    """Mostly random legal moves; now and then it spots the sensible one."""

    level = "beginner"
    SENSIBLE = 0.2

    def choose(self, view: dict) -> dict:
        if self.rng.random() < self.SENSIBLE:
            return _greedy_from_view(view)
        return dict(self.rng.choice(view["legal_actions"]))


class StarterBot(Bot):
    """The easiest level, a child who has not yet seen what the cards are for:
    with probability `CARELESS` it answers with the card that gives the most points, and as
    the active player keeps its special cards (ending the turn), except a Free Choice, which
    it plays with the sign that gives the fewest points; otherwise a random legal move. Always
    one of the view's legal moves (the one legal-move generator). The rate is set so that it
    loses to the beginner more than it wins (see RATINGS below): in a game with this much
    luck, even this is only about a third of its games."""

    level = "starter"
    CARELESS = 1.0  # every time it can (a penalty discard is still its dice's)

    def choose(self, view: dict) -> dict:
        legal = view["legal_actions"]
        if self.rng.random() < self.CARELESS:
            high, low = view["high"], view["low"]
            if view["decision"] == rules.RESPONSE:
                return dict(max(legal, key=lambda a: (rules.result(a["card"], high, low),
                                                      -KEEP_VALUE[a["card"]])))
            if view["decision"] == rules.SPECIALS_PHASE:
                signs = [a for a in legal if a.get("card") == "free_choice"]
                if signs:
                    worst = min(signs, key=lambda a: rules.result(a["sign"], high, low) or 0)
                    awards = view["turn_awards"]
                    # Only while it lowers the awards: played again (a pack cut short can give
                    # it straight back) it would change nothing, and the turn must end.
                    if (rules.result(worst["sign"], high, low) or 0) * len(awards) < sum(awards.values()):
                        return dict(worst)
                return next(dict(a) for a in legal if a["type"] == "end_turn")
        return dict(self.rng.choice(legal))


class PlayerBot(Bot):
    """A sound greedy player: see `greedy_action`."""

    level = "player"

    def choose(self, view: dict) -> dict:
        return _greedy_from_view(view)


# The bots' ratings (games/engine/bots.py `BotRatings`), measured on the 2-core development
# machine (the quick game to 650, 2 players) by
#     python -m games.engine.calibrate smooth_operator --games 1000 --seed 1
# When the bots change, run it again and copy its figures here.
# The starter's side by `... --games 400 --seed 1 --part low`.
RATINGS = BotRatings(levels={"starter": 870, "beginner": 1000, "player": 1128, "expert": 1225},
                     mix={-1: 870, -0.75: 903, -0.5: 955, -0.25: 951,
                          0: 1000, 0.25: 1035, 0.5: 1082, 0.75: 1162, 1: 1225})
