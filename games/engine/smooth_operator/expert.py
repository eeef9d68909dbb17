"""The expert bot: card counting, hand values and Monte Carlo over the hidden cards, all
from the viewer's view only.

- Hidden cards: the unseen operator cards are the whole pack minus the viewer's hand and
  the face-up operator discard pile (every played card was seen); they are in the other
  hands (sizes known) and the deck. The unseen number cards likewise make the number decks.
- A response (or a penalty discard) minimises the award now plus the value of the hand it
  keeps (strategy.py), the next draw weighted by the unseen cards: it keeps cheap
  operators for later, gets rid of `x` while it is cheap, and saves `/` for when it divides.
- As the active player it decides which specials to use now and which to save for a
  better turn by Monte Carlo: it samples complete states consistent with the view
  (determinization), applies each candidate to the same samples, plays out the turn and
  one more round with the strategy policy for everyone, and keeps the candidate with the best average of
  (own score - best other score) + the hands' values, a reached target counting most.
"""

from __future__ import annotations

from ..bots import Bot
from . import rules, strategy
from .bots import comes_straight_back, recycled_in_view

WIN_VALUE = 10_000
# How much of a hand's expected future giving-away counts at the play-out horizon.
HAND_WEIGHT = 0.5


def _fill(pool: list, count: int, components: list, rng) -> list:
    """Take `count` cards from the shuffled pool; a pool that is too small (cards a setup
    left out of the game) is topped up with cards drawn from the full pack."""
    taken = pool[:count]
    del pool[:count]
    while len(taken) < count:
        taken.append(rng.choice(components))
    return taken


def unseen_operators(view: dict) -> list[str]:
    return rules.without(Sampler.OPERATORS, view["hand"] + view["discards"]["operator"])


class Sampler:
    """Builds random full states consistent with one view."""

    OPERATORS = rules.OPERATOR_PACK
    HIGHS = rules.HIGH_PACK
    LOWS = rules.LOW_PACK

    def __init__(self, view: dict):
        self.view = view
        discards = view["discards"]
        self.unseen_operators = unseen_operators(view)
        self.unseen_high = rules.without(self.HIGHS, discards["high"] + [view["high"]])
        self.unseen_low = rules.without(self.LOWS, discards["low"] + [view["low"]])
        self.others = [p for p in view["order"] if p != view["me"]]

    def sample(self, rng) -> dict:
        view = self.view
        counts = view["deck_counts"]
        operators = list(self.unseen_operators)
        rng.shuffle(operators)
        hands = {view["me"]: list(view["hand"])}
        for p in self.others:
            hands[p] = _fill(operators, view["hand_counts"][p], self.OPERATORS, rng)
        decks = {"operator": _fill(operators, counts["operator"], self.OPERATORS, rng)}
        for name, unseen, full in (("high", self.unseen_high, self.HIGHS),
                                   ("low", self.unseen_low, self.LOWS)):
            pool = list(unseen)
            rng.shuffle(pool)
            decks[name] = _fill(pool, counts[name], full, rng)
        return {
            "game": view["game"], "players": list(view["players"]),
            "options": {"target": view["target"]}, "seed": rng.randrange(1 << 30),
            "shuffles": 0, "finished": view["finished"], "winners": list(view["winners"]),
            "order": view["order"], "order_draws": [], "hands": hands, "decks": decks,
            "discards": {k: list(v) for k, v in view["discards"].items()},
            "high": view["high"], "low": view["low"], "scores": dict(view["scores"]),
            "active": view["active"], "phase": view["phase"],
            "pending": list(view["still_to_respond"]), "turn_number": view["turn"],
            "turn_awards": dict(view["turn_awards"]), "turn_points": view["turn_points"],
            "doubles": view["doubles"], "free_choice": view["free_choice"],
            "free_turns": view["free_turns"], "responses": [], "specials": [],
            "last_turn": None,
        }


def policy_action(state: dict, player: str, kind: str) -> dict:
    """The strategy policy on a (sampled) full state, for play-outs."""
    points = state["turn_points"]
    still_needed = state["options"]["target"] - (state["scores"][state["active"]] - points)
    recycled = comes_straight_back(len(state["decks"]["operator"]), state["discards"]["operator"])
    return strategy.smart_action(kind, state["hands"][player], state["high"], state["low"],
                                 state["turn_awards"], state["doubles"], points, still_needed,
                                 recycled=recycled)


class ExpertBot(Bot):
    level = "expert"
    # Play-outs per candidate: fewer with more players, whose rounds take longer to play out.
    ROLLOUT_BUDGET = 48
    MIN_SAMPLES = 8
    HORIZON_ROUNDS = 1  # play out until this many full rounds after the current turn
    MAX_PLAYOUT_STEPS = 400  # a guard; a round takes a dozen decisions at most in practice

    def choose(self, view: dict) -> dict:
        kind = view["decision"]
        if kind == rules.SPECIALS_PHASE:
            return self._specials(view)
        odds = strategy.draw_odds(unseen_operators(view))
        if kind == rules.RESPONSE:
            return {"type": "play",
                    "card": strategy.best_response(view["hand"], view["high"], view["low"], odds)}
        return {"type": "penalty", "discard": strategy.best_penalty_discard(view["hand"], odds)}

    def special_candidates(self, view: dict) -> list[dict]:
        hand = view["hand"]
        recycled = recycled_in_view(view)
        if "free_turn" in hand and not recycled:  # never worth keeping: a turn and a card
            return [{"type": "special", "card": "free_turn"}]
        moves = [{"type": "end_turn"}]
        if "double" in hand and not recycled:
            moves.append({"type": "special", "card": "double"})
        if "free_choice" in hand:
            high, low = view["high"], view["low"]
            sign = rules.best_sign(high, low)
            awards = view["turn_awards"]
            if rules.result(sign, high, low) * len(awards) > sum(awards.values()):
                moves.append({"type": "special", "card": "free_choice", "sign": sign})
        return moves

    def _specials(self, view: dict) -> dict:
        moves = self.special_candidates(view)
        if len(moves) == 1:
            return moves[0]
        sampler = Sampler(view)
        me = view["me"]
        totals = [0.0] * len(moves)
        stop_turn = view["turn"] + self.HORIZON_ROUNDS * len(view["order"]) + 1
        samples = max(self.MIN_SAMPLES, self.ROLLOUT_BUDGET // len(view["order"]))
        for _ in range(samples):
            world = sampler.sample(self.rng)
            for i, move in enumerate(moves):  # the same sample for every candidate
                state = self.engine.copy_state(world) if i < len(moves) - 1 else world
                totals[i] += self._play_out(state, me, move, stop_turn)
        return moves[max(range(len(moves)), key=totals.__getitem__)]

    def _play_out(self, state: dict, me: str, move: dict, stop_turn: int) -> float:
        engine = self.engine
        events: list[dict] = []
        engine._apply(state, me, move, events)  # _apply works in place on our own sample
        for _ in range(self.MAX_PLAYOUT_STEPS):
            if state["finished"] or state["turn_number"] >= stop_turn:
                break
            player = engine.waiting_for(state)[0]
            engine._apply(state, player, policy_action(state, player, engine.decision(state, player)),
                          events)
            events.clear()
        return self._evaluate(state, me)

    @staticmethod
    def _evaluate(state: dict, me: str) -> float:
        scores = state["scores"]
        others = [p for p in scores if p != me]
        value = scores[me] - max(scores[p] for p in others)
        hands = state["hands"]
        value -= HAND_WEIGHT * strategy.hand_value(hands[me])
        value += HAND_WEIGHT * sum(strategy.hand_value(hands[p]) for p in others) / len(others)
        if state["finished"]:
            value += WIN_VALUE if state["winners"] == [me] else -WIN_VALUE
        return value
