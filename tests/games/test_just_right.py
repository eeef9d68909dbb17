""""Just right" opponents (docs/play.md): the assignment form offers them, a student's game is
dealt against computer players tuned from their rating, and simulated students of three
strengths playing such an assignment win 40-60 % of their first 20 games."""

import time

import pytest
from django.urls import reverse

from classroom import presets
from classroom import services as classroom_services
from classroom.assignment_form import AssignmentForm
from classroom.models import Assignment
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_assignment_games
from games import ratings
from games.engine.bots import mix_share
from games.models import Game, PlayerRating, RatingChange
from games.services import game_start_for_assignment

pytestmark = pytest.mark.django_db


def form_data(**changes) -> dict:
    data = {"game": "multiplication", "preset": "classic", "opponents": "bots",
            "bot_level": ratings.JUST_RIGHT, "bot_count": "1", "goal": "play", "goal_count": "20",
            "goal_until": "", "due_on": "", "audience": "class", "title": ""}
    data.update(changes)
    return data


def just_right(classroom, teacher, *, game="multiplication", preset="classic", bot_count=1,
               goal_count=20) -> Assignment:
    return classroom_services.assignment_create(
        classroom=classroom, created_by=teacher, title="", game=game, preset=preset,
        opponents=Assignment.Opponents.BOTS, bot_level=ratings.JUST_RIGHT, bot_count=bot_count,
        mental_math=False, goal=Assignment.Goal.PLAY, goal_count=goal_count, goal_until=None,
        due_on=None)


# ----- the form ------------------------------------------------------------------------------

def test_the_form_offers_just_right_beside_the_levels(classroom):
    form = AssignmentForm(classroom=classroom, game="multiplication")
    choices = dict(form.fields["bot_level"].choices)
    assert list(choices)[:4] == ["starter", "beginner", "player", "expert"]
    assert choices[ratings.JUST_RIGHT] == "Just right (adapts to each child)"
    assert form.fields["bot_level"].help_text.startswith("Just right:")


def test_a_game_played_alone_offers_no_just_right(classroom):
    form = AssignmentForm(classroom=classroom, game="numero_solitaire")
    assert ratings.JUST_RIGHT not in dict(form.fields["bot_level"].choices)
    assert ratings.JUST_RIGHT in presets.bot_level_choices("numero")
    assert ratings.JUST_RIGHT not in presets.bot_level_choices("numero_solitaire")


def test_the_form_accepts_just_right_and_the_service_stores_it(client, teacher, classroom):
    form = AssignmentForm(form_data(), classroom=classroom)
    assert form.is_valid(), form.errors
    assert form.service_kwargs()["bot_level"] == ratings.JUST_RIGHT
    client.force_login(teacher)
    response = client.post(reverse("classroom:assignment_create", args=[classroom.pk]), form_data())
    assert response.status_code == 302
    a = Assignment.objects.get()
    assert (a.game, a.bot_level, a.bot_count) == ("multiplication", ratings.JUST_RIGHT, 1)
    page = client.get(reverse("classroom:class_detail", args=[classroom.pk])).content.decode()
    assert "Against 1 computer player (Just right)" in page


def test_the_form_refuses_a_level_that_is_not_offered(classroom):
    form = AssignmentForm(form_data(bot_level="mix:0.50"), classroom=classroom)
    assert not form.is_valid() and "bot_level" in form.errors
    with pytest.raises(presets.PresetError):
        classroom_services.assignment_create(
            classroom=classroom, created_by=classroom.owner, title="", game="multiplication",
            preset="classic", opponents="bots", bot_level="mix:0.50", bot_count=1,
            mental_math=False, goal="play", goal_count=3, goal_until=None, due_on=None)


def test_editing_keeps_just_right(client, teacher, classroom):
    a = just_right(classroom, teacher)
    form = AssignmentForm(form_data(goal_count="4"), classroom=classroom, assignment=a)
    assert form.is_valid(), form.errors
    classroom_services.assignment_update(assignment=a, **form.service_kwargs())
    a.refresh_from_db()
    assert (a.bot_level, a.goal_count) == (ratings.JUST_RIGHT, 4)


# ----- the student's start path --------------------------------------------------------------

def test_a_new_student_meets_a_bot_tuned_from_the_default_rating(teacher, classroom, student):
    a = just_right(classroom, teacher)
    game = game_start_for_assignment(assignment=a, student=student)
    bot = game.seats.exclude(bot_level="").get()
    expected = ratings.just_right_level("multiplication", ratings.default_rating("multiplication"))
    assert bot.bot_level == expected and 0 < mix_share(bot.bot_level) < 1


@pytest.mark.parametrize("rating", [300.0, 900.0, 1100.0, 1250.0, 1500.0])
def test_the_bot_follows_the_students_rating(teacher, classroom, student, client, rating):
    PlayerRating.objects.create(user=student, key="multiplication", rating=rating, games=12)
    a = just_right(classroom, teacher)
    client.force_login(student)
    url = reverse("classroom:assignment_start", args=[a.pk])
    start = client.get(url).content.decode()
    assert "just right for you" in start and "mix:" not in start
    response = client.post(url)  # the Play button's start, as the child presses it
    game = Game.objects.get(assignment=a)
    assert response["Location"] == reverse("games:game", args=[game.pk])
    bot = game.seats.exclude(bot_level="").get()
    share = mix_share(bot.bot_level)
    assert bot.bot_level == ratings.just_right_level("multiplication", rating)
    figures = ratings.figures_for("multiplication")
    if rating <= figures.low:
        assert share == -1.0  # weaker than the starter: the starter
    elif rating < figures.beginner:
        assert -1.0 < share < 0.0  # between the starter and the beginner
    elif rating >= figures.high:
        assert share == 1.0  # stronger than the expert: the expert
    else:
        # An even chance: the bot's rating is the student's (to the curve's hundredths).
        assert abs(ratings.mix_rating("multiplication", share) - rating) < 5
    # The child's table says "just right", never the mix's number.
    table = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "computer · just right" in table and "mix:" not in table


def test_two_bots_are_weaker_so_the_chance_of_winning_stays_even(teacher, classroom, student):
    PlayerRating.objects.create(user=student, key="smooth_operator", rating=1200.0, games=12)
    a = just_right(classroom, teacher, game="smooth_operator", preset="quick", bot_count=2)
    game = game_start_for_assignment(assignment=a, student=student)
    levels = {s.bot_level for s in game.seats.exclude(bot_level="")}
    assert len(levels) == 1
    share = mix_share(levels.pop())
    bot = ratings.mix_rating("smooth_operator", share)
    assert ratings.expected_scores([1200.0, bot, bot])[0] == pytest.approx(0.5, abs=0.02)


def test_play_again_tunes_the_bot_to_the_new_rating(teacher, classroom, student, client):
    a = just_right(classroom, teacher)
    first = game_start_for_assignment(assignment=a, student=student)
    Game.objects.filter(pk=first.pk).update(status=Game.Status.FINISHED)
    PlayerRating.objects.update_or_create(user=student, key="multiplication",
                                          defaults={"rating": 1320.0, "games": 9})
    client.force_login(student)
    response = client.post(reverse("games:play_again", args=[first.pk]))
    again = Game.objects.exclude(pk=first.pk).get()
    assert response["Location"] == reverse("games:game", args=[again.pk])
    assert again.assignment_id == a.pk
    retuned = again.seats.exclude(bot_level="").get().bot_level
    assert retuned == ratings.just_right_level("multiplication", 1320.0) != first.seats.exclude(
        bot_level="").get().bot_level


# ----- the simulation: three strengths win 40-60 % ------------------------------------------

# Three planted strengths: the planted Multiplication Game player (devtools/planted.py) plays
# the expert's move except that, at each turn where it could discard, it draws instead with
# the planted probability (mg.missed_play). Measured by self-play against the beginner and the
# expert (600 games each), on games/ratings.py's scale, the three stand at about 1260 (strong,
# 0.12), 1180 (medium, 0.20) and 1090 (weak, 0.27): inside the range the mixed bot can match
# (beginner 1000 to expert 1349), with room at both ends, and 85-90 points either side of where
# a new student starts (1175), so two of the three ratings have to travel to their child.
# (A child stronger than the expert cannot be given an even chance by these bots; planted
# misses of 0.05 would be such a child. A child weaker than the beginner, 0.35 or more, meets
# the starter's side: tests/games/test_starter.py, and `python manage.py
# just_right` prints five strengths down to 0.5, 200 games each, docs/play.md.)
#
# The seeds are fixed, so the test is deterministic. Over 200 other seeds the same simulation
# (engine-only replica of this path, same seeds' arithmetic) put all three students inside
# 40-60 % in 90 % of them (strong alone 94 %, medium 100 %, weak 96 %): with only 20 games the
# dice still decide now and then, which is why K is large while a rating is new. The strong
# child fails most: near the expert, the bots cannot get much harder.
STRENGTHS = {"strong": 0.12, "medium": 0.20, "weak": 0.27}
GAMES = 20


def test_three_strengths_win_40_to_60_percent_of_20_just_right_games(teacher, classroom, make_student):
    started = time.perf_counter()
    a = just_right(classroom, teacher, goal_count=GAMES)
    results = {}
    for n, (name, miss) in enumerate(STRENGTHS.items()):
        student = make_student(classroom, f"Sim {name}")
        player = PlantedPlayer([parse_plant(f"mg.missed_play={miss}")], seed=f"just-right:{name}")
        games = play_assignment_games(assignment=a, student=student, player=player, games=GAMES,
                                      seed=1700 + n)
        wins = sum(g.seats.get(user=student).is_winner for g in games)
        levels = [g.seats.exclude(bot_level="").get().bot_level for g in games]
        changes = list(RatingChange.objects.filter(user=student).order_by("played_at", "id"))
        rating = PlayerRating.objects.get(user=student, key="multiplication")
        late = sum(c.after for c in changes[-10:]) / 10  # the rating over the last ten games
        results[name] = (wins / GAMES, round(rating.rating), round(late))
        assert all(mix_share(level) is not None for level in levels)
        assert rating.games == GAMES == len(changes)
        # Each game was tuned to the rating its student had when it started.
        assert levels == [ratings.just_right_level("multiplication", c.before) for c in changes]
    seconds = time.perf_counter() - started
    print(f"\njust right, {GAMES} games each (win rate, rating, mean of the last 10): {results} "
          f"in {seconds:.1f} s")
    for name, (rate, _, _) in results.items():
        assert 0.4 <= rate <= 0.6, (name, results)
    # The ratings found the children apart: the strong one above the weak one.
    assert results["strong"][2] > results["weak"][2], results
