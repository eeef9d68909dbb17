"""The starter, an easier computer player below the beginner (docs/play.md, "An opponent for every
child: the starter"): it plays legal moves, the same ones from the same seed; it loses to the beginner more
than it wins; "just right" gives it (or a mix of it and the beginner) to a child weaker than
the beginner; the menus offer it by a name a child understands; and the measurement of
"just right" (devtools/just_right.py) plays exactly the games the services play."""

import math

import pytest
from django.urls import reverse

from classroom import services as classroom_services
from classroom.models import Assignment
from devtools.just_right import just_right_run
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_assignment_games
from games import ratings, registry
from games.engine import get as engine_get
from games.engine import make_bot
from games.engine.bots import MixedBot, mix_share
from games.engine.calibrate import win_share
from games.models import Game, PlayerRating, RatingChange
from games.services import game_start_for_assignment
from tests.games.helpers import signed_in

# Every game with a starter and opponents for it (a one-player game has no opponents).
GAMES = [spec.key for spec in registry.all_games() if "starter" in spec.bots and spec.multiplayer]


def first_options(key: str) -> dict:
    spec = registry.spec_for(key)
    return dict(spec.presets[0].options)


def starter_game(key: str, seed: int) -> list:
    """A whole game at the smallest table, every seat a starter, each decision by a starter
    made from a seed as the move service makes its bots; the (player, action) list."""
    engine = engine_get(key)
    players = [f"P{i}" for i in range(engine.min_players)]
    state = engine.new_game(players, first_options(key), seed)
    played, steps = [], 0
    while not state["finished"]:
        player = engine.waiting_for(state)[0]
        action = make_bot(key, "starter", seed * 1009 + steps * 31).choose(engine.view(state, player))
        state, _ = engine.apply(state, player, action)  # raises IllegalMove for an illegal move
        played.append((player, action))
        steps += 1
        assert steps < 5000
    assert engine.summary(state)["winners"]
    return played


@pytest.mark.parametrize("key", GAMES)
def test_the_starter_plays_legal_moves_the_same_from_the_same_seed(key):
    assert "starter" in registry.spec_for(key).bots
    assert make_bot(key, "starter", 1).level == "starter"
    first = starter_game(key, 21)
    assert starter_game(key, 21) == first
    assert starter_game(key, 22) != first  # another seed: another game


# The starter against the beginner at the game's smallest table (seats rotate), as the
# calibration plays it (games/engine/calibrate.py `win_share`): it wins less than a fair share
# (1/2 with two players, 1/3 at Add or Multiply?'s three), and the beginner against starters
# wins more. Seeded, so the same every run. Enough games for each game's luck: the calibrated
# shares (docs/play.md) are about 0 % (Multiplication Game), 7 % (Numero), 32 % (Smooth
# Operator, two players) and 26 % (Add or Multiply?, three), so the games below put each at
# least two standard errors below its fair share (another game: as many as the luckiest needs).
GAMES_AGAINST_BEGINNER = {"multiplication": 100, "numero": 100, "smooth_operator": 200,
                          "add_or_multiply": 400}


@pytest.mark.parametrize("key", GAMES)
def test_the_starter_loses_more_to_the_beginner_than_it_wins(key):
    fair = 1 / engine_get(key).min_players
    options, games = first_options(key), GAMES_AGAINST_BEGINNER.get(key, max(GAMES_AGAINST_BEGINNER.values()))
    starter = win_share(key, "starter", "beginner", games, 5, options)
    beginner = win_share(key, "beginner", "starter", games, 6, options)
    assert starter < fair < beginner, (starter, beginner)
    # Its rating says so too: below the beginner's, the low end of "just right".
    assert ratings.bot_rating(key, "starter") == ratings.figures_for(key).low < 1000


# ----- "just right" for a child weaker than the beginner ------------------------------------

def just_right(classroom, teacher, key="multiplication", preset="classic", bot_count=1):
    return classroom_services.assignment_create(
        classroom=classroom, created_by=teacher, title="", game=key, preset=preset,
        opponents=Assignment.Opponents.BOTS, bot_level=ratings.JUST_RIGHT, bot_count=bot_count,
        mental_math=False, goal=Assignment.Goal.PLAY, goal_count=20, goal_until=None, due_on=None)


@pytest.mark.parametrize("key", GAMES)
def test_just_right_goes_below_the_beginner_for_a_weaker_child(key):
    f = ratings.figures_for(key)
    bots = registry.spec_for(key).min_players - 1
    # k bots of rating B give an even chance to a child of rating B + 400 log10(k).
    between = (f.low + f.beginner) / 2 + 400 * math.log10(bots)
    share = ratings.just_right_share(key, between, bots)
    assert -1.0 < share < 0.0
    assert ratings.mix_rating(key, share) == pytest.approx(between - 400 * math.log10(bots), abs=3)
    assert ratings.just_right_level(key, f.low - 300, bots) == "mix:-1.00"  # the starter itself


@pytest.mark.django_db
def test_a_child_weaker_than_the_beginner_is_dealt_the_starter_side(teacher, classroom, student, client):
    f = ratings.figures_for("multiplication")
    PlayerRating.objects.create(user=student, key="multiplication", rating=f.beginner - 60, games=15)
    a = just_right(classroom, teacher)
    client.force_login(student)
    client.post(reverse("classroom:assignment_start", args=[a.pk]))
    game = Game.objects.get(assignment=a)
    seat = game.seats.exclude(bot_level="").get()
    share = mix_share(seat.bot_level)
    assert -1.0 < share < 0.0
    assert seat.bot_level == ratings.just_right_level("multiplication", f.beginner - 60)
    # The bot at the table mixes the starter and the beginner.
    bot = registry.spec_for("multiplication").make_bot(seat.bot_level, seed=1)
    assert isinstance(bot, MixedBot)
    assert (bot.strong.level, bot.weak.level) == ("beginner", "starter")
    table = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "computer · just right" in table and "mix:" not in table
    # A child far below the beginner meets the starter.
    PlayerRating.objects.filter(user=student).update(rating=f.low - 200)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    again = game_start_for_assignment(assignment=a, student=student)
    assert again.seats.exclude(bot_level="").get().bot_level == "mix:-1.00"


@pytest.mark.django_db
def test_the_measurement_plays_the_games_the_services_play(teacher, classroom, student):
    """devtools/just_right.py replays the services without a database: the same seeds give the
    same opponents, winners and ratings, game by game (so its figures are the app's)."""
    plant, seed, games = "mg.missed_play=0.5", 7, 6
    a = just_right(classroom, teacher)
    player = PlantedPlayer([parse_plant(plant)], seed=f"just-right:multiplication:{plant}:{seed}")
    played = play_assignment_games(assignment=a, student=student, player=player, games=games, seed=seed)
    changes = list(RatingChange.objects.filter(user=student).order_by("played_at", "id"))
    run = just_right_run(key="multiplication", plant=plant, games=games, seed=seed,
                         name=student.display_name)
    assert run.levels == [g.seats.exclude(bot_level="").get().bot_level for g in played]
    assert [score > 0 for score in run.outcomes] == [g.seats.get(user=student).is_winner for g in played]
    assert run.ratings == pytest.approx([c.after for c in changes])
    # A child missing half of their plays starts in the middle, loses, and is soon below the
    # beginner: the starter's side is where their games are played.
    assert any(mix_share(level) < 0 for level in run.levels)


# ----- the menus ----------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_menus_offer_the_starter_by_name(student):
    client = signed_in(student)
    home = client.get(reverse("classroom:student_home")).content.decode()
    assert '<option value="starter">Starter (easiest)</option>' in home
    assert '<option value="player" selected>Player (medium)</option>' in home
    # Free play at the starter's level seats a starter.
    client.post(reverse("games:free_play_start", args=["multiplication"]), {"level": "starter"})
    game = Game.objects.latest("created_at")
    assert [s.bot_level for s in game.seats.all()] == ["", "starter"]
    # The lobby's "Add a computer player" menu offers it too, and the host can add one.
    client.post(reverse("classroom:table_open"), {"game": "multiplication"})
    table = Game.objects.latest("created_at")
    lobby = client.get(reverse("games:lobby", args=[table.pk])).content.decode()
    assert '<option value="starter">Starter (easiest)</option>' in lobby
    client.post(reverse("games:lobby_add_bot", args=[table.pk]), {"level": "starter"})
    assert table.seats.get(user=None).bot_level == "starter"
