"""Simulated classes: planted players (planted.py) play real games through the same services as
students (games.services.game_create / game_apply_move), against the engines' bots, and the
reports are computed from what was recorded - exactly as for a class of children.

Games are driven synchronously (no bot pause, no worker), each made and played to its end in one
transaction, so no page can have it open: its moves are not announced to table pages
(`tables_nobody_watches`). Each finished game's report is
computed straight away (the same `game_finished` the on-commit task runs; it is idempotent, so
the queued copy changes nothing); the class roll-ups and flags are rebuilt once at the end
instead of after every game.

Locks: a game is played in its own transaction, which locks only that new game's row; its
report is written after it commits, through reports.services, in the one lock order of report
writes (the class row, then games in id order: `reports.services.lock_classes`). So a Celery
worker writing the same class's reports meanwhile (the queued copy, a teacher's recompute)
waits its turn and never deadlocks with the simulation (tests/reports/test_lock_order.py).
"""

from __future__ import annotations

import copy
import random
import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction

from accounts.models import User
from accounts.services import student_create, teacher_sign_up
from classroom.models import Classroom
from classroom.selectors import students_of_class
from games import registry
from games.models import Game, Move
from games.services import (SeatSpec, bot_seats, game_apply_move, game_create,
                            game_start_for_assignment)
from games.services.after_commit import tables_nobody_watches
from games.services.bots import bot_action
from games.services.ratings import ratings_update_for_game
from games.spec import GameSpec
from reports import services

from .planted import Plant, PlantedPlayer, PlantError, games_for, parse_plant

MAX_ATTEMPTS = 20_000
SIM_TEACHER_EMAIL = "simulated-teacher@numberdeck.test"
PICTURES = ["cat", "sun", "tree"]


class SimulationError(RuntimeError):
    pass


def simulated_options(spec: GameSpec) -> dict:
    """The options of a simulated game: its planted player's (many chances, quick to play)."""
    planted = spec.skills.planted if spec.skills else None
    return copy.deepcopy(dict(planted.options)) if planted else {}


def opponents(spec: GameSpec) -> int:
    """Computer opponents of a simulated student: one when the game seats one (Solitaire:
    none), more only when the game needs more."""
    fewest, most = spec.bot_count_range
    return max(fewest, min(1, most))


def play_game(*, key: str, classroom: Classroom, student: User, player: PlantedPlayer, seed: int,
              bot_level: str = "expert", assignment=None, days_ago: int = 0) -> Game:
    """One whole game of `student` (played by `player`) against bots, through the services.
    `days_ago` dates the game back (for demo trends) after it was played."""
    spec = registry.spec_for(key)
    me = SeatSpec(student.display_name, user=student)
    with tables_nobody_watches(), transaction.atomic():  # nobody can watch a game made here
        game = game_create(key=key, classroom=classroom, seed=seed, options=simulated_options(spec),
                           seats=[me] + bot_seats(count=opponents(spec), level=bot_level,
                                                  avoid={me.name}),
                           assignment=assignment, created_by=student)
        game = _play_out(game, student, player)
        _think_like_a_child(game, student, seed)
        if days_ago:
            _date_back(game, timedelta(days=days_ago))
    services.game_finished(game_id=game.pk)
    return game


def _play_out(game: Game, student: User, player: PlantedPlayer) -> Game:
    """Play a dealt game to its end through the move service: `student`'s seat by `player`,
    the others by their bots. Returns the finished game."""
    key = game.key
    engine = registry.spec_for(key).engine
    seats = {seat.name: seat for seat in game.seats.all()}
    for _ in range(MAX_ATTEMPTS):
        if game.status != Game.Status.ACTIVE:
            return game
        seat = seats[engine.waiting_for(game.state)[0]]
        if seat.user_id != student.pk:
            actions = [bot_action(game, seat)]
        else:
            actions = player.attempts(key, engine.view(game.state, seat.name))
        for n, action in enumerate(actions):
            result = game_apply_move(game_id=game.pk, seat=seat, action=action,
                                     expected_version=game.version, schedule_bots=False)
            wanted = "applied" if n == len(actions) - 1 else "rejected"
            if result.status != wanted:
                raise SimulationError(f"{key} #{game.pk}: {action} was {result.status} "
                                      f"({result.code}), expected {wanted}")
            game = result.game  # the service updated it in place: no need to read it again
    raise SimulationError(f"{key} #{game.pk} did not finish in {MAX_ATTEMPTS} attempts")


def play_assignment_games(*, assignment, student: User, player: PlantedPlayer, games: int,
                          seed: int = 1) -> list[Game]:
    """`student` (played by `player`) plays `games` games of an assignment against bots, each
    started as the student's Play button starts it (`game_start_for_assignment`: a "just
    right" assignment tunes its bots to the rating of the moment) and played through the
    services. After each game its ratings are updated, as the move service does once the
    finish commits (games/services/after_commit.py; idempotent: when that runs too, nothing
    changes twice),
    so the next game is tuned to the new rating. No skill reports (play_game makes them)."""
    rng = random.Random(seed)
    played = []
    for _ in range(games):
        with tables_nobody_watches(), transaction.atomic():  # nobody can watch a game made here
            game = game_start_for_assignment(assignment=assignment, student=student,
                                             seed=rng.randrange(2**31))
            game = _play_out(game, student, player)
        ratings_update_for_game(game_id=game.pk)
        played.append(game)
    return played


def _think_like_a_child(game: Game, student: User, seed: int) -> None:
    """Simulated moves take microseconds; give the student's moves the seconds a child takes
    (seeded), so that thinking-time reports of simulated and demo classes look like a class's."""
    rng = random.Random(seed)
    moves = list(Move.objects.filter(game=game, seat__user=student).only("id", "think_ms"))
    for move in moves:
        move.think_ms = int(rng.triangular(1500, 20000, 5000))
    Move.objects.bulk_update(moves, ["think_ms"], batch_size=500)


def _date_back(game: Game, by: timedelta) -> None:
    Game.objects.filter(pk=game.pk).update(started_at=game.started_at - by,
                                           finished_at=game.finished_at - by,
                                           turn_started_at=game.turn_started_at - by)
    for move in Move.objects.filter(game=game).only("id", "created_at"):
        Move.objects.filter(pk=move.pk).update(created_at=move.created_at - by)


@dataclass
class SimulatedClass:
    classroom: Classroom
    students: list[User]
    plants: dict[int, list[Plant]]  # student id -> plants
    games: list[Game] = field(default_factory=list)


def sim_name(n: int) -> str:
    return f"Sim {n:02d}"


def simulate_class(*, students: int, games: int, plants: list[Plant], error_free: int = 0,
                   classroom: Classroom | None = None, seed: int = 1, weeks: int = 1,
                   profiles: list[list[Plant]] | None = None, progress=None) -> SimulatedClass:
    """A class of `students` simulated students ("Sim 01", ...), each playing `games` games
    (taking turns through the games the plants need). Every planted student has `plants`,
    and with `profiles` also profile i mod len(profiles) (so students of one class carry
    different plants). The last `error_free` students have no plant. Misses are drawn by each
    student's own dice, seeded from `seed`: the same seed gives the same class. Returns the
    class; its reports are up to date."""
    if classroom is None:
        classroom = _new_class()
    people = [_student(classroom, sim_name(n)) for n in range(1, students + 1)]
    profiles = [list(p) for p in profiles or ()] or [[]]
    planted = {s.pk: ([] if i >= students - error_free else [*plants, *profiles[i % len(profiles)]])
               for i, s in enumerate(people)}
    keys = games_for([p for student_plants in planted.values() for p in student_plants])
    sim = SimulatedClass(classroom, people, planted)
    rng = random.Random(seed)
    with services.deferred_class_refresh():
        for i, student in enumerate(people):
            # Each student's own dice, from the class's seed: the same seed, the same class.
            player = PlantedPlayer(planted[student.pk], seed=f"{seed}:{i}")
            for g in range(games):
                key = keys[g % len(keys)]
                days_ago = 7 * (weeks - 1 - g * weeks // games) if weeks > 1 else 0
                sim.games.append(play_game(key=key, classroom=classroom, student=student, player=player,
                                           seed=rng.randrange(2**31), days_ago=days_ago))
            if progress is not None:
                progress(i + 1, students)
    return sim


def _new_class() -> Classroom:
    teacher = User.objects.filter(email=SIM_TEACHER_EMAIL, role=User.Role.TEACHER).first()
    if teacher is None:
        # Nobody signs in as this teacher: a random password nobody knows.
        teacher = teacher_sign_up(name="Simulated teacher", email=SIM_TEACHER_EMAIL,
                                  password=secrets.token_urlsafe(24))
    count = Classroom.objects.filter(owner=teacher).count()
    classroom = Classroom.objects.create(name=f"Simulated class {count + 1}", owner=teacher)
    classroom.teachers.add(teacher)
    return classroom


def _student(classroom: Classroom, name: str) -> User:
    existing = students_of_class(classroom=classroom).filter(display_name=name).first()
    if existing is not None:
        return existing
    return student_create(classroom=classroom, display_name=name,
                          username=f"sim-{classroom.pk}-{name.split()[-1]}", picture_password=PICTURES)


# Demo: a few free games of the demo students, each with a different planted weakness, so that
# the reports of `make run` have something to show (a needs-help flag, a weak fact, trends).
# Every demo student plays one game of each game these plants need, the first 8 days ago and
# the last yesterday (a trend has two weeks). A plant the registry cannot plant is left out.
DEMO_PROFILES = {
    "Ann": [],
    "Ben": ["mg.facts:7x8=0.6", "mg.facts=0.15"],
    "Cal": ["all.rule_errors=0.25"],
    "Dee": ["so.lowest_operator=0.5"],
    "Fay": ["so.mental_math=0.3", "mg.missed_play=0.3"],
}


def demo_reports(*, classroom: Classroom, students: list[User]) -> None:
    """Play the demo's simulated free games once (their marker: a free game in the class), then
    make sure every finished game of the class has its report. Safe to run again."""
    profiles = {name: _plants(texts) for name, texts in DEMO_PROFILES.items()}
    keys = _in_menu_order(games_for([p for plants in profiles.values() for p in plants]))
    by_name = {s.display_name: s for s in students}
    with services.deferred_class_refresh():
        if not Game.objects.filter(classroom=classroom, assignment__isnull=True).exists():
            rng = random.Random("demo-reports")
            for name, plants in profiles.items():
                student = by_name.get(name)
                if student is None:
                    continue
                player = PlantedPlayer(plants)
                for n, key in enumerate(keys):
                    days_ago = 8 - 7 * n // max(1, len(keys) - 1)
                    play_game(key=key, classroom=classroom, student=student, player=player,
                              seed=rng.randrange(2**31), days_ago=days_ago)
        finished = Game.objects.filter(classroom=classroom, status=Game.Status.FINISHED)
        missing = list(finished.filter(report__isnull=True).values_list("pk", flat=True))
        if missing:
            services.games_reports_compute(game_ids=missing)
            services._deferred[-1].add(classroom.pk)


def _plants(texts: list[str]) -> list[Plant]:
    plants = []
    for text in texts:
        try:
            plants.append(parse_plant(text))
        except PlantError:  # its game is not registered (any more): the demo does without
            continue
    return plants


def _in_menu_order(keys: list[str]) -> list[str]:
    order = [spec.key for spec in registry.all_games()]
    return sorted(keys, key=order.index)
