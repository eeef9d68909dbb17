"""Access is re-checked on open sockets, not only when they connect: a co-teacher taken off
the class stops receiving the table, a removed student's move is refused, and the same for
lobbies. The check before a push is a cache read unless the class's membership changed."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.membership import membership_changed, membership_version
from accounts.models import User
from classroom.models import Classroom
from classroom.services.co_teaching import co_teacher_remove
from classroom.services.roster import student_move, student_remove
from games import registry
from live.guard import Checked, recheck_if_changed
from games.consumers.table import Viewer
from games.models import Game, Move
from games.rendering import render_table
from games.services.moves import game_apply_move
from games.services.tables import table_add_bot, table_join, table_open
from tests.sockets import connect_as, off_loop

pytestmark = pytest.mark.django_db(transaction=True)

LOST = "You are no longer in this class, so this table has closed."


def remove_from_the_game_class(student, game):
    student_remove(student=student, classroom=Classroom.objects.get(pk=game.classroom_id))


def move_from_the_game_class(student, game, to_classroom):
    student_move(student=student, from_classroom=Classroom.objects.get(pk=game.classroom_id),
                 to_classroom=to_classroom)


def legal_move(game_id):
    """The waiting player's seat and a card they may play."""
    game = Game.objects.get(pk=game_id)
    name = registry.spec_for(game.key).engine.waiting_for(game.state)[0]
    card = next(c for c in game.state["hands"][name] if c in "+-x")
    return game, game.seats.get(name=name), {"type": "play", "card": card}


def play_one_move(game_id):
    game, seat, action = legal_move(game_id)
    result = game_apply_move(game_id=game_id, seat=seat, action=action, expected_version=game.version,
                             idempotency_key="service-move-1")
    assert result.applied


def message(game, action, key):
    return json.dumps({"action": json.dumps(action), "expected_version": str(game.version),
                       "idempotency_key": key, "HEADERS": {"HX-Request": "true"}})


async def closing_words(comm):
    """Everything sent until the socket closes: (texts, close code)."""
    texts = []
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return texts, output.get("code")
        texts.append(output.get("text", ""))


@pytest.mark.asyncio
async def test_a_co_teacher_removed_while_watching_gets_no_further_push(table, co_teacher, classroom):
    game, _, _ = table
    comm = connect_as(co_teacher, game.pk)
    assert (await comm.connect())[0]
    assert "teacher view" in await comm.receive_from(timeout=5)
    await sync_to_async(co_teacher_remove)(classroom=classroom, teacher=co_teacher)
    await sync_to_async(play_one_move)(game.pk)  # a push to every viewer of the table
    texts, code = await closing_words(comm)
    assert code == 4403
    assert len(texts) == 1 and LOST in texts[0]
    assert "Everyone" not in texts[0] and "hand" not in texts[0].lower()
    await comm.disconnect()


@pytest.mark.asyncio
async def test_the_class_teacher_keeps_watching_when_a_colleague_is_removed(table, teacher, co_teacher,
                                                                            classroom):
    game, _, _ = table
    comm = connect_as(teacher, game.pk)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await sync_to_async(co_teacher_remove)(classroom=classroom, teacher=co_teacher)
    await sync_to_async(play_one_move)(game.pk)
    html = await comm.receive_from(timeout=5)
    assert "teacher view" in html and LOST not in html
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_removed_students_move_is_refused_and_nothing_is_recorded(table):
    game, ann, ben = table
    first, seat, action = await sync_to_async(legal_move)(game.pk)
    mover = ann if seat.name == "Ann" else ben
    comm = connect_as(mover, game.pk)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await sync_to_async(remove_from_the_game_class)(mover, game)
    await comm.send_to(text_data=message(first, action, key="removed-move-1"))
    texts, code = await closing_words(comm)
    assert code == 4403 and len(texts) == 1 and LOST in texts[0]
    assert not await Move.objects.filter(game=game).aexists()
    after = await Game.objects.aget(pk=game.pk)
    assert after.version == first.version and after.state == first.state
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_move_is_rechecked_even_when_nobody_announced_the_change(table):
    """Deactivated behind the services' back (no membership version bump): the move is still
    refused, because every move re-checks access in the database."""
    game, ann, ben = table
    first, seat, action = await sync_to_async(legal_move)(game.pk)
    mover = ann if seat.name == "Ann" else ben
    comm = connect_as(mover, game.pk)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await User.objects.filter(pk=mover.pk).aupdate(is_active=False)
    await comm.send_to(text_data=message(first, action, key="quiet-removal"))
    texts, code = await closing_words(comm)
    assert code == 4403 and LOST in texts[0]
    assert not await Move.objects.filter(game=game).aexists()
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_removed_student_watching_gets_no_further_push(table):
    game, ann, ben = table
    _, seat, _ = await sync_to_async(legal_move)(game.pk)
    idle = ben if seat.name == "Ann" else ann  # not the one about to move
    comm = connect_as(idle, game.pk)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await sync_to_async(remove_from_the_game_class)(idle, game)
    await sync_to_async(play_one_move)(game.pk)
    texts, code = await closing_words(comm)
    assert code == 4403 and texts == [texts[0]] and LOST in texts[0]
    await comm.disconnect()


# ----- the lobby -----------------------------------------------------------------------

@pytest.fixture
def lobby(classroom, student, ben, make_student):
    cy = make_student(classroom, "Cy", ("moon", "star", "apple"))
    game = table_open(student=student, key="multiplication")
    return game, student, ben, cy


@pytest.mark.asyncio
async def test_a_student_moved_to_another_class_loses_the_lobby(lobby, make_classroom, teacher):
    game, ann, ben, _ = lobby
    other = await sync_to_async(make_classroom)(teacher, name="6A", join_code="QQQ777")
    comm = connect_as(ben, game.pk, socket="lobby")
    assert (await comm.connect())[0]
    assert 'id="lobby"' in await comm.receive_from(timeout=5)
    await sync_to_async(move_from_the_game_class)(ben, game, other)
    await sync_to_async(table_add_bot)(host=ann, game_id=game.pk, level="beginner")  # a push
    texts, code = await closing_words(comm)
    assert code == 4403 and len(texts) == 1 and LOST in texts[0] and 'id="lobby"' in texts[0]
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_co_teacher_removed_stops_hearing_the_lobby(lobby, co_teacher, classroom):
    game, ann, ben, _ = lobby
    comm = connect_as(co_teacher, game.pk, socket="lobby")
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await sync_to_async(co_teacher_remove)(classroom=classroom, teacher=co_teacher)
    await sync_to_async(table_join)(student=ben, game_id=game.pk)  # a push
    texts, code = await closing_words(comm)
    assert code == 4403 and len(texts) == 1 and LOST in texts[0] and "Ben" not in texts[0]
    await comm.disconnect()


@pytest.mark.asyncio
async def test_the_lobby_goes_on_for_those_still_in_the_class(lobby):
    game, ann, ben, cy = lobby
    comm = connect_as(ann, game.pk, socket="lobby")
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await sync_to_async(remove_from_the_game_class)(cy, game)  # someone else leaves the class
    await sync_to_async(table_join)(student=ben, game_id=game.pk)
    html = await comm.receive_from(timeout=5)
    assert "<strong>Ben</strong>" in html and LOST not in html
    await comm.disconnect()


# ----- the membership version ----------------------------------------------------------

def test_a_missing_version_forces_a_recheck(classroom):
    checks = []
    checked = Checked(classroom_id=classroom.pk, version=membership_version(classroom.pk), access="yes")
    assert recheck_if_changed(checked, lambda: checks.append(1) or "yes") == "yes" and checks == []
    cache.delete(f"membership:{classroom.pk}")  # evicted, or the cache restarted
    recheck_if_changed(checked, lambda: checks.append(1) or "yes")
    assert checks == [1]
    recheck_if_changed(checked, lambda: checks.append(1) or "yes")
    assert checks == [1]  # the fresh version was recorded
    membership_changed(classroom.pk)
    assert recheck_if_changed(checked, lambda: checks.append(1) or None) is None and checks == [1, 1]


def test_a_change_on_an_evicted_key_never_lands_back_on_a_recorded_version(classroom):
    recorded = membership_version(classroom.pk)
    cache.delete(f"membership:{classroom.pk}")
    for _ in range(5):
        membership_changed(classroom.pk)
        assert membership_version(classroom.pk) != recorded


def test_an_unreachable_cache_means_recheck(classroom, monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    checked = Checked(classroom_id=classroom.pk, version=membership_version(classroom.pk), access="yes")
    monkeypatch.setattr(cache, "get", down)
    checks = []
    recheck_if_changed(checked, lambda: checks.append(1) or "yes")
    assert checks == [1] and checked.version is None
    monkeypatch.setattr(cache, "incr", down)
    membership_changed(classroom.pk)  # logged, never raised into the teacher's request


def test_a_push_with_no_membership_change_costs_no_extra_query(table, django_assert_num_queries):
    """The re-check before a push is a cache read: the push makes exactly the queries of
    rendering the table."""
    game, ann, _ = table
    viewer = Viewer(user_id=ann.pk, game_id=game.pk)
    access = viewer.connect(ann)
    render_table(game_id=game.pk, seat=access.seat, coach=False)  # warm template caches
    with CaptureQueriesContext(connection) as alone:
        render_table(game_id=game.pk, seat=access.seat, coach=False)
    with django_assert_num_queries(len(alone)):
        viewer.table()
    membership_changed(game.classroom_id)
    with django_assert_num_queries(len(alone) + 2):  # the viewer re-read, then their seat
        viewer.table()
