"""Simulated students: players that are perfect on every measure except planted miss rates.

Each game's planted player lives with its engine (games/engine/<game>/planted.py) and is
declared in its skills (`GameSkills.planted`, games/engine/skills.py). This module keeps the
generic part: plants ("so.lowest_operator=0.3"), the quotas, planted rule errors in every
game, and the dispatch through the registry.

A planted player sees only its own view (like every bot) and returns, for one decision, the
attempts it makes in order: any it expects to be refused (a wrong fact, an uneven ÷, a card
it does not hold), then one legal move.

Misses are drawn by chance, per decision (docs/reports.md, "The principles"): at each
chance of a planted measure the player throws its own seeded dice and misses with the planted
probability, as a child's slips come. A game's planted player asks its quota only at the
decisions its measures count as chances (each of which can be missed), and a planted miss is a
miss of that measure alone (one mistake, one measure), so the measured rate is the planted
rate up to the dice: within about ±3 points given 300 chances or more, which is what the
validity test (devtools/validity.py, tests/reports/test_measure_validity.py) checks.

Plantable (`plantable()`): every measure with misses of a game that has a planted player
(every game today; a fact-grid measure also one fact: mg.facts:7x8; a measure counted per
operation also one operation: so.mental_math:/), and all.rule_errors in every game. all.think_time is measured, not chosen. A planted miss is a miss of its own
measure only (one mistake, one measure), so unplanted measures stay at zero.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games import registry
from games.engine.skills import FACT_RANGE, Measure, Planted, PlantedPlayer as GamePlayer, parse_fact
from games.spec import GameSpec
from reports.operations import operation_of

RULES = "all.rule_errors"  # planted by the generic part, in every game


class PlantError(ValueError):
    pass


def _planted(spec: GameSpec) -> Planted | None:
    return spec.skills.planted if spec.skills else None


def plantable() -> dict[str, Measure | None]:
    """Measure id -> its measure (None for all.rule_errors), read from the registry now: a game
    registered at run time brings its plantable measures."""
    found: dict[str, Measure | None] = {}
    for spec in registry.all_games():
        if _planted(spec) is None:
            continue
        for m in spec.skills.measures:
            if m.has_misses:
                found.setdefault(m.id, m)
    found[RULES] = None
    return found


@dataclass(frozen=True)
class Plant:
    measure: str
    detail: str
    rate: float

    @property
    def label(self) -> str:
        return f"{self.measure}:{self.detail}" if self.detail else self.measure


def parse_plant(text: str) -> Plant:
    """"so.lowest_operator=0.3", "mg.facts:7x8=0.5" (one fact) or "so.mental_math:/=0.3"
    (one operation of a measure counted per operation: the planted player misses only there)."""
    key, sep, value = text.partition("=")
    measure, _, detail = key.strip().partition(":")
    if not sep:
        raise PlantError(f"Write a plant as measure=rate, e.g. so.lowest_operator=0.3 (got {text!r}).")
    measures = plantable()
    if measure not in measures:
        raise PlantError(f"{measure!r} cannot be planted. Plantable: {', '.join(measures)}.")
    try:
        rate = float(value)
    except ValueError:
        raise PlantError(f"The rate in {text!r} must be a number from 0 to 1.") from None
    if not 0 <= rate <= 1:
        raise PlantError(f"The rate in {text!r} must be from 0 to 1.")
    if detail:
        m = measures[measure]
        if m is not None and m.by_operation:
            op = operation_of(detail)
            if op is None:
                raise PlantError(f"An operation is written +, -, x or / (or + − × ÷), e.g. "
                                 f"{measure}:/ (got {detail!r}).")
            return Plant(measure, op, rate)
        if m is None or not m.fact_grid:
            facts = ", ".join(mid for mid, fm in measures.items() if fm is not None and fm.fact_grid)
            ops = ", ".join(mid for mid, om in measures.items() if om is not None and om.by_operation)
            raise PlantError(f"Only {facts or 'a times-table measure'} (a fact, e.g. 7x8) and "
                             f"{ops or 'a measure counted per operation'} (an operation, e.g. /) "
                             f"take a detail (got {text!r}).")
        fact = parse_fact(detail)
        if fact is None:
            low, high = FACT_RANGE[0], FACT_RANGE[-1]
            raise PlantError(f"A fact is written AxB with A and B from {low} to {high}, e.g. 7x8 "
                             f"(got {detail!r}).")
        detail = f"{fact[0]}x{fact[1]}"
    return Plant(measure, detail, rate)


def planted_games() -> list[GameSpec]:
    """One game per planted player (Numero and its Solitaire share one: the first, Numero)."""
    seen, games = set(), []
    for spec in registry.all_games():
        planted = _planted(spec)
        if planted is not None and planted.player not in seen:
            seen.add(planted.player)
            games.append(spec)
    return games


def games_for(plants: list[Plant]) -> list[str]:
    """The game keys a simulated student plays for these plants: the games of their measures
    (in key order); with no game's measure planted, every game with a planted player."""
    keys = set()
    for p in plants:
        m = plantable().get(p.measure)
        if m is not None:
            keys.add(m.game)
    return sorted(keys) or sorted(spec.key for spec in planted_games())


class Quota:
    """A planted rate drawn by chance: each chance that can be missed is missed with
    probability `rate`, from the quota's own seeded dice (see the module docstring)."""

    def __init__(self, rate: float, dice: random.Random):
        self.rate, self.dice = rate, dice
        self.chances = self.misses = 0

    def take(self, missable: bool = True) -> bool:
        """Count one chance; True when it should be missed."""
        self.chances += 1
        if missable and self.rate > 0 and self.dice.random() < self.rate:
            self.misses += 1
            return True
        return False

    def missed_anyway(self) -> None:
        """The last chance was missed through another measure's miss."""
        self.misses += 1


class NoQuota(Quota):
    """An unplanted label: counts chances, never misses (and throws no dice)."""

    def __init__(self):
        super().__init__(0.0, random.Random(0))

    def take(self, missable: bool = True) -> bool:
        self.chances += 1
        return False


class Quotas:
    """One student's quotas by label (games/engine/skills.py `Quotas`). Each planted label
    has its own dice, seeded from the student's seed and the label: planting one more
    measure does not change the draws of the others."""

    def __init__(self, plants: list[Plant], seed: int | str = 0):
        self._by_label = {p.label: Quota(p.rate, random.Random(f"{seed}:{p.label}")) for p in plants}
        self._details = {p.measure: frozenset(q.detail for q in plants if q.measure == p.measure and q.detail)
                         for p in plants}

    def __call__(self, label: str) -> Quota:
        q = self._by_label.get(label)
        if q is None:
            q = self._by_label[label] = NoQuota()
        return q

    def details(self, measure: str) -> frozenset[str]:
        return self._details.get(measure, frozenset())


class PlantedPlayer:
    """One simulated student, for all their games: a game's own planted player (made at the
    student's first decision in it, kept for their later games) plans each decision, and
    planted rule errors go in front of it."""

    def __init__(self, plants: list[Plant], seed: int | str = 0):
        self.quota = Quotas(plants, seed)
        self.seed = seed if isinstance(seed, int) else random.Random(seed).randrange(2**31)
        self._players: dict = {}  # a game's `Planted.player` -> the player it made

    def game_player(self, key: str) -> GamePlayer:
        planted = _planted(registry.spec_for(key))
        if planted is None:
            raise KeyError(f"{key!r} has no planted player")
        player = self._players.get(planted.player)
        if player is None:
            player = self._players[planted.player] = planted.player(self.quota, self.seed)
        return player

    def attempts(self, key: str, view: dict) -> list[dict]:
        """The game's planned attempts, with planted rule errors before the move that is
        played: each is a chance at the rules, missed (a move the rules refuse) with the
        planted probability, until one is not. A planned refused attempt (an uneven ÷, a
        false fact) is its own measure's miss, not a rule error (one mistake, one measure)."""
        player = self.game_player(key)
        planned = player.attempts(view)
        rules_quota = self.quota(RULES)
        illegal = []
        while rules_quota.take():
            illegal.append(player.illegal(view))
        return planned[:-1] + illegal + planned[-1:]
