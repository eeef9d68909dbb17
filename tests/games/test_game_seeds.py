"""Deals nobody can predict (docs/play.md): every game a person starts is seeded from `secrets` (63
bits), never from the clock, so knowing one's own hand does not reveal anyone else's.

Every way a game is created is covered: free play, an assignment, Play again, a table a
teacher opens, a table a student opens. Big seeds must work everywhere a seed is used: the
engines' shuffles, the bots (their seed derives from the game's), the stored JSON state and the
replay that deals the game again from it.
"""

import time
from datetime import datetime, timezone as dt_timezone
from unittest import mock

import pytest
from django.urls import reverse

from classroom.models import Assignment
from games import registry
from games.models import Game
from games.selectors.play import accepted_moves, game_state_at
from games.services import SeatSpec, game_create, game_start_for_assignment
from games.services.bots import play_bot_moves
from games.services.moves import new_seed
from games.services.tables import table_open, table_start, tables_open_for_groups
from tests.games.helpers import signed_in

pytestmark = pytest.mark.django_db

FROZEN = datetime(2025, 3, 14, 9, 26, 53, 589000, tzinfo=dt_timezone.utc)


def clock_readings(moment: datetime) -> set[int]:
    """What a clock-seeded deal could have used: seconds and milliseconds, whole or cut to
    31 or 32 bits."""
    readings = set()
    for value in (moment.timestamp(), time.time()):
        for scaled in (int(value), int(value * 1000)):
            readings |= {scaled, scaled % 2**31, scaled % 2**32}
    return readings


def every_way_to_create(student, ben, teacher, classroom) -> list[Game]:
    """One game from each path a person can take, all within the same (frozen) millisecond."""
    games = []
    client = signed_in(student)
    response = client.post(reverse("games:free_play_start", args=["smooth_operator"]))
    games.append(Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1])))
    response = client.post(reverse("games:play_again", args=[games[0].pk]))
    games.append(Game.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1])))
    assignment = Assignment.objects.create(classroom=classroom, title="Race", game="multiplication",
                                           options={"hand_size": 4}, bot_count=1)
    games.append(game_start_for_assignment(assignment=assignment, student=student))
    games += tables_open_for_groups(teacher=teacher, classroom=classroom, key="multiplication",
                                    groups=[[student, ben]])
    lobby = table_open(student=student, key="multiplication")
    games.append(table_start(host=student, game_id=lobby.pk, fill_level="beginner"))
    return games


def test_games_created_in_the_same_millisecond_get_different_unrelated_seeds(
        student, ben, teacher, classroom):
    with mock.patch("django.utils.timezone.now", return_value=FROZEN):
        first = every_way_to_create(student, ben, teacher, classroom)
        # Play hands back a free-play game not moved in yet (pressing it twice deals one game):
        # the first free-play games (Play's, Play again's) are over before the second Play,
        # which then deals a new one.
        Game.objects.filter(pk__in=[first[0].pk, first[1].pk]).update(status=Game.Status.FINISHED)
        second = every_way_to_create(student, ben, teacher, classroom)
    seeds = [g.seed for g in first + second]
    assert len(set(seeds)) == len(seeds)
    assert all(g.started_at == FROZEN for g in first + second)  # the clock really was frozen
    for a, b in zip(first, second):
        assert abs(a.seed - b.seed) > 2**20  # not a counter or a clock that ticked on
    assert not set(seeds) & clock_readings(FROZEN)
    assert sum(seed >= 2**32 for seed in seeds) >= len(seeds) - 1  # every path: 63 bits, not 31
    # The stored state deals from the same seed (JSON round trip of a 63-bit number).
    for game in first + second:
        game.refresh_from_db()
        assert game.state["seed"] == game.seed and 0 <= game.seed < 2**63


def test_seeds_are_63_bits_not_31(student, classroom):
    seats = [SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="beginner")]
    seeds = [game_create(key="multiplication", classroom=classroom, seats=seats,
                         options={"hand_size": 4}).seed for _ in range(20)]
    assert sum(seed >= 2**32 for seed in seeds) >= 15  # all but 1 in 2**31 of the time: 20
    assert len(set(seeds)) == 20
    assert max(seeds) < 2**63  # fits Game.seed, a signed 64-bit column


def test_new_seed_never_reads_the_clock():
    with mock.patch("time.time", side_effect=AssertionError("the clock was read")), \
            mock.patch("django.utils.timezone.now", side_effect=AssertionError("the clock was read")):
        seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50


@pytest.mark.parametrize("key", [spec.key for spec in registry.all_games()])
def test_a_game_with_the_biggest_seed_plays_to_the_end_and_replays(key, classroom, student):
    """Engines shuffle with `random.Random(f"{seed}:{n}")` and bots use `random.Random(game
    seed * 1009 + ...)`: both must take a 63-bit seed, and the replay must deal the same game
    again from the stored seed."""
    spec = registry.spec_for(key)
    level = next(iter(spec.bots))
    fewest, _ = spec.bot_count_range
    seats = [SeatSpec("Ann", bot_level=level)] + [SeatSpec(f"Bot {i}", bot_level=level)
                                                   for i in range(max(fewest, spec.min_players - 1))]
    options = dict(spec.skills.planted.options) if spec.skills and spec.skills.planted else {}
    game = game_create(key=key, classroom=classroom, seats=seats, options=options, seed=2**63 - 1)
    play_bot_moves(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.seed == 2**63 - 1
    moves = accepted_moves(game=game)
    assert game_state_at(game=game, turn=len(moves), moves=moves) == game.state
