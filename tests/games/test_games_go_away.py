"""Games that go away (docs/play.md): a student stops a game (or leaves one classmates play on, a
computer player taking the seat), a teacher stops a table, games left alone are put away by a
beat task, "Playing now" lists students moving or who just pressed Play, the student's page shows one
"Carry on" per game, and a deal that is over before anyone moved is dealt again."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from classroom.models import Assignment
from games import realtime, registry, signals
from games.models import Game, Move, Seat
from games.rendering import render_table
from games.selectors.play import game_state_at
from games.services import SeatSpec, after_commit, game_apply_move, game_create
from games.services.tables import TableError, game_leave, games_close_idle, table_open
from games.tasks import close_idle_games
from reports.selectors import playing_now
from tests.games.helpers import signed_in

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


@pytest.fixture
def heard(monkeypatch):
    """What a change tells once it commits, in order: ("table", game id, the push's views by
    seat name) for each message the table's pages get, ("bots", game id) for each wake of its
    computer players, and ("class_games_changed", kwargs) for the class's dashboards."""
    got = []
    broadcast, wake = realtime.broadcast_game_changed, after_commit.wake_bots

    def tell_table(*, game_id, message=None):
        seats = dict(Seat.objects.filter(game_id=game_id).values_list("pk", "name"))
        views = {seats[int(pk)]: view for pk, view in (message or {}).get("views", {}).items()}
        got.append(("table", game_id, views))
        return broadcast(game_id=game_id, message=message)

    def wake_bots(*, game_id):
        got.append(("bots", game_id))
        return wake(game_id=game_id)

    def dashboards(sender, **kwargs):
        got.append(("class_games_changed", {k: v for k, v in kwargs.items() if k != "signal"}))

    monkeypatch.setattr(realtime, "broadcast_game_changed", tell_table)
    monkeypatch.setattr(after_commit, "wake_bots", wake_bots)
    signals.class_games_changed.connect(dashboards, dispatch_uid="test-class_games_changed")
    yield got
    signals.class_games_changed.disconnect(dispatch_uid="test-class_games_changed")


def told_table(heard, game_id: int) -> list[dict]:
    """The views each push to the table carried (by seat name), in order."""
    return [views for kind, gid, *rest in heard if kind == "table" and gid == game_id
            for views in rest]


def solo_game(classroom, student, key="smooth_operator") -> Game:
    return game_create(key=key, classroom=classroom, created_by=student,
                       seats=[SeatSpec(student.display_name, user=student),
                              SeatSpec("Robo", bot_level="beginner"), SeatSpec("Zip", bot_level="beginner")]
                       if key == "smooth_operator" else
                       [SeatSpec(student.display_name, user=student), SeatSpec("Robo", bot_level="beginner")])


def first_seat_to_wait(game: Game) -> Seat:
    name = registry.spec_for(game.key).engine.waiting_for(game.state)[0]
    return game.seats.get(name=name)


# ----- A1: Stop ----------------------------------------------------------------------------
def test_the_table_asks_before_stopping_and_a_get_stops_nothing(classroom, student):
    game = solo_game(classroom, student)
    client = signed_in(student)
    page = text(client.get(reverse("games:game", args=[game.pk])))
    assert "Stop this game?</strong> It will not count as finished." in page
    assert f'action="{reverse("games:stop", args=[game.pk])}"' in page
    assert client.get(reverse("games:stop", args=[game.pk])).status_code == 405
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_student_stops_a_game_against_computer_players(classroom, student, heard,
                                                         django_capture_on_commit_callbacks):
    game = solo_game(classroom, student)
    client = signed_in(student)
    assert reverse("games:game", args=[game.pk]) in text(client.get(reverse("classroom:student_home")))
    heard.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("games:stop", args=[game.pk]))
    assert response.url == reverse("classroom:student_home")
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED and game.finished_at is not None
    # The table's pages and the class's dashboards are told, once it committed: her open table
    # gets its own view of the stopped game; the computer players are not woken.
    [views] = told_table(heard, game.pk)
    assert list(views) == ["Ann"]
    assert "This game was stopped, so no more moves can be made." in "".join(views["Ann"].values())
    # The Stop question goes from her open page with it.
    assert 'id="table-leave"' in views["Ann"]["leave"] and "Stop game" not in views["Ann"]["leave"]
    assert ("bots", game.pk) not in heard
    assert ("class_games_changed", {"classroom_id": classroom.pk}) in heard
    home = text(client.get(response.url))
    assert "You stopped Smooth Operator. It did not count as finished." in home
    assert reverse("games:game", args=[game.pk]) not in home  # gone from her page
    # A stopped game takes no more moves, and its table sends her home with a word of why.
    seat = first_seat_to_wait(game)
    result = game_apply_move(game_id=game.pk, seat=seat, action={"type": "end_turn"},
                             expected_version=game.version)
    assert result.status == "rejected" and result.message == "This game was stopped."
    again = client.get(reverse("games:game", args=[game.pk]))
    assert again.url == reverse("classroom:student_home")
    assert "was stopped, so it is put away" in text(client.get(again.url))


def test_the_stop_question_goes_away_when_the_game_ends_and_solitaire_says_why(
        classroom, student, heard, django_capture_on_commit_callbacks):
    """Every push while the game is in play carries "Stop game"; the push of the move that
    ends it does not, and Numero Solitaire's end says why it ended with cards left to draw."""
    game = game_create(key="numero_solitaire", classroom=classroom, seed=4, seats=[SeatSpec("Ann", user=student)])
    engine, seat = registry.spec_for(game.key).engine, game.seats.get()
    for _ in range(300):
        if game.state["finished"]:
            break
        action = registry.spec_for(game.key).make_bot("beginner", seed=game.version).choose(
            engine.view(game.state, "Ann"))
        with django_capture_on_commit_callbacks(execute=True):
            game = game_apply_move(game_id=game.pk, seat=seat, action=action, expected_version=game.version,
                                   schedule_bots=False).game
    assert game.state["finished"]
    pushes = [views["Ann"] for views in told_table(heard, game.pk)]
    assert len(pushes) == game.version
    assert all("Stop game" in push["leave"] for push in pushes[:-1])
    assert 'id="table-leave"' in pushes[-1]["leave"] and "Stop game" not in pushes[-1]["leave"]
    left = len(game.state["deck"])
    assert left > 0  # this deal ends with cards still to draw, which the board explains
    board = pushes[-1]["board"]
    assert "The game ended because no take is possible: no centre card, and no sum of centre cards, " \
           "makes a number in your hand, even with the wild cards." in board
    assert f"In Solitaire that ends the game, even with {left} cards still in the deck." in board
    assert (f"No take is possible any more, even with the wild cards, so the game is over with {left} "
            "cards still in the deck.") in pushes[-1]["log"]
    page = text(signed_in(student).get(reverse("games:game", args=[game.pk])))
    assert "Stop game" not in page and f"even with {left} cards still in the deck" in page


def test_stopping_twice_or_someone_elses_game_changes_nothing(classroom, student, ben):
    game = solo_game(classroom, student)
    assert signed_in(ben).post(reverse("games:stop", args=[game.pk])).status_code == 404
    client = signed_in(student)
    client.post(reverse("games:stop", args=[game.pk]))
    response = client.post(reverse("games:stop", args=[game.pk]), follow=True)
    assert "This game was stopped already." in text(response)
    with pytest.raises(TableError):
        game_leave(student=student, game_id=game.pk)


def test_stop_finds_no_missing_game_and_no_game_of_another_class(classroom, student, make_teacher,
                                                                 make_classroom, make_student):
    other_teacher = make_teacher()
    other = make_classroom(other_teacher, name="Other class", join_code="XYZ789")
    zed = make_student(other, "Zed", ("cat", "sun", "tree"))
    theirs = solo_game(other, zed)
    mine = solo_game(classroom, student)
    missing = theirs.pk + 1000
    for user, game_id in ((student, theirs.pk), (student, missing), (other_teacher, mine.pk),
                          (other_teacher, missing)):
        assert signed_in(user).post(reverse("games:stop", args=[game_id])).status_code == 404
    assert set(Game.objects.values_list("status", flat=True)) == {Game.Status.ACTIVE}
    assert Client().post(reverse("games:stop", args=[mine.pk])).status_code == 404


def test_leaving_a_game_classmates_play_on_gives_the_seat_to_a_computer_player(
        classroom, student, ben, heard, django_capture_on_commit_callbacks):
    assignment = Assignment.objects.create(classroom=classroom, title="Duel", game="multiplication",
                                           opponents="classmates", bot_level="expert")
    game = game_create(key="multiplication", classroom=classroom, assignment=assignment, seed=5,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    page = text(signed_in(student).get(reverse("games:game", args=[game.pk])))
    assert "Leave this game?</strong> It will not count as finished for you." in page
    assert "so Ben can finish" in page
    heard.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = signed_in(student).post(reverse("games:stop", args=[game.pk]), follow=True)
    assert "A computer player took your place, so Ben can finish the game." in text(response)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # not ended for Ben
    seat = game.seats.get(name="Ann")
    assert seat.user_id is None and seat.bot_level == "expert"  # the table's (assignment's) level
    # The table's pages are told (with a view for Ben, the one classmate left at it), then its
    # computer players are woken: the new one may be the one waited for.
    views = told_table(heard, game.pk)[0]
    assert list(views) == ["Ben"]
    assert ("bots", game.pk) in heard
    assert heard.index(("bots", game.pk)) > next(i for i, h in enumerate(heard) if h[0] == "table")
    assert ("class_games_changed", {"classroom_id": classroom.pk}) in heard
    # The computer player plays Ann's turns (bots play at once in tests); Ben plays on.
    assert game.version >= 1 and registry.spec_for(game.key).engine.waiting_for(game.state) == ["Ben"]
    assert signed_in(student).get(reverse("games:game", args=[game.pk])).status_code == 404
    assert reverse("games:game", args=[game.pk]) in text(signed_in(ben).get(reverse("classroom:student_home")))
    # The last classmate to leave stops it.
    signed_in(ben).post(reverse("games:stop", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED


def test_a_teacher_stops_a_table_for_everyone(classroom, student, ben, teacher):
    game = game_create(key="multiplication", classroom=classroom, seed=5,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    client = signed_in(teacher)
    tables_url = reverse("classroom:teacher_tables", args=[classroom.pk])
    page = text(client.get(tables_url))
    assert "Stop this game for everyone at the table? It will not count as finished." in page
    response = client.post(reverse("games:stop", args=[game.pk]), follow=True)
    assert response.redirect_chain[-1][0] == tables_url
    assert "The Multiplication Game with Ann and Ben was stopped." in text(response)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert reverse("games:game", args=[game.pk]) not in text(client.get(tables_url))
    # Each student's table now sends them home, saying so.
    assert "was stopped, so it is put away" in text(signed_in(ben).get(
        reverse("games:game", args=[game.pk]), follow=True))
    # A table still open in a browser gets the push that follows the stop: it says so at once
    # and offers no move (the render every socket sends).
    seat = game.seats.get(name="Ann")
    pushed = render_table(game_id=game.pk, seat=seat, coach=False).html
    assert "This game was stopped, so no more moves can be made." in pushed
    assert "ws-send" not in pushed


# ----- A2: games left alone are put away --------------------------------------------------
def test_games_left_alone_for_an_hour_are_put_away_once(classroom, student, ben, heard,
                                                         django_capture_on_commit_callbacks):
    now = timezone.now()
    idle = solo_game(classroom, student)
    fresh = solo_game(classroom, student, key="multiplication")
    old_lobby = table_open(student=ben, key="multiplication")
    open_lobby = table_open(student=ben, key="smooth_operator")
    done = solo_game(classroom, ben, key="multiplication")
    minutes = settings.GAME_IDLE_CLOSE_MINUTES
    Game.objects.filter(pk=idle.pk).update(turn_started_at=now - timedelta(minutes=minutes + 1))
    Game.objects.filter(pk=fresh.pk).update(turn_started_at=now - timedelta(minutes=minutes - 5))
    Game.objects.filter(pk=old_lobby.pk).update(updated_at=now - timedelta(minutes=2 * minutes))
    Game.objects.filter(pk=done.pk).update(status=Game.Status.FINISHED,
                                           turn_started_at=now - timedelta(days=2))
    heard.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert close_idle_games() == 2  # the beat task
    status = dict(Game.objects.values_list("pk", "status"))
    assert status[idle.pk] == status[old_lobby.pk] == Game.Status.ABANDONED
    assert status[fresh.pk] == Game.Status.ACTIVE and status[open_lobby.pk] == Game.Status.LOBBY
    assert status[done.pk] == Game.Status.FINISHED
    assert heard.count(("class_games_changed", {"classroom_id": classroom.pk})) == 2
    # Safe to run again (or twice at once): nothing more is stopped, nobody is told twice.
    assert games_close_idle() == 0
    # A move brings a game back from the edge: its last move is now.
    edge = solo_game(classroom, ben, key="multiplication")
    Game.objects.filter(pk=edge.pk).update(turn_started_at=now - timedelta(minutes=minutes + 1))
    edge.refresh_from_db()
    seat = first_seat_to_wait(edge)
    action = registry.spec_for(edge.key).make_bot("beginner", 1).choose(
        registry.spec_for(edge.key).engine.view(edge.state, seat.name))
    assert game_apply_move(game_id=edge.pk, seat=seat, action=action,
                           expected_version=edge.version, schedule_bots=False).applied
    assert games_close_idle() == 0


def test_the_beat_schedule_runs_the_sweep():
    entry = settings.CELERY_BEAT_SCHEDULE["idle-games"]
    assert entry["task"] == "games.tasks.close_idle_games" == close_idle_games.name
    assert entry["schedule"] <= settings.GAME_IDLE_CLOSE_MINUTES * 60


def test_the_student_page_says_games_left_alone_are_put_away(classroom, student):
    solo_game(classroom, student)
    assert "Games you leave for an hour are put away." in text(
        signed_in(student).get(reverse("classroom:student_home")))


# ----- A3: Playing now --------------------------------------------------------------------
def moved(game: Game, student, at) -> None:
    """A move of `student`'s seat in `game`, recorded at `at` (a tried move counts too)."""
    seat = game.seats.get(user=student)
    move = Move.objects.create(game=game, seat=seat, sequence=game.moves.count(), version_before=game.version,
                               action={"type": "nonsense"}, accepted=False, error_code="unknown_action")
    Move.objects.filter(pk=move.pk).update(created_at=at)


def test_playing_now_lists_students_who_move_or_just_pressed_play_not_games_left_untouched(
        classroom, student, ben, make_student):
    cat = make_student(classroom, "Cat", ("moon", "star", "apple"))
    dan = make_student(classroom, "Dan", ("sun", "tree", "fish"))
    now = timezone.now()
    just_dealt = solo_game(classroom, student)  # Ann is reading her cards: she is playing
    # Dealt 5 minutes ago; the computer players have moved since (the game's clock is recent),
    # Ben never has: a game he walked away from.
    untouched = solo_game(classroom, ben)
    Game.objects.filter(pk=untouched.pk).update(started_at=now - timedelta(minutes=5),
                                                turn_started_at=now - timedelta(minutes=1), updated_at=now)
    moving = solo_game(classroom, cat)  # dealt long ago, Cat's last move 5 minutes ago
    Game.objects.filter(pk=moving.pk).update(started_at=now - timedelta(minutes=30),
                                             turn_started_at=now - timedelta(minutes=5))
    moved(moving, cat, now - timedelta(minutes=5))
    left = solo_game(classroom, dan)  # Dan's last move 40 minutes ago; the row touched since
    Game.objects.filter(pk=left.pk).update(started_at=now - timedelta(minutes=50),
                                           turn_started_at=now - timedelta(minutes=1), updated_at=now)
    moved(left, dan, now - timedelta(minutes=40))

    assert {s.game_id for s in playing_now(classroom=classroom)} == {just_dealt.pk, moving.pk}
    with override_settings(PLAYING_NOW_MINUTES=3):
        assert {s.game_id for s in playing_now(classroom=classroom)} == {just_dealt.pk}
    # Ann has not moved for 3 minutes after pressing Play: she has walked away too.
    Game.objects.filter(pk=just_dealt.pk).update(started_at=now - timedelta(minutes=3))
    assert {s.game_id for s in playing_now(classroom=classroom)} == {moving.pk}
    # One move of hers and she is playing again.
    moved(just_dealt, student, now)
    assert {s.game_id for s in playing_now(classroom=classroom)} == {just_dealt.pk, moving.pk}


# ----- A4: one Carry on per game ----------------------------------------------------------
def test_the_home_page_shows_one_carry_on_per_game_and_folds_the_others(classroom, student):
    now = timezone.now()
    games = [solo_game(classroom, student) for _ in range(4)]
    games += [solo_game(classroom, student, key="multiplication") for _ in range(2)]
    for i, game in enumerate(games):  # the later, the more recently played
        Game.objects.filter(pk=game.pk).update(turn_started_at=now - timedelta(minutes=30 - i))
    page = text(signed_in(student).get(reverse("classroom:student_home")))
    carry_on = page[page.index("Carry on playing"):page.index("My assignments")]
    shown, folded = carry_on.split("more-games")
    assert shown.count(">Carry on</a>") == 2
    assert reverse("games:game", args=[games[3].pk]) in shown  # the latest Smooth Operator
    assert reverse("games:game", args=[games[5].pk]) in shown  # the latest Multiplication Game
    assert "4 more unfinished games" in folded
    assert all(reverse("games:game", args=[g.pk]) in folded for g in games[:3] + [games[4]])


# ----- a deal over before anyone moved ----------------------------------------------------
def test_a_deal_over_before_anyone_moved_is_dealt_again(classroom, student):
    engine = registry.spec_for("numero_solitaire").engine
    seed = next(s for s in range(1000) if engine.new_game(["Ann"], {}, s)["finished"])
    game = game_create(key="numero_solitaire", classroom=classroom, seed=seed,
                       seats=[SeatSpec("Ann", user=student)])
    assert not game.state["finished"] and engine.waiting_for(game.state) == ["Ann"]
    assert game.seed != seed and game.state == engine.new_game(["Ann"], {}, game.seed)
    assert game_state_at(game=game, turn=0) == game.state  # the replay deals the same


def test_at_most_three_games_are_shown_above_the_assignments(classroom, student):
    now = timezone.now()
    keys = ["smooth_operator", "multiplication", "numero", "add_or_multiply"]
    games = []
    for i, key in enumerate(keys):
        seats = [SeatSpec("Ann", user=student)] + [SeatSpec(n, bot_level="beginner") for n in
                                                    ("Robo", "Zip")[:registry.spec_for(key).free_play_bots]]
        games.append(game_create(key=key, classroom=classroom, seats=seats))
        Game.objects.filter(pk=games[-1].pk).update(turn_started_at=now - timedelta(minutes=10 - i))
    page = text(signed_in(student).get(reverse("classroom:student_home")))
    shown, folded = page[page.index("Carry on playing"):page.index("My assignments")].split("more-games")
    assert shown.count(">Carry on</a>") == 3
    assert reverse("games:game", args=[games[0].pk]) in folded  # the least recently played
    assert "1 more unfinished game<" in folded


def test_the_pushed_leave_question_follows_the_table_and_the_reader(classroom, student, ben, make_student):
    """A push says the Leave question once per situation and language and reuses it
    (games.rendering: a fifth of a table's render): each situation still reads as a fresh
    render of it does, naming the classmates now at the table, in the reader's language."""
    from django.utils import translation

    from games import rendering

    cy = make_student(classroom, "Cy", ("dog", "moon", "star"))
    game = game_create(key="smooth_operator", classroom=classroom, seed=3,
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben), SeatSpec("Cy", user=cy)])

    def leave(language="en", fresh=False) -> str:
        game.refresh_from_db()
        seats = list(game.seats.order_by("position"))
        if fresh:
            rendering._LEAVE_PARTS.clear()
        with translation.override(language):
            return rendering.render_parts(game=game, seat=seats[0], coach=False, seats=seats,
                                          fresh_choices=False)["leave"]

    first = leave()
    assert "so Ben and Cy can finish" in first and leave() == first == leave(fresh=True)
    spanish = leave("es")
    assert spanish != first and "Ben y Cy" in spanish and spanish == leave("es", fresh=True)
    game_leave(student=ben, game_id=game.pk)  # a computer player takes Ben's seat
    after = leave()
    assert "so Cy can finish" in after and "Ben" not in after and after == leave(fresh=True)
    game_leave(student=cy, game_id=game.pk)
    assert "Stop game" in leave() and "Leave this game?" not in leave() and leave() == leave(fresh=True)
    assert "Stop game" not in leave("es") and leave("es") == leave("es", fresh=True)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABANDONED)
    assert "Stop game" not in leave() and 'id="table-leave"' in leave() and leave() == leave(fresh=True)
