"""Ratings (docs/play.md): the Elo update with known values, once per game however often it runs,
after every finished game against bots or classmates; the mixed bot; the selectors and the
partial that shows a rating to a teacher (a number and its trend) or a child (a name)."""

import math
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import ratings, registry, signals
from games.engine import get as engine_get
from games.engine import make_bot
from games.engine.bots import MixedBot, is_level, make_level_bot, mix_level, mix_share
from games.models import Game, PlayerRating, RatingChange, Seat
from games.selectors.ratings import student_rating, student_ratings, students_ratings
from games.services import SeatSpec, game_apply_move, game_create
from games.services.bots import bot_action
from games.services.ratings import ratings_update_all, ratings_update_for_game

KEY = "multiplication"


# ----- the formulas --------------------------------------------------------------------------

def test_expected_scores_are_elo_for_two_and_luce_for_more():
    assert ratings.expected_scores([1200, 1000]) == pytest.approx([0.75975, 0.24025], abs=1e-5)
    assert ratings.expected_scores([1000, 1000]) == pytest.approx([0.5, 0.5])
    assert ratings.expected_scores([1000, 1000, 1000]) == pytest.approx([1 / 3] * 3)
    # 400 points above two equal rivals: 10 / (10 + 1 + 1).
    assert ratings.expected_scores([1400, 1000, 1000])[0] == pytest.approx(10 / 12)


def test_the_update_with_known_values():
    # A new student (K = 250) 200 points above the bot wins: + 250 x (1 - 0.75975).
    after, k = ratings.updated(1200.0, expected=0.75975, score=1.0, games=0)
    assert (round(after, 2), k) == (1260.06, 250.0)
    # ... and loses: - 250 x 0.75975.
    assert round(ratings.updated(1200.0, expected=0.75975, score=0.0, games=0)[0], 2) == 1010.06
    # A settled rating (40 games or more) moves with K = 64: an even game won is + 32.
    assert ratings.updated(1100.0, expected=0.5, score=1.0, games=40) == (1132.0, 64.0)
    assert [ratings.k_factor(n) for n in (0, 2, 3, 7, 8, 19, 20, 39, 40, 500)] == [
        250, 250, 200, 200, 150, 150, 100, 100, 64, 64]


def test_scores_share_a_shared_win():
    assert ratings.actual_scores([True, False]) == [1.0, 0.0]
    assert ratings.actual_scores([True, True, False]) == [0.5, 0.5, 0.0]
    assert ratings.actual_scores([False, False]) == [0.5, 0.5]


def test_bot_ratings_and_the_mix_curve():
    f = ratings.figures_for(KEY)
    assert ratings.bot_rating(KEY, "beginner") == 1000 == f.beginner
    assert ratings.bot_rating(KEY, "expert") == f.high == ratings.bot_rating(KEY, "mix:1.00")
    assert ratings.bot_rating(KEY, "mix:0.00") == 1000
    # The starter is the easiest opponent: the low end of the curve, below the beginner.
    assert ratings.bot_rating(KEY, "starter") == f.low == ratings.bot_rating(KEY, "mix:-1.00") < 1000
    assert f.low < ratings.bot_rating(KEY, "mix:-0.50") < 1000
    assert ratings.mix_rating(KEY, 0.5) == 1214
    assert ratings.mix_rating(KEY, 0.125) == pytest.approx((1000 + 1109) / 2)
    # A new student still starts halfway between the beginner and the expert.
    assert ratings.default_rating(KEY) == (1000 + 1349) / 2
    for spec in registry.all_games():
        if spec.ratings is None:  # (a one-player game: no opponents, the generic figures)
            assert ratings.figures_for(spec.key) is ratings.GENERIC
            continue
        points = ratings.figures_for(spec.key).mix
        # Every game's curve starts at its starter (p = -1), or at its beginner without one.
        assert points[0][0] == (-1 if "starter" in spec.bots else 0) and points[-1][0] == 1
        assert all(a[1] <= b[1] for a, b in zip(points, points[1:]))  # rises


@pytest.mark.parametrize("rating", [1000.0, 1050.0, 1174.5, 1214.0, 1300.0, 1349.0, 950.0, 880.0])
def test_just_right_gives_an_even_chance(rating):
    share = ratings.just_right_share(KEY, rating)
    bot = ratings.mix_rating(KEY, share)
    assert ratings.expected_scores([rating, bot])[0] == pytest.approx(0.5, abs=0.01)
    assert ratings.just_right_level(KEY, rating) == mix_level(share)


def test_just_right_stays_within_the_bots():
    weakest = ratings.figures_for(KEY).low - 100  # weaker than the starter: the starter
    assert ratings.just_right_share(KEY, weakest) == -1.0
    assert ratings.just_right_level(KEY, weakest) == "mix:-1.00"
    assert ratings.just_right_share(KEY, 1900.0) == 1.0
    # A game without a starter stops at its beginner, as every game did before the starter.
    assert ratings.just_right_share("toy", 100.0) == 0.0
    # Two bots: each 400 log10(2) = 120 points below the student.
    share = ratings.just_right_share("smooth_operator", 1220.0, bots=2)
    assert ratings.mix_rating("smooth_operator", share) == pytest.approx(1220 - 400 * math.log10(2), abs=2)


def test_friendly_levels_never_show_a_number():
    names = [ratings.friendly_level(KEY, r) for r in (800, 1000, 1080, 1175, 1260, 1349, 2000)]
    assert names[0] == names[1] == "Getting warmed up" and names[-1] == names[-2] == "Card shark"
    assert names[3] == "On a roll"
    assert not any(ch.isdigit() for name in ratings.FRIENDLY_LEVELS for ch in name)


# ----- the mixed bot -------------------------------------------------------------------------

def test_mix_levels_parse_and_fit_a_seat():
    assert mix_level(0.354) == "mix:0.35" and mix_level(2) == "mix:1.00" and mix_level(-3) == "mix:-1.00"
    assert mix_level(-0.404) == "mix:-0.40" and mix_level(-0.001) == "mix:0.00"
    assert mix_level(-0.5, lowest=0.0) == "mix:0.00"
    assert mix_share("mix:0.35") == 0.35 and mix_share("expert") is None
    assert mix_share("mix:-0.40") == -0.4 and mix_share("mix:-1.00") == -1.0
    assert mix_share("mix:1.5") is None and mix_share("mix:-1.5") is None and mix_share("mix:x") is None
    assert len(mix_level(-0.55)) <= Seat._meta.get_field("bot_level").max_length
    with pytest.raises(KeyError):
        make_bot(KEY, "mix:oops")
    # Below the beginner only for a game with a starter (a game's bots without one: no).
    assert registry.spec_for(KEY).knows_bot_level("mix:-0.40")
    no_starter = {level: cls for level, cls in registry.spec_for(KEY).bots.items() if level != "starter"}
    assert not is_level(no_starter, "mix:-0.40") and is_level(no_starter, "mix:0.40")
    with pytest.raises(KeyError):
        make_level_bot(no_starter, engine_get(KEY), "mix:-0.40")
    with pytest.raises(KeyError):
        registry.spec_for(KEY).make_bot("grandmaster")


def test_the_mixed_bot_plays_whole_legal_games_and_is_reproducible():
    engine = engine_get(KEY)
    spec = registry.spec_for(KEY)
    for p in ("mix:-1.00", "mix:-0.50", "mix:0.00", "mix:0.50", "mix:1.00"):
        state = engine.new_game(["A", "B"], {}, 5)
        steps = 0
        while not state["finished"]:
            player = engine.waiting_for(state)[0]
            view = engine.view(state, player)
            action = spec.make_bot(p, seed=steps).choose(view)
            assert make_bot(KEY, p, seed=steps).choose(view) == action  # the engine's make_bot too
            state, _ = engine.apply(state, player, action)  # raises if illegal
            steps += 1
        assert steps < 2000


def test_the_mixed_bot_mixes_its_two_levels():
    engine = engine_get(KEY)
    picks = {"strong": 0, "weak": 0}

    class Strong:
        def __init__(self, engine, seed):
            pass

        def choose(self, view):
            picks["strong"] += 1
            return {}

    class Weak(Strong):
        def choose(self, view):
            picks["weak"] += 1
            return {}

    for seed in range(2000):
        MixedBot(engine, seed, strong=Strong, weak=Weak, p=0.3).choose({})
    assert picks["strong"] + picks["weak"] == 2000
    assert 0.26 < picks["strong"] / 2000 < 0.34


# ----- the service ---------------------------------------------------------------------------

def finished_game(classroom, seats: list[SeatSpec], *, winners: set[str], key: str = KEY,
                  when=None) -> Game:
    """A game dealt through the service, then marked finished as `_record_results` would."""
    game = game_create(key=key, classroom=classroom, seats=seats, seed=11)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED,
                                           finished_at=when or timezone.now())
    for seat in game.seats.all():
        seat.is_winner = seat.name in winners
        seat.save(update_fields=["is_winner"])
    return game


@pytest.mark.django_db
def test_a_win_against_a_bot_moves_a_new_rating_by_known_values(classroom, student):
    game = finished_game(classroom, [SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="beginner")],
                         winners={"Ann"})
    [change] = ratings_update_for_game(game_id=game.pk)
    start = ratings.default_rating(KEY)  # 1174.5
    expected = 1 / (1 + 10 ** ((1000 - start) / 400))
    assert change.before == start and change.expected == pytest.approx(expected)
    assert change.after == pytest.approx(start + 250 * (1 - expected))
    assert round(change.expected, 4) == 0.7319 and round(change.after, 1) == 1241.5
    assert (change.score, change.k, change.key) == (1.0, 250.0, KEY)
    assert change.opponents == [{"name": "Robo", "level": "beginner", "rating": 1000.0}]
    row = PlayerRating.objects.get(user=student, key=KEY)
    assert (row.rating, row.games) == (change.after, 1)


@pytest.mark.django_db
def test_the_update_is_idempotent(classroom, student):
    game = finished_game(classroom, [SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="expert")],
                         winners={"Robo"})
    first = ratings_update_for_game(game_id=game.pk)
    row = PlayerRating.objects.get(user=student, key=KEY)
    assert len(first) == 1 and row.games == 1
    assert ratings_update_for_game(game_id=game.pk) == []
    assert ratings_update_for_game(game_id=game.pk) == []
    again = PlayerRating.objects.get(user=student, key=KEY)
    assert (again.rating, again.games) == (row.rating, 1)
    assert RatingChange.objects.filter(game=game).count() == 1


@pytest.mark.django_db
def test_classmates_rate_each_other_and_a_half_counted_game_is_finished_alike(classroom, student,
                                                                             make_student):
    ben = make_student(classroom, "Ben")
    PlayerRating.objects.create(user=ben, key=KEY, rating=1300.0, games=30)
    game = finished_game(classroom, [SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)],
                         winners={"Ann"})
    changes = {c.user_id: c for c in ratings_update_for_game(game_id=game.pk)}
    e_ann = 1 / (1 + 10 ** ((1300 - 1174.5) / 400))
    assert changes[student.pk].after == pytest.approx(1174.5 + 250 * (1 - e_ann))
    assert changes[ben.pk].after == pytest.approx(1300 - 100 * (1 - e_ann))  # Ben's K: 100
    assert changes[ben.pk].opponents == [{"name": "Ann", "level": "", "rating": 1174.5}]
    # Had a first run counted only Ann (stopped half-way), a second counts Ben from the same
    # ratings as before the game, not from Ann's new one.
    RatingChange.objects.filter(game=game, user=ben).delete()
    PlayerRating.objects.filter(user=ben).update(rating=1300.0, games=30)
    [redo] = ratings_update_for_game(game_id=game.pk)
    assert redo.user_id == ben.pk and redo.after == pytest.approx(changes[ben.pk].after)


@pytest.mark.django_db
def test_games_that_are_not_rated(classroom, student):
    # Unfinished, stopped, or played alone: no rating moves.
    active = game_create(key=KEY, classroom=classroom, seed=3,
                         seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="beginner")])
    assert ratings_update_for_game(game_id=active.pk) == []
    Game.objects.filter(pk=active.pk).update(status=Game.Status.ABANDONED)
    assert ratings_update_for_game(game_id=active.pk) == []
    solo = finished_game(classroom, [SeatSpec("Ann", user=student)], winners={"Ann"}, key="numero_solitaire")
    assert ratings_update_for_game(game_id=solo.pk) == []
    assert not PlayerRating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
def test_a_game_finished_through_the_move_service_is_rated_after_commit(
        classroom, student, django_capture_on_commit_callbacks):
    """The finishing move rates the game once it commits (and only then), before the apps
    above hear `game_finished`."""
    game = game_create(key=KEY, classroom=classroom, seed=21,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="mix:0.40")])
    engine = registry.spec_for(KEY).engine
    seats = {s.name: s for s in game.seats.all()}
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        for _ in range(2000):
            if game.status != Game.Status.ACTIVE:
                break
            seat = seats[engine.waiting_for(game.state)[0]]
            action = (bot_action(game, seat) if seat.bot_level else
                      make_bot(KEY, "expert", seed=game.version).choose(engine.view(game.state, "Ann")))
            game = game_apply_move(game_id=game.pk, seat=seat, action=action,
                                   expected_version=game.version, schedule_bots=False).game
    assert game.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists()  # nothing before the finish commits
    rated_when_told = []

    def report(sender, *, game_id, **kwargs):  # what the skill report's receiver sees
        rated_when_told.append(RatingChange.objects.filter(game_id=game_id).exists())

    signals.game_finished.connect(report, dispatch_uid="test-report")
    try:
        for callback in callbacks:  # what the commit runs
            callback()
    finally:
        signals.game_finished.disconnect(dispatch_uid="test-report")
    assert rated_when_told == [True]
    change = RatingChange.objects.get(game=game, user=student)
    row = PlayerRating.objects.get(user=student, key=KEY)
    assert row.rating == change.after and row.games == 1
    assert change.opponents[0]["level"] == "mix:0.40"
    assert change.opponents[0]["rating"] == pytest.approx(ratings.mix_rating(KEY, 0.40), abs=0.1)
    for callback in callbacks:  # run twice: counted once
        callback()
    assert PlayerRating.objects.get(user=student, key=KEY).games == 1


# ----- selectors and the partial ---------------------------------------------------------------

def rated_games(classroom, student, results: list[bool]) -> None:
    start = timezone.now() - timedelta(days=len(results))
    for n, won in enumerate(results):
        game = finished_game(classroom, [SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="player")],
                             winners={"Ann"} if won else {"Robo"}, when=start + timedelta(days=n))
        ratings_update_for_game(game_id=game.pk)


@pytest.mark.django_db
def test_a_students_rating_and_its_trend(classroom, student):
    fresh = student_rating(student=student, key=KEY)
    assert (fresh.rating, fresh.games, fresh.points, fresh.direction) == (1174, 0, [], "steady")
    assert fresh.level_name == "Getting warmed up" and fresh.trend_words == "no rated games yet"
    rated_games(classroom, student, [False, True, True, True, True, True])
    summary = student_rating(student=student, key=KEY)
    changes = list(RatingChange.objects.filter(user=student).order_by("played_at"))
    assert summary.games == 6 and summary.rating == round(changes[-1].after)
    assert [p.after for p in summary.points] == [c.after for c in changes]
    assert summary.change == round(changes[-1].after - changes[1].before)  # the last five
    assert summary.direction == "up" and summary.trend_words.startswith("up ")
    assert summary.trend_words.endswith("over the last 5 games")
    assert summary.sparkline.count(",") == 7  # the start and after each of six games
    assert [s.key for s in student_ratings(student=student)] == [KEY]


@pytest.mark.django_db
def test_a_class_ratings_in_two_queries(classroom, student, make_student):
    others = [make_student(classroom, f"Kid {n}") for n in range(4)]
    for kid in [student, *others]:
        rated_games(classroom, kid, [True, False, True])
    with CaptureQueriesContext(connection) as queries:
        by_student = students_ratings(students=[student, *others])
    assert len(queries) == 2
    assert set(by_student) == {s.pk for s in [student, *others]}
    assert all(len(r) == 1 and r[0].games == 3 and len(r[0].points) == 3 for r in by_student.values())


@pytest.mark.django_db
def test_the_partial_shows_teachers_the_number_and_children_a_name(classroom, student):
    rated_games(classroom, student, [True, True, False, True])
    summary = student_rating(student=student, key=KEY)
    teacher_html = render_to_string("games/_rating.html", {"rating": summary, "for_teacher": True})
    assert str(summary.rating) in teacher_html and summary.trend_words in teacher_html
    assert "<svg" in teacher_html and "The Multiplication Game" in teacher_html
    child_html = render_to_string("games/_rating.html", {"rating": summary, "for_teacher": False})
    assert summary.level_name in child_html and str(summary.rating) not in child_html
    assert not any(ch.isdigit() for ch in child_html.replace("_rating", ""))


@pytest.mark.django_db
def test_games_finished_before_ratings_are_rated_in_order_once(classroom, student):
    now = timezone.now()
    late = finished_game(classroom, [SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="expert")],
                         winners={"Robo"}, when=now)
    early = finished_game(classroom, [SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="beginner")],
                          winners={"Ann"}, when=now - timedelta(days=1))
    assert ratings_update_all() == 2
    assert ratings_update_all() == 0
    first, second = RatingChange.objects.order_by("id")
    assert (first.game_id, second.game_id) == (early.pk, late.pk)
    assert second.before == first.after


@pytest.mark.django_db
def test_the_command_rates_old_games_once(classroom, student):
    finished_game(classroom, [SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="beginner")],
                  winners={"Ann"}, when=timezone.now())
    out = StringIO()
    call_command("rate_old_games", stdout=out)
    assert out.getvalue().strip() == "1 rating change made."  # the student's (bots are not rated)
    call_command("rate_old_games", stdout=out)
    assert out.getvalue().strip().endswith("0 rating changes made.")
    assert PlayerRating.objects.get(user=student, key=KEY).games == 1
