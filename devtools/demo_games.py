"""Finished games for the demo class, played for real by the engines' bots.

Each demo student's seat is played by a beginner bot, so results, scores and recorded moves are
what real play produces. An assignment whose engine fails half-way gets no games at all;
`load_demo` stays usable and can simply be run again later.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from classroom.models import Assignment
from games import registry
from games.models import Game, Move, Seat

logger = logging.getLogger(__name__)

MAX_ACTIONS = 5000  # a bot that never finishes must not hang `make run`


def play_with_bots(key: str, players: list[str], options: dict, *, seed: int,
                   level: str = "beginner") -> tuple[dict, list[tuple[str, dict, list]]]:
    """Play one whole game with a bot in every seat: the final state and (player, action,
    events) for each accepted action, in order."""
    spec = registry.spec_for(key)
    eng = spec.engine
    state = eng.new_game(players, options, seed=seed)
    bots = {name: spec.make_bot(level, seed * 10 + i) for i, name in enumerate(players)}
    actions = []
    while not state["finished"]:
        if len(actions) >= MAX_ACTIONS:
            raise RuntimeError(f"{key}: the bots did not finish a game in {MAX_ACTIONS} actions")
        player = eng.waiting_for(state)[0]
        action = bots[player].choose(eng.view(state, player))
        state, events = eng.apply(state, player, action)
        actions.append((player, action, events))
    return state, actions


@transaction.atomic
def store_finished_game(*, assignment: Assignment, student: User, seed: int, finished_at) -> Game:
    """Play and store one game of the assignment: the student against its computer players."""
    bots = max(assignment.bot_count, 0)
    names = [student.display_name] + [f"Computer {n}" for n in range(1, bots + 1)]
    state, actions = play_with_bots(assignment.game, names, assignment.options, seed=seed)
    scores = registry.spec_for(assignment.game).engine.scores(state)
    game = Game.objects.create(
        key=assignment.game, options=state.get("options", assignment.options), seed=seed,
        state=state, version=len(actions), status=Game.Status.FINISHED,
        classroom=assignment.classroom, assignment=assignment, created_by=student,
        started_at=finished_at - timedelta(minutes=3 + len(actions) // 10), finished_at=finished_at)
    seats = {}
    for position, name in enumerate(names):
        seats[name] = Seat.objects.create(
            game=game, position=position, name=name, user=student if position == 0 else None,
            bot_level="" if position == 0 else assignment.bot_level,
            is_winner=name in state.get("winners", []), score=scores.get(name))
    Move.objects.bulk_create(
        Move(game=game, seat=seats[player], sequence=i, version_before=i, action=action,
             accepted=True, events=events)
        for i, (player, action, events) in enumerate(actions))
    return game


def load_games(*, assignment: Assignment, games_per_student: dict[User, int]) -> bool:
    """Give each student that many finished games of the assignment, once.

    Returns False (and stores nothing) when the game's engine fails.
    """
    if assignment.games.exists():
        return True
    rng = random.Random(f"demo:{assignment.title}")
    now = timezone.now()
    try:
        with transaction.atomic():  # all of an assignment's games, or none
            for student, count in games_per_student.items():
                for n in range(count):
                    finished_at = now - timedelta(days=count - n, hours=rng.randint(0, 6))
                    store_finished_game(assignment=assignment, student=student,
                                        seed=rng.randint(1, 10**6), finished_at=finished_at)
    except Exception:  # noqa: BLE001 - an engine still being written may fail in any way
        logger.warning("Demo games of %s skipped: its engine failed", assignment.game, exc_info=True)
        return False
    return True
