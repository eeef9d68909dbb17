"""Bots for Add or Multiply?. Each sees only its view (hands are public, choices are not).

- beginner: a uniformly random legal play.
- player: greedy. Opponents choose independently, so the expected score of `x` is the
  product of the means of the cards each opponent still holds, and that of `+` their sum:
  it takes the better one. It sends its cards so as to give away as little as it can,
  the lowest card to the opponent most likely to multiply, sparing the trailing player.
- expert: Monte Carlo. Its own score depends only on its operations (the opponents choose
  what comes in) and the opponents' scores only on what it sends, so it decides the two
  apart. Each held operation is scored by playouts of the incoming cards (itself greedy
  afterwards); each of the player's best-ranked sends by sampled secret choices of the
  opponents this round (uniform over their legal plays: nothing else about them is known)
  followed by random playouts, with the same samples for every send. In a short last
  round every pair of opponent choices is scored exactly.
"""

from __future__ import annotations

import random

from ..bots import Bot
from . import rules


def expected_send(numbers) -> float:
    """The mean card a player sends when choosing among its *different* values alike.

    That is how a uniformly random legal play behaves (duplicates count once), so high
    single cards leave a hand sooner than its duplicated 0s, 1s and 2s."""
    values = set(numbers)
    return sum(values) / len(values) if values else 0.0


def random_send(cards: list, rng) -> tuple[int, int]:
    """Remove and return (to the next player, to the one after) as a uniformly random
    legal pair of values would (rejection sampling over pairs of different values)."""
    values = sorted(set(cards))
    n = len(values)
    random = rng.random  # int(random() * n) is several times faster than rng.choice
    while True:
        a, b = values[int(random() * n)], values[int(random() * n)]
        if a != b or cards.count(a) > 1:
            cards.remove(a)
            cards.remove(b)
            return a, b


def random_operation(operations: list, rng) -> str:
    kinds = sorted(set(operations))
    operation = kinds[int(rng.random() * len(kinds))]
    operations.remove(operation)
    return operation


def better_operation(first_numbers, second_numbers, operations) -> str:
    """The held operation with the higher expected score for cards sent at random."""
    m1, m2 = expected_send(first_numbers), expected_send(second_numbers)
    wanted = "x" if m1 * m2 > m1 + m2 else "+"
    return wanted if wanted in operations else rules.other_operation(wanted)


def rank_plays(view: dict) -> list[dict]:
    """Legal plays, best first by the greedy one-round estimate (a stable sort)."""
    me, hands, scores = view["me"], view["hands"], view["scores"]
    first, second = rules.opponents(view["players"], me)
    m1, m2 = expected_send(hands[first]["numbers"]), expected_send(hands[second]["numbers"])
    expected = {"+": m1 + m2, "x": m1 * m2}
    # Harm of a card of value v sent to a target: p_x * v * E[w] + (1 - p_x) * v, where
    # w comes from the third player and p_x is the target's share of `x` cards left.
    harm_per_point = {}
    for target, third_mean in ((first, m2), (second, m1)):
        operations = hands[target]["operations"]
        p_x = operations.count("x") / len(operations)
        weight = 1.5 if scores[target] == max(scores.values()) else 1.0
        harm_per_point[target] = weight * (p_x * third_mean + (1 - p_x))

    def value(play):
        harm = sum(harm_per_point[t] * v for t, v in play["on"].items())
        return expected[play["operation"]] - 0.5 * harm

    plays = rules.legal_plays(view["hand"], [first, second])
    return sorted(plays, key=value, reverse=True)


class BeginnerBot(Bot):
    level = "beginner"

    def choose(self, view):
        return self.rng.choice(self.engine.legal_actions_in_view(view))


class PlayerBot(Bot):
    level = "player"

    def choose(self, view):
        return rank_plays(view)[0]


class ExpertBot(Bot):
    level = "expert"
    operation_samples = 120   # playouts per operation
    shortlist = 8             # distinct sends kept from the greedy ranking
    send_samples = 32         # playouts per send
    exact_limit = 100         # last round: score every pair of opponent plays up to this

    def choose(self, view):
        operation = self._operation(view)
        sends = self._sends(view, operation)
        return {"type": "play", "on": sends, "operation": operation}

    def _operation(self, view) -> str:
        """Own score depends only on the operations (what comes in is the opponents'
        choice), so each held operation is scored by playouts of the incoming cards."""
        held = sorted(set(view["hand"]["operations"]))
        if len(held) == 1:
            return held[0]
        seeds = [self.rng.getrandbits(32) for _ in range(self.operation_samples)]
        totals = {op: sum(_own_playout(view, op, random.Random(s)) for s in seeds) for op in held}
        return max(held, key=lambda op: (totals[op], op == "+"))

    def _sends(self, view, operation) -> dict:
        """The opponents' scores depend only on what is sent to them: keep the send that
        gives them the fewest points, over sampled choices of theirs and playouts."""
        players, me = view["players"], view["me"]
        targets = rules.opponents(players, me)
        sends = []
        for play in rank_plays(view):
            if play["operation"] == operation and play["on"] not in sends:
                sends.append(play["on"])
        their_plays = [rules.legal_plays(view["hands"][t], rules.opponents(players, t))
                       for t in targets]
        exact = len(their_plays[0]) * len(their_plays[1]) <= self.exact_limit
        if view["round"] == view["rounds"] and exact:
            # No playout follows the last round: every pair of their choices is scored.
            samples = [(a, b, 0) for a in their_plays[0] for b in their_plays[1]]
        else:
            # The same samples and seeds for every send: common random numbers make the
            # comparison far less noisy than independent samples would.
            samples = [(self.rng.choice(their_plays[0]), self.rng.choice(their_plays[1]),
                        self.rng.getrandbits(32)) for _ in range(self.send_samples)]
            sends = sends[: self.shortlist]
        rounds_left = view["rounds"] - view["round"]
        mine = {"type": "play", "operation": operation}

        def given_away(on):
            total = 0
            for first, second, seed in samples:
                chosen = {me: dict(mine, on=on), targets[0]: first, targets[1]: second}
                points = _playout(view, chosen, rounds_left, random.Random(seed))
                total += points[targets[0]] + points[targets[1]]
            return total

        return min(sends, key=given_away)


def _own_playout(view, operation, rng) -> int:
    """The viewer's points from now on when playing `operation` now and then greedily,
    with each opponent sending it a random card of theirs every round."""
    players, me = view["players"], view["me"]
    senders = [list(view["hands"][p]["numbers"]) for p in rules.opponents(players, me)]
    operations = list(view["hand"]["operations"])
    points = 0
    for _ in range(view["rounds"] - view["round"] + 1):
        if operation is None:
            operation = better_operation(senders[0], senders[1], operations)
        operations.remove(operation)
        # The first opponent sends its first card to the viewer, the second its second.
        came = (random_send(senders[0], rng)[0], random_send(senders[1], rng)[1])
        points += rules.combine(operation, *came)
        operation = None
    return points


def _playout(view, chosen, rounds_left, rng) -> dict:
    """Final scores after this round's `chosen` plays and `rounds_left` more rounds in
    which the opponents play at random and the viewer picks its operation with
    `better_operation` (its sends stay random: they do not change its own score)."""
    players = view["players"]
    me = players.index(view["me"])
    facts = rules.round_facts(players, chosen)
    points = [view["scores"][p] + facts[p]["points"] for p in players]
    numbers, operations = [], []
    for p in players:
        hand = rules.remove_play(view["hands"][p], chosen[p]["on"], chosen[p]["operation"])
        numbers.append(hand["numbers"])
        operations.append(hand["operations"])
    for _ in range(rounds_left):
        mine = better_operation(numbers[(me + 1) % 3], numbers[(me + 2) % 3], operations[me])
        incoming = [[], [], []]
        for i in range(3):
            a, b = random_send(numbers[i], rng)
            incoming[(i + 1) % 3].append(a)
            incoming[(i + 2) % 3].append(b)
        operations[me].remove(mine)
        for i in range(3):
            op = mine if i == me else random_operation(operations[i], rng)
            points[i] += rules.combine(op, *incoming[i])
    return dict(zip(players, points))


BOTS = {"beginner": BeginnerBot, "player": PlayerBot, "expert": ExpertBot}
