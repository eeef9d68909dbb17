"""Simulated students: players that are perfect on every measure except planted miss rates.

A planted player sees only its own view (like every bot) and returns, for one decision, the
attempts it makes in order: any it expects to be refused (a wrong fact, an uneven ÷, a card
it does not hold), then one legal move.

Rates are kept by a running quota, not by dice: at each chance the player misses when its
misses so far are below floor(rate x chances + offset) (offset drawn once per player). So the
planted rate is reached within one miss whatever the dealing, also when some chances cannot
be missed (a miss at the next chance that can be catches up), as long as the chances that can
be missed are clearly more frequent than the rate (nu.best_take and nu.operations can only be
missed in some takes: docs/reports.md). If the report disagrees with the plant by more than a
few points, it counts chances or misses differently from the definitions in
shared/spec/skills.md - which is what the validity test looks for.

Plantable: so.lowest_operator, so.even_division, so.specials, so.mental_math, mg.missed_play,
mg.facts (all facts, or one: mg.facts:7x8), mg.squares, nu.missed_take, nu.best_take,
nu.valid_build, nu.operations (the Numero player is in planted_numero.py), all.rule_errors.
Not plantable: am.operation (the operation is chosen before the cards that decide it are
known); all.think_time is measured, not chosen.
A miss on one measure can also be one on a related measure (an exact ÷ left unplayed is also
a higher operator); players not planted on a measure make no such misses on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import floor

from games.engine.multiplication import rules as mg
from games.engine.smooth_operator import rules as so

from . import planted_numero as nu

PLANTABLE = {
    "so.lowest_operator": "smooth_operator", "so.even_division": "smooth_operator",
    "so.specials": "smooth_operator", "so.mental_math": "smooth_operator",
    "mg.missed_play": "multiplication", "mg.facts": "multiplication", "mg.squares": "multiplication",
    "nu.missed_take": "numero", "nu.best_take": "numero", "nu.valid_build": "numero",
    "nu.operations": "numero",
    "all.rule_errors": "",
}


class PlantError(ValueError):
    pass


@dataclass(frozen=True)
class Plant:
    measure: str
    detail: str
    rate: float

    @property
    def label(self) -> str:
        return f"{self.measure}:{self.detail}" if self.detail else self.measure


def parse_plant(text: str) -> Plant:
    """"so.lowest_operator=0.3" or "mg.facts:7x8=0.5"."""
    key, sep, value = text.partition("=")
    measure, _, detail = key.strip().partition(":")
    if not sep:
        raise PlantError(f"Write a plant as measure=rate, e.g. so.lowest_operator=0.3 (got {text!r}).")
    if measure not in PLANTABLE:
        raise PlantError(f"{measure!r} cannot be planted. Plantable: {', '.join(PLANTABLE)}.")
    try:
        rate = float(value)
    except ValueError:
        raise PlantError(f"The rate in {text!r} must be a number from 0 to 1.") from None
    if not 0 <= rate <= 1:
        raise PlantError(f"The rate in {text!r} must be from 0 to 1.")
    if detail:
        if measure != "mg.facts":
            raise PlantError(f"Only mg.facts takes a detail (got {text!r}).")
        a, x, b = detail.partition("x")
        if not (x and a.isdigit() and b.isdigit() and 1 <= int(a) <= 10 and 1 <= int(b) <= 10):
            raise PlantError(f"A fact is written AxB with A and B from 1 to 10, e.g. 7x8 (got {detail!r}).")
        detail = f"{int(a)}x{int(b)}"
    return Plant(measure, detail, rate)


def games_for(plants: list[Plant]) -> list[str]:
    keys = {PLANTABLE[p.measure] for p in plants} - {""}
    return sorted(keys) or ["multiplication", "smooth_operator"]


class Quota:
    """Misses spread evenly over chances (see the module docstring)."""

    def __init__(self, rate: float, offset: float):
        self.rate, self.offset = rate, offset
        self.chances = self.misses = 0

    def take(self, missable: bool = True) -> bool:
        """Count one chance; True when it should be missed."""
        self.chances += 1
        if missable and self.misses < floor(self.rate * self.chances + self.offset):
            self.misses += 1
            return True
        return False

    def missed_anyway(self) -> None:
        """The last chance was missed through another measure's miss."""
        self.misses += 1


class NoQuota(Quota):
    def __init__(self):
        super().__init__(0.0, 0.0)

    def take(self, missable: bool = True) -> bool:
        self.chances += 1
        return False


class PlantedPlayer:
    def __init__(self, plants: list[Plant], offset: float = 0.5):
        self.quotas = {p.label: Quota(p.rate, offset) for p in plants}
        self.fact_plants = {p.detail for p in plants if p.measure == "mg.facts" and p.detail}
        self._specials_turn = None
        self._specials_miss = False
        self._numero = None  # its NumeroPlanner, made at its first Numero decision

    def quota(self, label: str) -> Quota:
        q = self.quotas.get(label)
        if q is None:
            q = self.quotas[label] = NoQuota()
        return q

    # ----- every game: extra refused attempts for all.rule_errors --------------------------
    def attempts(self, key: str, view: dict) -> list[dict]:
        if key in nu.NUMERO_KEYS:
            self._numero = self._numero or nu.NumeroPlanner(self.quota)
            planned = self._numero.attempts(view)
        else:
            planned = self.smooth_operator(view) if key == "smooth_operator" else self.multiplication(view)
        out = []
        rules_quota = self.quota("all.rule_errors")
        for i, action in enumerate(planned):
            while rules_quota.take():
                out.append(self.illegal(key, view))
            if i < len(planned) - 1:  # planned to be refused: a rule error as well
                rules_quota.missed_anyway()
            out.append(action)
        return out

    @staticmethod
    def illegal(key: str, view: dict) -> dict:
        """A move with a card the player does not hold (refused: not_in_hand; Numero: a wild
        card, which may also be refused as wild_not_in_pack)."""
        if key in nu.NUMERO_KEYS:
            return nu.illegal(view)
        hand = view["hand"]
        if key == "smooth_operator":
            if view["decision"] == so.SPECIALS_PHASE:
                missing = [c for c in so.SPECIALS if c not in hand]
                if missing:
                    card = missing[0]
                    return {"type": "special", "card": card, **({"sign": "+"} if card == "free_choice" else {})}
            return {"type": "play", "card": next(c for c in so.ARITHMETIC if c not in hand)}
        card = next(c for c in mg.PRODUCTS if c not in hand)
        return {"type": "discard", "card": card, "declare": [1, card] if card <= 10 else [2, 2]}

    # ----- Smooth Operator ------------------------------------------------------------------
    def smooth_operator(self, view: dict) -> list[dict]:
        kind, hand, high, low = view["decision"], view["hand"], view["high"], view["low"]
        if kind == so.PENALTY:
            return [next(a for a in view["legal_actions"])]
        if kind == so.SPECIALS_PHASE:
            return [self._specials(view)]
        options = so.play_options(hand, high, low)
        lowest = min(options.values())
        by_value = sorted(options, key=lambda c: (options[c], c != "/"))
        card = by_value[0]  # the lowest, ÷ first when it is one of the lowest
        attempts = []
        lowest_q = self.quota("so.lowest_operator")
        higher = [c for c in by_value if options[c] > lowest]
        lowest_chance = len(set(options.values())) >= 2
        if lowest_chance and lowest_q.take():
            card = higher[0]
        if "/" in hand:
            uneven = "/" not in options
            skip_exact = "/" in options and options["/"] == lowest and bool(higher)
            if self.quota("so.even_division").take(missable=uneven or skip_exact):
                if uneven:
                    attempts.append({"type": "play", "card": "/"})
                elif card == "/":
                    card = higher[0]
                    if lowest_chance:
                        lowest_q.missed_anyway()
        answer = so.result(card, high, low)
        if self.quota("so.mental_math").take():
            answer += 1
        return attempts + [{"type": "play", "card": card, "answer": answer}]

    def _specials(self, view: dict) -> dict:
        hand, high, low = view["hand"], view["high"], view["low"]
        held = so.specials_in(hand)
        points, doubles = view["turn_points"], view["doubles"]
        responders = len(view["turn_awards"])
        best = so.best_sign(high, low)
        raising = "free_choice" in held and \
            so.turn_points(so.result(best, high, low) * responders, doubles) > points
        double_on_zero = "double" in held and points == 0
        if held and view["turn"] != self._specials_turn:
            self._specials_turn = view["turn"]
            self._specials_miss = self.quota("so.specials").take(missable=raising or double_on_zero)
        if self._specials_miss and (raising or double_on_zero):
            self._specials_miss = False
            return {"type": "end_turn"} if raising else {"type": "special", "card": "double"}
        if raising:
            answer = so.result(best, high, low)
            if self.quota("so.mental_math").take():
                answer += 1
            return {"type": "special", "card": "free_choice", "sign": best, "answer": answer}
        if "double" in held and points > 0:
            return {"type": "special", "card": "double"}
        return {"type": "end_turn"}

    # ----- The Multiplication Game ------------------------------------------------------------
    def multiplication(self, view: dict) -> list[dict]:
        hand = view["hand"]
        options = mg.playable(hand, mg.mask_of(view["open"]["multipliers"]))
        if not options:
            return [{"type": "draw"}]
        discards = [(card, (a, b)) for card, decls in options for a, b in decls]
        discards += [(card, (b, a)) for card, (a, b) in discards if a != b]
        squares = [d for d in discards if mg.is_square(d[1][0] * d[1][1])]
        play_q, square_q = self.quota("mg.missed_play"), self.quota("mg.squares")
        if play_q.take():
            if squares and not square_q.take():
                square_q.missed_anyway()
            return [{"type": "draw"}]
        pool = squares or discards
        if squares and square_q.take():
            pool = [d for d in discards if d not in squares]
            if not pool:  # nothing else to discard: the miss is a draw
                play_q.missed_anyway()
                return [{"type": "draw"}]
        # Prefer a planted fact (so that it comes up), then a number card over a free card.
        pool.sort(key=lambda d: (f"{d[1][0]}x{d[1][1]}" not in self.fact_plants, d[0] == mg.FREE,
                                 d[1][0] > d[1][1]))
        card, (a, b) = pool[0]
        attempts = []
        if card != mg.FREE:
            fact = f"{a}x{b}"
            wrong = [c for c in hand if c != mg.FREE and c != a * b]
            label = fact if fact in self.fact_plants else ""
            q = self.quota(f"mg.facts:{label}" if label else "mg.facts")
            if q.take(missable=bool(wrong)):
                attempts.append({"type": "discard", "card": wrong[0], "declare": [a, b]})
        return attempts + [{"type": "discard", "card": card, "declare": [a, b]}]
