"""Bots for the Multiplication Game. Each is given only its own view.

- starter (the easiest): like the beginner, but draws far more often when it could
  discard, as a child who has not yet learnt to look for a play.
- beginner: usually a random legal discard; draws about one turn in five anyway.
- player: always discards when it can: a card that wins, else a square (the next player
  draws and misses a turn), keeping free cards for when nothing else fits; the
  declaration is the one that leaves most of its own hand playable afterwards.
- expert: scores every legal discard with a one-turn lookahead. The next player's hand is
  unknown, but it is a random handful of the unseen cards (every card minus the viewer's
  hand, the open card and the face-up discards), so the chance that they cannot answer
  the new multipliers is exact (hypergeometric). Cards that are hard to play (few
  multipliers) go first; flexible cards and free cards are kept for later.
"""

from __future__ import annotations

from collections import Counter
from math import comb

from ..bots import Bot, BotRatings
from . import rules


class BeginnerBot(Bot):
    level = "beginner"
    draw_chance = 0.2

    def choose(self, view):
        options = rules.playable(view["hand"], rules.mask_of(view["open"]["multipliers"]))
        if not options or self.rng.random() < self.draw_chance:
            return {"type": "draw"}
        card, facts = options[int(self.rng.random() * len(options))]
        a, b = facts[int(self.rng.random() * len(facts))]
        return {"type": "discard", "card": card, "declare": [a, b]}


class StarterBot(BeginnerBot):
    """The beginner who often does not see a play: the chance of drawing anyway is set so
    that its rating sits below the weakest planted student's (see RATINGS below)."""

    level = "starter"
    draw_chance = 0.7


def flexibility(card) -> int:
    """How many open multipliers a card could ever answer (a free card answers all)."""
    return 10 if card == rules.FREE else len(rules.opening_multipliers(card))


def _mask_of_pair(a, b) -> int:
    return 1 << a | 1 << b


def _playable_count(hand, mask) -> int:
    return sum(1 for card in hand if rules.declarations(card, mask))


class PlayerBot(Bot):
    level = "player"

    def choose(self, view):
        hand = view["hand"]
        options = rules.playable(hand, rules.mask_of(view["open"]["multipliers"]))
        if not options:
            return {"type": "draw"}
        best, best_key = None, None
        for card, facts in options:
            rest = list(hand)
            rest.remove(card)
            for a, b in facts:
                key = (
                    not rest,                                  # this discard wins
                    rules.is_square(a * b),                    # the next player is skipped
                    card != rules.FREE or not rest,            # keep free cards for later
                    _playable_count(rest, _mask_of_pair(a, b)),
                    -flexibility(card),                        # keep flexible cards
                )
                if best_key is None or key > best_key:
                    best, best_key = (card, a, b), key
        card, a, b = best
        return {"type": "discard", "card": card, "declare": [a, b]}


def unseen_cards(view) -> Counter:
    """Cards the viewer cannot see: in other hands or in the deck, in unknown places."""
    unseen = Counter(rules.all_cards(view["free_cards"]))
    unseen.subtract(view["hand"])
    unseen.subtract(view["discard_pile"])
    unseen[view["open"]["card"]] -= 1
    return +unseen


def answer_chance(unseen: Counter, size: int, hand_size: int, mask: int, cache: dict) -> float:
    """Chance that `hand_size` cards drawn at random from the unseen ones can answer `mask`."""
    if mask not in cache:
        answers = sum(n for card, n in unseen.items() if rules.declarations(card, mask))
        cache[mask] = 1.0 - comb(size - answers, hand_size) / comb(size, hand_size) \
            if hand_size <= size else 1.0
    return cache[mask]


class ExpertBot(Bot):
    level = "expert"
    # Weights in "cards" (a discard is worth 1, a card drawn by a rival 1).
    blocked_again = 0.8     # the open card comes back to me unanswered and I can play
    flexible_card = 0.06    # per open multiplier a kept card could answer
    free_card = 0.6         # extra worth of keeping a free card
    win = 1000.0            # the value of a discard that empties the hand

    def evaluate(self, view) -> list[tuple]:
        """[(card, a, b, value)] for every legal discard (a <= b), in the legal-move order.

        The expert's own evaluation, exposed so that the skill analysis (analyse.py) judges a
        move by what the expert would make of the same position. Pure: no randomness."""
        hand = view["hand"]
        options = rules.playable(hand, rules.mask_of(view["open"]["multipliers"]))
        if not options:
            return []
        if len(hand) == 1:  # every discard empties the hand and wins
            return [(card, a, b, self.win) for card, facts in options for a, b in facts]
        players, me = view["players"], view["me"]
        seat = players.index(me)
        rival = players[(seat + 1) % len(players)]
        after_rival = players[(seat + 2) % len(players)]
        unseen = unseen_cards(view)
        size = sum(unseen.values())
        cache: dict = {}
        found = []
        for card, facts in options:
            rest = list(hand)
            rest.remove(card)
            kept = self.flexible_card * flexibility(card) + (self.free_card if card == rules.FREE else 0)
            for a, b in facts:
                mask = _mask_of_pair(a, b)
                if rules.is_square(a * b):
                    stuck = 1.0  # the rival draws and misses the turn for sure
                else:
                    stuck = 1.0 - answer_chance(unseen, size, view["cards_left"][rival], mask, cache)
                # If the rival cannot answer, the open card reaches the next seat as it is:
                # that is me in a two-player game (good if I can follow it up).
                follow = 0.0
                if after_rival == me and _playable_count(rest, mask):
                    follow = self.blocked_again
                found.append((card, a, b, stuck * (1.0 + follow) - kept))
        return found

    def choose(self, view):
        best, best_value = None, None
        for card, a, b, value in self.evaluate(view):
            if best_value is None or value > best_value:  # the first of equal best values
                best, best_value = (card, a, b), value
        if best is None:
            return {"type": "draw"}
        card, a, b = best
        return {"type": "discard", "card": card, "declare": [a, b]}


BOTS = {"starter": StarterBot, "beginner": BeginnerBot, "player": PlayerBot, "expert": ExpertBot}


# The bots' ratings (games/engine/bots.py `BotRatings`), measured on the 2-core development
# machine (the classic game, 2 players) by
#     python -m games.engine.calibrate multiplication --games 1000 --seed 1
# When the bots change, run it again and copy its figures here.
# The expert beats the beginner in 87-90 % of games, the player level in 58 %.
# The starter's side by `... --games 400 --seed 1 --part low`: the starter won none
# of its 400 games against the beginner, so its 80 is only as low as 400 games can tell (the
# calibration counts a share below 0.5 % as 0.5 %); the mixes between them are measured.
RATINGS = BotRatings(levels={"starter": 80, "beginner": 1000, "player": 1296, "expert": 1349},
                     mix={-1: 80, -0.75: 540, -0.5: 694, -0.25: 900,
                          0: 1000, 0.25: 1109, 0.5: 1214, 0.75: 1295, 1: 1349})
