"""Opening a game's socket is a view of the game like opening its page (a teacher watching
live sees every hand): the opening writes one access-log row, as the page does (one row per
visit: a page and its socket, or a socket reconnecting, within SAME_VISIT, are one). The
socket's messages write nothing; a child's own socket and a refused socket write nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.services import SeatSpec, game_create
from privacy.access_log import LOGGED, SAME_VISIT
from privacy.models import AccessLog
from tests.sockets import connect_as, off_loop

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def live(classroom, student):
    return game_create(key="smooth_operator", classroom=classroom, seed=9, options={"target": 200},
                       seats=[SeatSpec(student.display_name, user=student), SeatSpec("Robo", bot_level="beginner")])


def rows():
    return list(AccessLog.objects.order_by("pk").values_list("viewer_id", "what", "student_id", "classroom_id"))


async def opened_and_closed(user, game_id, messages=()):
    comm = connect_as(user, game_id)
    connected, _ = await comm.connect(timeout=5)
    for text in messages:
        await comm.send_to(text_data=text)
        await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()
    return connected


@pytest.mark.asyncio
async def test_a_teacher_opening_a_games_socket_is_logged_once_per_visit(live, teacher, student, classroom):
    assert await opened_and_closed(teacher, live.pk, messages=['{"sync": 0}', '{"sync": 0}'])
    assert off_loop(rows) == [(teacher.pk, LOGGED["games:game"].what, student.pk, classroom.pk)]
    # Reconnecting (a network blip) is the same visit; a socket opened later is a new one.
    assert await opened_and_closed(teacher, live.pk)
    assert len(off_loop(rows)) == 1
    off_loop(lambda: AccessLog.objects.update(at=timezone.now() - SAME_VISIT - timedelta(minutes=1)))
    assert await opened_and_closed(teacher, live.pk)
    assert len(off_loop(rows)) == 2


@pytest.mark.asyncio
async def test_a_childs_own_socket_and_a_refused_one_are_not_logged(live, student, other_teacher):
    assert await opened_and_closed(student, live.pk, messages=['{"sync": 0}'])
    comm = connect_as(other_teacher, live.pk)  # not their class: refused
    connected, _ = await comm.connect(timeout=5)
    assert not connected
    assert off_loop(rows) == []
