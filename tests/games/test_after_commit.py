"""A change's after-commit path (games/services/after_commit.py): the table's pages are told and
its computer players woken once the change commits, and a step that fails is logged without
keeping the others from running (the change is committed by then)."""

import logging
from contextlib import contextmanager

import pytest
from celery import current_app

from games import realtime, signals
from games.models import Game, Move
from games.services import SeatSpec, after_commit, game_create
from games.tasks import wake_bots

pytestmark = pytest.mark.django_db


def bot_opens(classroom, student) -> Game:
    """A game whose first turn is a computer player's (it plays at once in tests)."""
    return game_create(key="multiplication", classroom=classroom, seed=3,
                       seats=[SeatSpec("Bot", bot_level="player"), SeatSpec("Ann", user=student)])


def bots_play_to_the_end(classroom) -> Game:
    """A game of two computer players, which they play to its end at once."""
    return game_create(key="multiplication", classroom=classroom, seed=11,
                       seats=[SeatSpec("B1", bot_level="beginner"), SeatSpec("B2", bot_level="expert")])


@contextmanager
def game_finished_heard_by(receiver):
    """`receiver` listens to games.signals.game_finished inside the block."""
    signals.game_finished.connect(receiver, dispatch_uid="test-game-finished")
    try:
        yield
    finally:
        signals.game_finished.disconnect(dispatch_uid="test-game-finished")


def test_the_bot_still_plays_when_the_views_cannot_be_rendered(
        classroom, student, monkeypatch, caplog, django_capture_on_commit_callbacks):
    told = []
    monkeypatch.setattr(after_commit, "table_push", lambda **kwargs: 1 / 0)
    monkeypatch.setattr(realtime, "broadcast_game_changed",
                        lambda *, game_id, message=None: told.append(message))
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        game = bot_opens(classroom, student)
    assert "the views could not be rendered for the push" in caplog.text
    assert told and told[0] is None  # the pages were still told: each renders its own view
    assert Move.objects.filter(game=game, seat__name="Bot", accepted=True).exists()


def test_the_bot_still_plays_when_the_table_cannot_be_told(
        classroom, student, monkeypatch, caplog, django_capture_on_commit_callbacks):
    def broken(**kwargs):
        raise RuntimeError("not a channel-layer outage: a bug")

    monkeypatch.setattr(realtime, "broadcast_game_changed", broken)
    with caplog.at_level(logging.ERROR), django_capture_on_commit_callbacks(execute=True):
        game = bot_opens(classroom, student)
    assert "the table's pages could not be told" in caplog.text
    assert Move.objects.filter(game=game, seat__name="Bot", accepted=True).exists()


def test_the_skill_report_still_comes_when_the_ratings_fail(
        classroom, student, monkeypatch, caplog, django_capture_on_commit_callbacks):
    finished = []

    def ratings_fail(*, game_id):
        raise RuntimeError("a bug in the ratings")

    def report(sender, *, game_id, **kwargs):
        finished.append(game_id)

    monkeypatch.setattr(after_commit, "ratings_update_for_game", ratings_fail)
    with game_finished_heard_by(report), caplog.at_level(logging.ERROR), \
            django_capture_on_commit_callbacks(execute=True):
        game = bots_play_to_the_end(classroom)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert "a bug in the ratings" in caplog.text
    assert finished == [game.pk]


def test_nothing_is_told_before_the_change_commits(classroom, student, monkeypatch,
                                                   django_capture_on_commit_callbacks):
    told = []
    monkeypatch.setattr(realtime, "broadcast_game_changed",
                        lambda *, game_id, message=None: told.append(game_id))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = bot_opens(classroom, student)
    assert told == [] and not Move.objects.filter(game=game).exists()
    for callback in callbacks:  # the commit
        callback()
    assert told[0] == game.pk and Move.objects.filter(game=game, seat__name="Bot").exists()


def test_the_bots_task_queued_by_name_is_registered_in_every_process():
    # Queued by name (the bots play through the move service, which imports after_commit);
    # GamesConfig.ready() registers it, so an eager Celery runs it in-process.
    assert current_app.tasks[after_commit.WAKE_BOTS_TASK].name == wake_bots.name


@pytest.fixture
def celery_with_a_broker_and_no_worker(settings):
    """Celery as in production: tasks go to a broker (kombu's in-memory one here), and no
    worker is running to take them."""
    before = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    yield
    current_app.conf.task_always_eager = before


def test_whose_turn_it_is_is_decided_where_the_change_committed_not_in_a_worker(
        classroom, student, celery_with_a_broker_and_no_worker, django_capture_on_commit_callbacks):
    # With no pause wanted (tests), the computer player answers in the committing thread, as it
    # did when a signal's receiver woke it: a worker that is slow to start (or down) must not
    # keep a child waiting for the bot's first move.
    with django_capture_on_commit_callbacks(execute=True):
        game = bot_opens(classroom, student)
    assert Move.objects.filter(game=game, seat__name="Bot", accepted=True).exists()


def test_a_games_last_move_reaches_its_players_before_the_finish_work(
        classroom, student, monkeypatch, django_capture_on_commit_callbacks):
    """The last move's table is pushed first: the players see the end at once, not after the
    ratings, the skill report and (in an arena) the count that a finish sets off."""
    order = []
    monkeypatch.setattr(realtime, "broadcast_game_changed",
                        lambda *, game_id, message=None: order.append(
                            ("pushed", message and message.get("version"))))
    monkeypatch.setattr(after_commit, "ratings_update_for_game",
                        lambda *, game_id: order.append(("rated", None)))

    def finished(sender, *, game_id, **kwargs):
        order.append(("finished", None))

    with game_finished_heard_by(finished), django_capture_on_commit_callbacks(execute=True):
        game = bots_play_to_the_end(classroom)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    rated = order.index(("rated", None))
    assert order[rated - 1] == ("pushed", game.version)  # the final table, just before
    assert order[rated + 1:] == [("finished", None)]


def test_a_game_made_and_played_where_nobody_watches_tells_no_page_but_is_still_finished_and_reported(
        classroom, student, monkeypatch, django_capture_on_commit_callbacks):
    """A simulated class's game (devtools/simulation.py) is made and played to its end in one
    transaction: no page can have it open, so no table push is rendered or sent, while its
    computer players still play, and the finish still reaches the report and the dashboards."""
    told, finished, dashboards = [], [], []
    monkeypatch.setattr(realtime, "broadcast_game_changed", lambda *, game_id, message=None: told.append(game_id))
    monkeypatch.setattr(after_commit, "table_push", lambda **kwargs: told.append("rendered"))
    signals.class_games_changed.connect(lambda sender, classroom_id, **kwargs: dashboards.append(classroom_id),
                                        dispatch_uid="test-class-games-changed", weak=False)
    try:
        with game_finished_heard_by(lambda sender, game_id, **kwargs: finished.append(game_id)):
            with after_commit.tables_nobody_watches(), django_capture_on_commit_callbacks(execute=True):
                game = bots_play_to_the_end(classroom)
    finally:
        signals.class_games_changed.disconnect(dispatch_uid="test-class-games-changed")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert told == [] and finished == [game.pk] and classroom.pk in dashboards
    # Outside the block, the same kind of game is announced to its table's pages again.
    with django_capture_on_commit_callbacks(execute=True):
        bots_play_to_the_end(classroom)
    assert "rendered" in told
