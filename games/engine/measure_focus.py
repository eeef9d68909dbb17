"""Does "Practise this" focus every measure? `python -m games.engine.selfplay --measures`.

For every measure of every game (a fact grid's measure for one fact and for a list of weakest
facts, a per-operation measure for each operation), the game's own practice hook
(`GameSkills.practice`) gives the options a focused assignment deals; expert self-play of
that game and of the plain game (no options) counts the measure's chances exactly as the
reports count them: the game's own extractor (`GameSkills.per_attempt`) over the analysis the
engine records (`engine.analyse`), for the details the focus practises (`GameSkills.scope_of`).
Chances are per player per game. A measure's focus claims at least 2x the plain game's
(tests/engine/test_measure_focus.py); a measure with no focus says why in the teacher's
words (games/practice.py `why_no_focus`).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import import_module

from . import packages
from .focus import self_play
from .skills import OPERATIONS, GameSkills, Measure, MoveFacts, both_orders

CLAIMED = 2.0                      # a focus must give at least this many times the chances
EXAMPLE_FACT = "7x8"               # a fact grid's one-fact focus
EXAMPLE_WEAKEST = ("7x8", "6x9")   # ... and its weakest-facts focus
EXAMPLE_OPERATIONS = ("÷", "−")    # a per-operation measure's weakest operations


@dataclass(frozen=True)
class Ask:
    """One "Practise this" the benchmark measures: a measure, the detail asked for, and the
    weakest details the report would pass for the whole measure."""

    game: str
    measure: Measure
    detail: str = ""
    weakest: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        if self.detail:
            return f"{self.measure.id}:{self.detail}"
        return self.measure.id + (f" (weakest {', '.join(self.weakest)})" if self.weakest else "")


@cache
def game_skills() -> dict[str, GameSkills]:
    """Game key -> its skills (one per engine package: Numero's measures are Numero's)."""
    found = {}
    for key, package in packages().items():
        module = import_module(f"{package.__name__}.skills")
        skills = getattr(module, "SKILLS", None)
        if skills is not None and skills.practice is not None and any(m.game == key for m in skills.measures):
            found[key] = skills
    return found


def asks_of(game: str, skills: GameSkills) -> list[Ask]:
    found = []
    for m in skills.measures:
        if not m.has_misses or m.game != game:
            continue
        if m.id in skills.no_focus:
            found.append(Ask(game, m))  # one row: why no deal focuses it
        elif m.fact_grid:
            found += [Ask(game, m, EXAMPLE_FACT), Ask(game, m, "", EXAMPLE_WEAKEST)]
        elif m.by_operation:
            found += [Ask(game, m, op) for op in OPERATIONS] + [Ask(game, m, "", EXAMPLE_OPERATIONS)]
        else:
            found.append(Ask(game, m))
    return found


def players_of(game: str) -> int:
    """The table the focus cases of the game's package are measured at (2 when none)."""
    cases = getattr(packages()[game], "FOCUS_CASES", ())
    return next((c.players for c in cases if c.game == game), 2)


_TALLIES: dict[tuple, tuple[Counter, float]] = {}


def tally(game: str, options: dict, games: int, seed: int = 0) -> tuple[Counter, float]:
    """Chances per player per game of every (measure, detail) of the game, and decisions per
    player per game, in seeded expert self-play with these options: one run serves every
    measure (kept for the process, so the plain game is played once)."""
    key = (game, json.dumps(options, sort_keys=True), games, seed)
    if key not in _TALLIES:
        skills = game_skills()[game]
        players = players_of(game)
        chances: Counter = Counter()
        decisions = 0
        for engine, state, player, action in self_play(game, options, players, games, seed):
            if player is None:
                continue
            decisions += 1
            # An answer goes with every move analysed, so that answered measures (mental
            # maths) count their chances; its value does not matter to a chance.
            analysis = engine.analyse(state, player, {**action, "answer": 0})
            move = MoveFacts(id=0, seat_id=0, version_before=0, accepted=True, error_code="",
                             analysis=analysis, events=None, think_ms=None, played_at=None)
            chances.update((mid, detail) for _, mid, detail, _, _ in skills.per_attempt(move, ""))
        share = games * players
        _TALLIES[key] = (Counter({k: v / share for k, v in chances.items()}), decisions / share)
    return _TALLIES[key]


def _chances(counts: Counter, measure: Measure, details: tuple[str, ...]) -> float:
    """The measure's chances, only those of `details` (either order of a fact) when given."""
    wanted = {d for detail in details for d in both_orders(detail)}
    return sum(n for (mid, detail), n in counts.items()
               if mid == measure.id and (not wanted or detail in wanted))


def measure(ask: Ask, skills: GameSkills, games: int, seed: int = 0) -> dict:
    """One row: the focus options, chances per player per game focused and plain, the ratio,
    and the length (decisions per game, focused / plain)."""
    options = skills.practice(ask.measure.id, ask.detail, ask.weakest)
    row = {"measure": ask.name, "game": ask.game, "options": options, "games": games,
           "players": players_of(ask.game)}
    if not options:   # None: no focus (`no_focus` says why); {}: the plain game itself
        return {**row, "focused": None, "plain": None, "ratio": None if options is None else 1.0,
                "length": None, "why": skills.no_focus.get(ask.measure.id, "")}
    _, details = skills.scope_of(ask.measure, ask.detail, options)
    focused_counts, focused_decisions = tally(ask.game, options, games, seed)
    plain_counts, plain_decisions = tally(ask.game, {}, games, seed)
    focused = _chances(focused_counts, ask.measure, details)
    plain = _chances(plain_counts, ask.measure, details)
    return {**row, "focused": round(focused, 2), "plain": round(plain, 2),
            "ratio": round(focused / plain, 2) if plain else None,
            "length": round(focused_decisions / plain_decisions, 2) if plain_decisions else None}


def measure_report(games: int = 20, seed: int = 0, only: str | None = None) -> list[dict]:
    rows = []
    for game, skills in game_skills().items():
        if only in (None, game):
            for ask in asks_of(game, skills):
                row = measure(ask, skills, games, seed)
                if ask.detail and row["options"] is not None and not row["focused"] and not row["plain"]:
                    continue  # a detail the measure never has (so.even_division is ÷ only)
                rows.append(row)
    return rows


def table(rows: list[dict]) -> str:
    """The rows as a text table a teacher's developer reads at a glance."""
    def num(v):
        return "-" if v is None else f"{v:.2f}"

    lines = ["Chances per player per game, focused vs the plain game (expert self-play); "
             "length: decisions per game, focused / plain.",
             f"{'measure':38} {'focused':>8} {'plain':>7} {'ratio':>6} {'length':>6}  focus options"]
    for r in rows:
        options = (json.dumps(r["options"], ensure_ascii=False) if r["options"] is not None
                   else "no focus: " + r.get("why", ""))
        lines.append(f"{r['measure']:38} {num(r['focused']):>8} {num(r['plain']):>7} "
                     f"{num(r['ratio']):>6} {num(r['length']):>6}  {options}")
    return "\n".join(lines)
