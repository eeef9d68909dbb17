"""Bots for Add or Multiply?. Each sees only its view (hands are public, choices are not).

- beginner: a uniformly random legal play.
- player: greedy: the operation with the better expected score for the cards the
  opponents still hold; the two lowest cards go out, the lowest to the opponent most
  likely to multiply.
- expert: Monte Carlo. For the most promising plays it samples the opponents' secret
  choices this round from their remaining hands, then plays the rest of the game out at
  random, and keeps the play with the best mean final margin (own score minus the
  opponents' mean). The last round is computed exactly.
"""

from __future__ import annotations

import random

from ..bots import Bot
from . import rules


class BeginnerBot(Bot):
    level = "beginner"

    def choose(self, view):
        return self.rng.choice(self.engine.legal_actions_in_view(view))


def _mean(values) -> float:
    return sum(values) / len(values) if values else 0.0


def _multiply_chance(hand: dict) -> float:
    """How likely a player is to multiply, judged only by the operation cards left."""
    return hand["operations"].count("x") / len(hand["operations"])


def greedy_play(view: dict) -> dict:
    """The player bot's choice; also the expert's shortlist order."""
    return rank_plays(view)[0]


def rank_plays(view: dict) -> list[dict]:
    """Legal plays sorted best first by a one-round estimate (stable, so deterministic)."""
    me, hands = view["me"], view["hands"]
    first, second = rules.opponents(view["players"], me)
    m1, m2 = _mean(hands[first]["numbers"]), _mean(hands[second]["numbers"])
    mine = {"+": m1 + m2, "x": m1 * m2}
    # Harm of a card sent to an opponent: linear in its value, steeper for a likely
    # multiplier (whose other number comes from the third player).
    slope = {}
    for target, third_mean in ((first, m2), (second, m1)):
        p_x = _multiply_chance(hands[target])
        slope[target] = p_x * third_mean + (1 - p_x)
    lead = max(view["scores"].values()) if view["scores"] else 0
    weight = {t: 1.0 + (0.5 if view["scores"][t] == lead else 0.0) for t in (first, second)}

    def value(play):
        on = play["on"]
        harm = sum(weight[t] * slope[t] * on[t] for t in (first, second))
        return mine[play["operation"]] - 0.5 * harm

    plays = rules.legal_plays(view["hand"], [first, second])
    return sorted(plays, key=value, reverse=True)


class PlayerBot(Bot):
    level = "player"

    def choose(self, view):
        return greedy_play(view)


class ExpertBot(Bot):
    level = "expert"
    shortlist = 24   # plays kept from the greedy ranking for the Monte Carlo stage
    samples = 24     # sampled opponent choices (with a random playout) per play

    def choose(self, view):
        players = view["players"]
        me = view["me"]
        plays = rank_plays(view)
        rounds_left = view["rounds"] - view["round"]
        targets = rules.opponents(players, me)
        opponent_plays = {t: rules.legal_plays(view["hands"][t], rules.opponents(players, t))
                          for t in targets}
        if rounds_left == 0:
            return max(plays, key=lambda play: self._exact_last_round(view, play, opponent_plays))
        candidates = plays[: self.shortlist]
        draws = [(self.rng.choice(opponent_plays[targets[0]]),
                  self.rng.choice(opponent_plays[targets[1]]),
                  self.rng.getrandbits(32)) for _ in range(self.samples)]
        best, best_value = candidates[0], None
        for play in candidates:
            total = 0.0
            for first_play, second_play, seed in draws:
                chosen = {me: play, targets[0]: first_play, targets[1]: second_play}
                total += _playout(view, chosen, rounds_left, random.Random(seed))
            if best_value is None or total > best_value:
                best, best_value = play, total
        return best

    def _exact_last_round(self, view, play, opponent_plays) -> float:
        me = view["me"]
        first, second = rules.opponents(view["players"], me)
        total, count = 0.0, 0
        for first_play in opponent_plays[first]:
            for second_play in opponent_plays[second]:
                chosen = {me: play, first: first_play, second: second_play}
                total += _margin(view, me, _round_points(view["players"], chosen))
                count += 1
        return total / count


def _round_points(players, chosen) -> dict:
    facts = rules.round_facts(players, {p: {"on": c["on"], "operation": c["operation"]}
                                        for p, c in chosen.items()})
    return {p: f["points"] for p, f in facts.items()}


def _margin(view, me, gained) -> float:
    finals = {p: view["scores"][p] + gained.get(p, 0) for p in view["players"]}
    others = [finals[p] for p in view["players"] if p != me]
    return finals[me] - sum(others) / len(others)


def _playout(view, chosen, rounds_left, rng) -> float:
    """Final margin for the viewer after this round's `chosen` plays and random play on."""
    players = view["players"]
    me = view["me"]
    gained = _round_points(players, chosen)
    numbers, operations = [], []
    for p in players:
        hand = rules.remove_play(view["hands"][p], chosen[p]["on"], chosen[p]["operation"])
        numbers.append(hand["numbers"])
        operations.append(hand["operations"])
    points = [gained[p] for p in players]
    for _ in range(rounds_left):
        incoming = [[], [], []]
        for i in range(3):
            cards = numbers[i]
            a = cards.pop(rng.randrange(len(cards)))
            b = cards.pop(rng.randrange(len(cards)))
            incoming[(i + 1) % 3].append(a)
            incoming[(i + 2) % 3].append(b)
        for i in range(3):
            ops = operations[i]
            op = ops.pop(rng.randrange(len(ops)))
            a, b = incoming[i]
            points[i] += a + b if op == "+" else a * b
    return _margin(view, me, dict(zip(players, points)))


BOTS = {"beginner": BeginnerBot, "player": PlayerBot, "expert": ExpertBot}
