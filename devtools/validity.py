"""Are the skill measures valid? Games played straight through the engines (no database), the
student's decisions made by a planted player, a bot or a random legal player, and the evidence
counted by the reports' own machinery (reports/evidence.py) - so what is checked here is what a
teacher reads, minus the storage.

The principles of the measures (docs/reports.md, "The principles") ask, for every measure:
- planted rates drawn by chance are recovered within ±3 points given ≥ 300 chances;
- the expert bot reads Strong; a random legal player reads below Strong on strategy measures;
- a measure nobody planted stays at its baseline when another one is planted.
tests/reports/test_measure_validity.py checks those; `python -m devtools.validity` prints them.

    from devtools.validity import planted_student, bot_student, random_student, play
    tallies = play("multiplication", planted_student(["mg.facts=0.25"], seed=1), games=20, seed=5)
    tallies["mg.facts"].rate
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable, Protocol

from games import registry
from games.engine.errors import IllegalMove
from games.engine.skills import MoveFacts
from reports.detail_flags import DetailFlag, Row, detail_flags, detail_rows
from reports.evidence import game_evidence
from reports.measures import RULES, THINK, measures_by_id

from .planted import Plant, PlantedPlayer, parse_plant

STUDENT = "Sim"
STUDENT_SEAT = 0
MAX_ATTEMPTS = 20_000
WHEN = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


@dataclass
class Tally:
    chances: int = 0
    misses: int = 0
    amount: float = 0.0

    @property
    def rate(self) -> float | None:
        return self.misses / self.chances if self.chances else None


class Student(Protocol):
    """Who makes the student's decisions: the attempts of one decision, in order (any it
    expects to be refused first, then one legal move)."""

    def __call__(self, key: str, state: dict, player: str, view: dict) -> list[dict]: ...


def planted_student(plants: list[str | Plant], seed: int | str = 0) -> Student:
    """A simulated student with planted miss rates, drawn by chance (devtools/planted.py)."""
    player = PlantedPlayer([p if isinstance(p, Plant) else parse_plant(p) for p in plants], seed=seed)

    def decide(key, state, name, view):
        return player.attempts(key, view)
    return decide


def bot_student(level: str, seed: int = 0) -> Student:
    """A bot of the game in the student's seat (seeded per decision like the server's bots)."""
    rng = random.Random(f"bot-student:{seed}")

    def decide(key, state, name, view):
        return [registry.spec_for(key).make_bot(level, seed=rng.randrange(2**31)).choose(view)]
    return decide


def random_student(seed: int = 0) -> Student:
    """A player who picks uniformly among the legal moves (the engine's one generator)."""
    rng = random.Random(f"random-student:{seed}")

    def decide(key, state, name, view):
        return [rng.choice(registry.spec_for(key).engine.legal_actions(state, name))]
    return decide


def game_options(key: str) -> dict:
    """The options simulated games of this game use (its planted player's), else defaults."""
    skills = registry.spec_for(key).skills
    return dict(skills.planted.options) if skills and skills.planted else {}


def opponents(key: str) -> int:
    fewest, most = registry.spec_for(key).bot_count_range
    return max(fewest, min(1, most))


def play_one(key: str, student: Student, *, seed: int, bot_level: str = "expert",
             options: dict | None = None, actions_out: list | None = None) -> list:
    """One game; returns its evidence rows (reports.evidence.Evidence) for the student.
    `actions_out`, when given, receives every attempt's action in order: a row's `move_id`
    is its index (the analysis is the verdict's, the action what was tried)."""
    spec = registry.spec_for(key)
    engine = spec.engine
    names = [STUDENT] + [f"Robo {n}" for n in range(1, opponents(key) + 1)]
    seat_of = {name: n for n, name in enumerate(names)}
    state = engine.new_game(names, game_options(key) if options is None else options, seed)
    bot_dice = random.Random(f"bots:{seed}")
    moves: list[MoveFacts] = []
    version = 0
    for _ in range(MAX_ATTEMPTS):
        if state.get("finished"):
            break
        name = engine.waiting_for(state)[0]
        view = engine.view(state, name)
        mine = name == STUDENT
        if mine:
            actions = student(key, state, name, view)
        else:
            actions = [spec.make_bot(bot_level, seed=bot_dice.randrange(2**31)).choose(view)]
        for action in actions:
            analysis = engine.analyse(state, name, action) if mine else None
            if actions_out is not None:
                actions_out.append((analysis, action))
            try:
                state, events = engine.apply(state, name, action)
            except IllegalMove as exc:
                moves.append(MoveFacts(len(moves), seat_of[name], version, False, exc.code, analysis,
                                       None, None, WHEN))
                continue
            moves.append(MoveFacts(len(moves), seat_of[name], version, True, "", analysis, events,
                                   None, WHEN))
            version += 1
    else:
        raise RuntimeError(f"{key} seed {seed} did not finish in {MAX_ATTEMPTS} attempts")
    return game_evidence(key, moves, {n: name for name, n in seat_of.items()}, {STUDENT_SEAT})


def tally(rows, into: dict[str, Tally] | None = None) -> dict[str, Tally]:
    """Chances and misses per measure ("so.mental_math") and per detail ("so.mental_math:÷"),
    counted as the roll-ups count them (an accepted move is also a chance at the rules)."""
    out = {} if into is None else into
    for row in rows:
        labels = [row.measure] + ([f"{row.measure}:{row.detail}"] if row.detail else [])
        if row.measure == THINK:
            labels.append(RULES)
        for label in labels:
            t = out.setdefault(label, Tally())
            t.chances += 1
            if row.measure != THINK or label == THINK:
                t.misses += row.missed
                t.amount += row.amount or 0.0
    return out


def rows_of(tallies: dict[str, Tally]) -> list[Row]:
    """The facts, operations and families of these tallies, as a student's report has them."""
    counts = []
    for label, t in tallies.items():
        measure, _, detail = label.partition(":")
        counts.append((measure, detail, t.chances, t.misses))
    return detail_rows(counts, measures_by_id())


def flags_of(tallies: dict[str, Tally]) -> list[DetailFlag]:
    """The facts, operations and families a teacher would see flagged for these tallies
    (reports/detail_flags.py, as reports/flags.py runs it on a student's roll-ups)."""
    return detail_flags(rows_of(tallies))


# Revision 2: a planted rate is recovered within ±3 points given ≥ 300 chances. The tests
# play 1,500: at 300 the dice alone stray by more than 3 points about one time in four at
# 40 %; at 1,500, ±3 points is 2.4 binomial standard deviations or more.
TOLERANCE = 0.03
CHANCES = 1500


def enough(*labels: str, chances: int = CHANCES) -> Callable[[dict[str, Tally]], bool]:
    """`play(until=...)`: stop once every label has had `chances` chances."""
    def done(tallies: dict[str, Tally]) -> bool:
        return all(label in tallies and tallies[label].chances >= chances for label in labels)
    return done


def play(key: str, student: Student, *, games: int, seed: int = 0, bot_level: str = "expert",
         until: Callable[[dict[str, Tally]], bool] | None = None) -> dict[str, Tally]:
    """`games` games (or fewer, once `until(tallies)` is true), tallied together."""
    dice = random.Random(f"games:{key}:{seed}")
    out: dict[str, Tally] = {}
    for _ in range(games):
        tally(play_one(key, student, seed=dice.randrange(2**31), bot_level=bot_level), out)
        if until is not None and until(out):
            break
    return out


@dataclass
class PlantedRun:
    """One measure planted alone in a simulated student (`plant_alone`): the tallies, and the
    planted player's dice for that measure (asked once per chance it counted)."""

    measure: str
    rate: float
    tallies: dict[str, Tally]
    quota: object  # devtools.planted.Quota

    @property
    def tally(self) -> Tally:
        return self.tallies[self.measure]

    def moved(self, measures) -> dict[str, tuple[int, int]]:
        """(misses, chances) of the other measures (and the rules) that had misses: none when
        a plant stays in its own measure (one mistake, one measure)."""
        return {m: (self.tallies[m].misses, self.tallies[m].chances) for m in (*measures, RULES)
                if m != self.measure and m in self.tallies and self.tallies[m].misses}


def plant_alone(key: str, measure: str, rate: float, *, seed: int | str, games: int,
                bot_level: str = "expert", chances: int = CHANCES) -> PlantedRun:
    """Games of a student planted on `measure` alone at `rate`, until it had `chances`."""
    player = PlantedPlayer([parse_plant(f"{measure}={rate}")], seed=seed)
    tallies = play(key, lambda k, state, name, view: player.attempts(k, view), games=games,
                   seed=int(rate * 100), bot_level=bot_level, until=enough(measure, chances=chances))
    return PlantedRun(measure, rate, tallies, player.quota(measure))


def main() -> None:  # pragma: no cover - a developer's printout
    import argparse
    import json

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("key")
    parser.add_argument("--student", default="expert",
                        help="'expert', 'beginner', ... (a bot level), 'random', or plants "
                             "like 'mg.facts=0.25,all.rule_errors=0.1'")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    spec = registry.spec_for(args.key)
    if args.student == "random":
        student = random_student(args.seed)
    elif args.student in spec.bots:
        student = bot_student(args.student, args.seed)
    else:
        student = planted_student(args.student.split(","), seed=args.seed)
    tallies = play(args.key, student, games=args.games, seed=args.seed)
    print(json.dumps({label: {"chances": t.chances, "misses": t.misses,
                              "rate": round(t.rate, 4) if t.rate is not None else None,
                              "amount": round(t.amount, 2)}
                      for label, t in sorted(tallies.items())}, indent=1, ensure_ascii=False))


if __name__ == "__main__":  # pragma: no cover
    import django
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    django.setup()
    main()
