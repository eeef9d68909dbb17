"""Bots for Add or Multiply?. Each sees only its view (hands are public, choices are not).

- starter (the easiest): a random legal play, or now and then the play the
  player level ranks last (the worse operation, the cards that give away most).
- beginner: a uniformly random legal play.
- player: greedy. Opponents choose independently, so the expected score of `x` is the
  product of what each opponent is expected to send (the mean of its different values,
  as a random legal play would), and that of `+` their sum: it takes the better one. It
  sends the cards that give away least, the lowest to the opponent most likely to
  multiply, sparing the trailing player.
- expert: Monte Carlo with opponent modelling. Its own score depends only on its
  operations (the opponents choose what comes in) and the opponents' scores only on what it
  sends, so it decides the two apart, over the same sampled secret choices of the
  opponents this round, each followed by a random playout of the remaining rounds. Each
  opponent is sampled as making the player bot's choice with a learnt chance (Bayes over
  the revealed rounds: did they play greedily so far?), else a uniformly random legal play.
  In a short last round every pair of opponent choices is weighed exactly.
"""

from __future__ import annotations

import random

from ..bots import Bot, BotRatings
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


class StarterBot(Bot):
    """Weaker than chance: with probability `careless` the play the greedy ranking puts last,
    else a random legal play (both from the one legal-play generator). The chance is set so
    that its rating sits below the weakest planted student's (see RATINGS below)."""

    level = "starter"
    careless = 0.5

    def choose(self, view):
        if self.rng.random() < self.careless:
            return rank_plays(view)[-1]
        return self.rng.choice(self.engine.legal_actions_in_view(view))


class PlayerBot(Bot):
    level = "player"

    def choose(self, view):
        return rank_plays(view)[0]


class ExpertBot(Bot):
    level = "expert"
    greedy_prior = 0.1        # belief, before any reveal, that an opponent plays greedily
    greedy_faith = 0.8        # how often a greedy opponent makes the player bot's choice
    samples = 64              # sampled opponent choices (each with a playout)
    shortlist = 8             # distinct sends kept from the greedy ranking
    send_samples = 32         # of those samples, how many score each send
    exact_limit = 100         # last round: weigh every pair of opponent plays up to this

    def choose(self, view, operation: str | None = None):
        """The expert's play; with `operation` (one it holds), its best sends for that
        operation (the planted player, planted.py, picks its operation itself)."""
        me = view["me"]
        targets = rules.opponents(view["players"], me)
        samples = self._opponent_samples(view, targets)
        ranked = rank_plays(view)
        # Own points depend only on the operations (the opponents choose what comes in)...
        held = sorted(set(view["hand"]["operations"]))
        if operation is None:
            operation = held[0]
            if len(held) > 1:
                # The same sums as `_expected(view, play, samples, [me])`, faster.
                outcomes = self.own_outcomes(view, samples)
                own = {op: _weighted(samples, outcomes[op]) for op in held}
                operation = max(held, key=lambda op: (own[op], op == "+"))
        # ... and the opponents' points only on what is sent to them.
        sends = []
        for play in ranked:
            if play["operation"] == operation and play not in sends:
                sends.append(play)
        if len(samples) > self.send_samples:
            samples, sends = samples[: self.send_samples], sends[: self.shortlist]
        # The same sums as `_expected(view, play, samples, targets)`, faster.
        harm = _TargetsPlayout(view, samples)
        return min(sends, key=harm.expected)

    def _greedy_chance(self, view, target) -> float:
        """How likely `target` is to make the player bot's choice now, learnt from the
        revealed rounds: Bayes between "greedy" (makes that choice `greedy_faith` of the
        time, else plays at random) and "random" (any legal play alike)."""
        greedy, faith = self.greedy_prior, self.greedy_faith
        hands = {p: rules.starting_hand() for p in view["players"]}
        scores = {p: 0 for p in view["players"]}
        for past in view["history"]:
            seat = dict(view, me=target, hand=hands[target], hands=hands, scores=scores)
            ranked = rank_plays(seat)
            actual = past["plays"][target]
            chance = 1 / len(ranked)
            if ranked[0]["on"] == actual["on"] and ranked[0]["operation"] == actual["operation"]:
                if_greedy, if_random = faith + (1 - faith) * chance, chance
            else:
                if_greedy, if_random = (1 - faith) * (1 - chance), 1 - chance
            greedy = greedy * if_greedy / (greedy * if_greedy + (1 - greedy) * if_random)
            hands = {p: rules.remove_play(hands[p], past["plays"][p]["on"],
                                          past["plays"][p]["operation"]) for p in hands}
            scores = {p: scores[p] + past["results"][p]["points"] for p in scores}
        return greedy * faith

    def _opponent_samples(self, view, targets, rng=None, count=None) -> list:
        """[(first target's play, second's play, playout seed, weight)]: each opponent makes
        the player bot's choice with its `_greedy_chance`, else a uniformly random play.
        `rng` and `count` default to the bot's own dice and `samples` (the analysis,
        analyse.py, draws more samples from dice seeded by the position)."""
        rng = self.rng if rng is None else rng
        count = self.samples if count is None else count
        players = view["players"]
        models = []
        for t in targets:
            legal = rules.legal_plays(view["hands"][t], rules.opponents(players, t))
            seat = dict(view, me=t, hand=view["hands"][t])  # hands and scores are public
            models.append((legal, rank_plays(seat)[0], self._greedy_chance(view, t)))
        (legal1, greedy1, q1), (legal2, greedy2, q2) = models
        if self.weighs_every_pair(view, len(legal1), len(legal2)):
            # No playout follows the last round: weigh every pair of their choices.
            def weighted(legal, greedy, q):
                return [(p, (1 - q) / len(legal) + (q if p == greedy else 0)) for p in legal]
            return [(a, b, 0, wa * wb) for a, wa in weighted(legal1, greedy1, q1)
                    for b, wb in weighted(legal2, greedy2, q2)]

        def pick(legal, greedy, q):
            return greedy if rng.random() < q else rng.choice(legal)
        # The same samples and seeds for every candidate: common random numbers make the
        # comparison far less noisy than independent samples would.
        return [(pick(legal1, greedy1, q1), pick(legal2, greedy2, q2), rng.getrandbits(32), 1.0)
                for _ in range(count)]

    def weighs_every_pair(self, view, first_plays: int, second_plays: int) -> bool:
        """In the last round, with few enough plays, the samples are every pair of the
        opponents' plays, weighed exactly (no dice)."""
        return view["round"] == view["rounds"] and first_plays * second_plays <= self.exact_limit

    @staticmethod
    def own_outcomes(view, samples) -> dict[str, list[int]]:
        """The expert's own evaluation of its operation (`choose`), sample by sample: per
        operation it holds, its final points when it plays that operation now, exactly what
        `_playout` gives it for the sample. Faster: its own points depend neither on what it
        sends nor on the opponents' operations, so each sample's playout of the opponents'
        sends (the same draws as `_playout`'s) is made once and scored for every operation."""
        me = view["me"]
        players = view["players"]
        i = players.index(me)
        first, second = rules.opponents(players, me)
        seats = [players[(i + 1) % 3], players[(i + 2) % 3]]  # first, second again
        rounds_left = view["rounds"] - view["round"]
        held = sorted(set(view["hand"]["operations"]))
        out: dict[str, list[int]] = {op: [] for op in held}
        base = view["scores"][me]
        # Opponent seats in the order _playout draws their sends; which card reaches `me`.
        order = sorted((players.index(p), p) for p in seats)
        to_me = {p: 0 if (players.index(p) + 1) % 3 == i else 1 for p in seats}
        for first_play, second_play, seed, _weight in samples:
            now = (first_play["on"][me], second_play["on"][me])
            numbers = {p: rules.remove_play(view["hands"][p], play["on"], play["operation"])["numbers"]
                       for p, play in ((first, first_play), (second, second_play))}
            rng = random.Random(seed)
            future = []  # per round left: (first's numbers, second's numbers, cards to me)
            for _ in range(rounds_left):
                before = (list(numbers[first]), list(numbers[second]))
                came = [random_send(numbers[p], rng)[to_me[p]] for _, p in order]
                rng.random()  # the two opponents' random operations (one draw each)
                rng.random()
                future.append((*before, came))
            for op in held:
                operations = list(view["hand"]["operations"])
                operations.remove(op)
                points = base + rules.combine(op, *now)
                for first_numbers, second_numbers, came in future:
                    mine = better_operation(first_numbers, second_numbers, operations)
                    operations.remove(mine)
                    points += rules.combine(mine, *came)
                out[op].append(points)
        return out

    def _expected(self, view, play, samples, whose) -> float:
        """Weighted mean final points of `whose` after `play` and each sampled round."""
        me = view["me"]
        first, second = rules.opponents(view["players"], me)
        rounds_left = view["rounds"] - view["round"]
        total = 0.0
        for first_play, second_play, seed, weight in samples:
            chosen = {me: play, first: first_play, second: second_play}
            points = _playout(view, chosen, rounds_left, seed)
            total += weight * sum(points[p] for p in whose)
        return total


def _weighted(samples, points) -> float:
    """sum(weight * points) over the samples, summed in the order `_expected` sums them."""
    total = 0.0
    for (*_, weight), p in zip(samples, points):
        total += weight * p
    return total


class _TargetsPlayout:
    """`_expected(view, play, samples, targets)` for many of the viewer's plays, exactly: the
    opponents' own draws in `_playout` (their sends and operations, from `seed`) do not depend
    on the viewer's play, so they are drawn once per sample; only the viewer's cards to them
    (this round's and its random sends from `seed + 1`) are played out per play."""

    def __init__(self, view, samples):
        self.view, self.samples = view, samples
        players, me = view["players"], view["me"]
        self.targets = rules.opponents(players, me)
        self.rounds_left = view["rounds"] - view["round"]
        order = sorted(((players.index(p), p) for p in self.targets))
        self.per_sample = []
        for first_play, second_play, seed, weight in samples:
            plays = dict(zip(self.targets, (first_play, second_play)))
            hands = {p: rules.remove_play(view["hands"][p], plays[p]["on"], plays[p]["operation"])
                     for p in self.targets}
            # Per target: score now, this round's operation and card from the other target.
            known = {}
            for t in self.targets:
                other = next(o for o in self.targets if o != t)
                known[t] = [view["scores"][t], plays[t]["operation"], plays[other]["on"][t], []]
            rng = random.Random(seed)
            for _ in range(self.rounds_left):
                came = {}  # per target: the card the other target sends it
                for j, p in order:
                    a, b = random_send(hands[p]["numbers"], rng)
                    for to, card in ((players[(j + 1) % 3], a), (players[(j + 2) % 3], b)):
                        if to != me:
                            came[to] = card
                ops = {p: random_operation(hands[p]["operations"], rng) for _, p in order}
                for t in self.targets:
                    known[t][3].append((ops[t], came[t]))
            self.per_sample.append((seed, weight, known))

    def expected(self, play) -> float:
        view = self.view
        first, second = self.targets  # the next seat and the one after
        hand = rules.remove_play(view["hand"], play["on"], play["operation"])
        total = 0.0
        for seed, weight, known in self.per_sample:
            own_rng = random.Random(seed + 1)
            numbers = list(hand["numbers"])
            points = 0
            for t in self.targets:
                score, op, other_card, _ = known[t]
                points += score + rules.combine(op, play["on"][t], other_card)
            for r in range(self.rounds_left):
                to_first, to_second = random_send(numbers, own_rng)
                op, card = known[first][3][r]
                points += rules.combine(op, to_first, card)
                op, card = known[second][3][r]
                points += rules.combine(op, to_second, card)
            total += weight * points
        return total


def _playout(view, chosen, rounds_left, seed) -> dict:
    """Final scores after this round's `chosen` plays and `rounds_left` more rounds in
    which the opponents play at random and the viewer picks its operation with
    `better_operation`. The viewer's own random sends use a separate generator, so that
    they never shift the opponents' random draws (it keeps comparisons paired)."""
    rng, own_rng = random.Random(seed), random.Random(seed + 1)
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
            a, b = random_send(numbers[i], own_rng if i == me else rng)
            incoming[(i + 1) % 3].append(a)
            incoming[(i + 2) % 3].append(b)
        operations[me].remove(mine)
        for i in range(3):
            op = mine if i == me else random_operation(operations[i], rng)
            points[i] += rules.combine(op, *incoming[i])
    return dict(zip(players, points))


BOTS = {"starter": StarterBot, "beginner": BeginnerBot, "player": PlayerBot, "expert": ExpertBot}


# The bots' ratings (games/engine/bots.py `BotRatings`), measured on the 2-core development
# machine (5 rounds, 3 players) by
#     python -m games.engine.calibrate add_or_multiply --games 400 --seed 1
# When the bots change, run it again and copy its figures here.
# At a table of three the player level does worse than the beginner.
# The starter's side by `... --games 400 --seed 1 --part low`: a game with this
# much luck keeps even a careless player close to the beginner.
RATINGS = BotRatings(levels={"starter": 939, "beginner": 1000, "player": 908, "expert": 1191},
                     mix={-1: 939, -0.75: 973, -0.5: 976, -0.25: 994,
                          0: 1000, 0.25: 1030, 0.5: 1036, 0.75: 1086, 1: 1191})
