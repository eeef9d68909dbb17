"""The expert bot: Monte Carlo over the hidden cards, seen only through the viewer's view.

For each decision with a real choice it samples complete states consistent with the view
(determinization: the unseen operator cards, i.e. the whole pack minus the viewer's hand and
the face-up operator discard pile, are dealt at random to the other hands by their known
sizes and to the operator deck; the unseen number cards likewise make the number decks).
Every candidate action is applied to the same samples and played out for a few turns by the
greedy policy for everyone; the candidate with the best average (own score minus the best
other score, a reached target counting a lot) is chosen. So it keeps cheap operators for
later when that pays, saves `/` and specials for turns where they are worth more, and thinks
about its own next turn, without ever reading the true hidden state.
"""

from __future__ import annotations

from collections import Counter

from ..bots import Bot
from . import rules
from .bots import best_sign, greedy_action

WIN_VALUE = 10_000


def _unseen(components: list, seen: list) -> list:
    left = Counter(seen)
    unseen = []
    for card in components:
        if left[card]:
            left[card] -= 1
        else:
            unseen.append(card)
    return unseen


def _fill(pool: list, count: int, components: list, rng) -> list:
    """Take `count` cards from the shuffled pool; a pool that is too small (cards a setup
    left out of the game) is topped up with cards drawn from the full pack."""
    taken = pool[:count]
    del pool[:count]
    while len(taken) < count:
        taken.append(rng.choice(components))
    return taken


class Sampler:
    """Builds random full states consistent with one view."""

    OPERATORS = rules.operator_components()
    HIGHS = rules.high_components()
    LOWS = rules.low_components()

    def __init__(self, view: dict):
        self.view = view
        me = view["me"]
        discards = view["discards"]
        self.unseen_operators = _unseen(self.OPERATORS, view["hand"] + discards["operator"])
        face_up_high = [view["high"]] if view["high"] is not None else []
        face_up_low = [view["low"]] if view["low"] is not None else []
        self.unseen_high = _unseen(self.HIGHS, discards["high"] + face_up_high)
        self.unseen_low = _unseen(self.LOWS, discards["low"] + face_up_low)
        self.others = [p for p in view["order"] if p != me]

    def sample(self, rng) -> dict:
        view = self.view
        counts = view["deck_counts"]
        operators = list(self.unseen_operators)
        rng.shuffle(operators)
        hands = {view["me"]: list(view["hand"])}
        for p in self.others:
            hands[p] = _fill(operators, view["hand_counts"][p], self.OPERATORS, rng)
        decks = {"operator": _fill(operators, counts["operator"], self.OPERATORS, rng)}
        for name, pool, full in (("high", self.unseen_high, self.HIGHS),
                                 ("low", self.unseen_low, self.LOWS)):
            pool = list(pool)
            rng.shuffle(pool)
            decks[name] = _fill(pool, counts[name], full, rng)
        phase = view["phase"]
        return {
            "game": view["game"], "players": list(view["players"]),
            "options": {"target": view["target"]}, "seed": rng.randrange(1 << 30),
            "shuffles": 0, "finished": view["finished"], "winners": list(view["winners"]),
            "order": view["order"], "order_draws": [], "hands": hands, "decks": decks,
            "discards": {k: list(v) for k, v in view["discards"].items()},
            "high": view["high"], "low": view["low"], "scores": dict(view["scores"]),
            "active": view["active"], "phase": phase, "pending": list(view["still_to_respond"]),
            "turn_number": view["turn"], "turn_awards": dict(view["turn_awards"]),
            "turn_points": view["turn_points"], "doubles": view["doubles"],
            "free_choice": view["free_choice"], "free_turns": view["free_turns"],
            "responses": [], "specials": [], "last_turn": None,
        }


class ExpertBot(Bot):
    level = "expert"
    SAMPLES = 24
    HORIZON_ROUNDS = 1  # play out until this many full rounds after the current turn

    def candidates(self, view: dict) -> list[dict]:
        kind = view["decision"]
        legal = view["legal_actions"]
        if kind != rules.SPECIALS_PHASE:
            return legal
        hand = view["hand"]
        if "free_turn" in hand:  # never worth keeping: an extra turn now, a card drawn
            return [{"type": "special", "card": "free_turn"}]
        moves = [{"type": "end_turn"}]
        if "double" in hand:
            moves.append({"type": "special", "card": "double"})
        if "free_choice" in hand:
            sign = best_sign(view["high"], view["low"])
            if rules.result(sign, view["high"], view["low"]) * len(view["turn_awards"]) > \
                    sum(view["turn_awards"].values()):
                moves.append({"type": "special", "card": "free_choice", "sign": sign})
        return moves

    def choose(self, view: dict) -> dict:
        moves = self.candidates(view)
        if len(moves) == 1:
            return dict(moves[0])
        sampler = Sampler(view)
        me = view["me"]
        totals = [0.0] * len(moves)
        stop_turn = view["turn"] + self.HORIZON_ROUNDS * len(view["order"]) + 1
        for _ in range(self.SAMPLES):
            world = sampler.sample(self.rng)
            for i, move in enumerate(moves):
                state = self.engine.copy_state(world) if i < len(moves) - 1 else world
                totals[i] += self._play_out(state, me, move, stop_turn)
        best = max(range(len(moves)), key=totals.__getitem__)
        return dict(moves[best])

    def _play_out(self, state: dict, me: str, move: dict, stop_turn: int) -> float:
        engine = self.engine
        events: list[dict] = []
        engine._apply(state, me, move, events)
        hands = state["hands"]
        while not state["finished"] and state["turn_number"] < stop_turn:
            player = engine.waiting_for(state)[0]
            kind = engine.decision(state, player)
            action = greedy_action(kind, hands[player], state["high"], state["low"],
                                   state["turn_awards"], state["doubles"])
            engine._apply(state, player, action, events)
            events.clear()
        scores = state["scores"]
        mine = scores[me]
        best_other = max(v for p, v in scores.items() if p != me)
        value = mine - best_other
        if state["finished"]:
            value += WIN_VALUE if state["winners"] == [me] else -WIN_VALUE
        return value
