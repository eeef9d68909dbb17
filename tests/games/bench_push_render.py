"""Measure, in process, what a push costs per game: the bytes of the channel-layer message
and of each seat's view, and the CPU time of `table_push(...)` + `.message()`.

Not collected by default (not test_*.py): run it by path,
  python -m pytest tests/games/bench_push_render.py -s -q
"""

import json
import random
import time

import pytest

from games import registry
from games.models import Game
from games.rendering import table_push
from games.services import SeatSpec, game_create
from tests.contract.helpers import NAMES

pytestmark = pytest.mark.django_db

REPEATS = 100
ROUNDS = 6
MOVES = 4  # a few moves in, so the log and scores have something in them


def mid_game(spec, classroom, student, make_student):
    engine = spec.engine
    names = list(NAMES[:min(max(engine.min_players, 2), engine.max_players)])
    users = {names[0]: student}
    for name in names[1:]:
        users[name] = make_student(classroom, name, ("boat", "star", "apple"))
    game = game_create(key=spec.key, classroom=classroom, seed=11,
                       seats=[SeatSpec(n, user=users[n]) for n in names])
    rng, state, events = random.Random(11), game.state, []
    for _ in range(MOVES):
        if state["finished"]:
            break
        player = rng.choice(engine.waiting_for(state))
        after, move_events = engine.apply(state, player, rng.choice(engine.legal_actions(state, player)))
        state, events = after, (events + [move_events])[-5:]
    Game.objects.filter(pk=game.pk).update(state=state, recent_events=events, version=MOVES + 1)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("key", [s.key for s in registry.all_games()])
def test_push_cost(key, classroom, student, make_student):
    game = mid_game(registry.spec_for(key), classroom, student, make_student)
    seats = list(game.seats.all())
    push = table_push(game_id=game.pk, game=game, seats=seats)  # warm template caches
    message = json.dumps(push.message())
    view_bytes = [sum(len(p.encode()) for p in view.values()) for view in push.views.values()]
    part_bytes = {name: max(len(v[name].encode()) for v in push.views.values())
                  for name in next(iter(push.views.values()))}
    rounds = []  # the machine is shared: the quickest of a few rounds is the least disturbed
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(REPEATS):
            table_push(game_id=game.pk, game=game, seats=seats).message()
        rounds.append((time.process_time() - start) * 1000 / REPEATS)
    cpu_ms = min(rounds)
    print(f"\nPUSH {key}: message {len(message.encode())} B, views {view_bytes} B, "
          f"parts {part_bytes}, cpu {cpu_ms:.3f} ms/push ({len(seats)} seats)")
