"""The dashboard WebSocket: only the class's teachers connect; a dashboard.changed message
makes it push fresh fragments."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from classroom.services.classes import classroom_archive
from classroom.services.co_teaching import co_teacher_remove
from devtools.planted import PlantedPlayer
from devtools.simulation import play_game
from games.models import Game
from games.services import SeatSpec, game_create
from reports.consumers import DashboardConsumer
from reports.measures import measure_by_id
from reports.realtime import broadcast_dashboard_changed
from tests.sockets import connect_as

from .showing import make_game, rollup

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_debounce")]


def connect_dashboard(user, classroom_id):
    return connect_as(user, classroom_id, socket="reports/class")


def playing_now(html: str) -> str:
    """The "Playing now" part of a push."""
    part = html[html.index('id="dash-now"'):]
    return part[:part.index("</section>")]


@pytest.mark.asyncio
async def test_teachers_of_the_class_get_the_live_fragments(teacher, co_teacher, classroom, student):
    for user in (teacher, co_teacher):
        comm = connect_dashboard(user, classroom.pk)
        connected, _ = await comm.connect(timeout=10)
        assert connected
        html = await comm.receive_from(timeout=5)
        assert 'id="dash-skills"' in html and 'hx-swap-oob="true"' in html
        await comm.disconnect()


@pytest.mark.asyncio
async def test_others_are_refused(classroom, other_teacher, student, other_student):
    for user in (None, other_teacher, student, other_student):
        comm = connect_dashboard(user, classroom.pk)
        connected, code = await comm.connect(timeout=10)
        assert not connected and code == 4403


@pytest.mark.asyncio
async def test_a_change_pushes_an_update(teacher, classroom, student):
    comm = connect_dashboard(teacher, classroom.pk)
    assert (await comm.connect(timeout=10))[0]
    first = await comm.receive_from(timeout=5)
    assert "No skill numbers yet" in first
    await database_sync_to_async(rollup)(classroom, "so.lowest_operator", student=student,
                                         chances=37, misses=4)
    await database_sync_to_async(broadcast_dashboard_changed)(classroom_id=classroom.pk)
    update = await comm.receive_from(timeout=5)
    assert ">4</a>" in update and ">37</a>" in update
    assert measure_by_id("so.lowest_operator").title in update
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_teacher_removed_from_the_class_is_disconnected(teacher, co_teacher, classroom):
    comm = connect_dashboard(co_teacher, classroom.pk)
    assert (await comm.connect(timeout=10))[0]
    await comm.receive_from(timeout=5)
    await database_sync_to_async(classroom.teachers.remove)(co_teacher)
    await database_sync_to_async(broadcast_dashboard_changed)(classroom_id=classroom.pk)
    output = await comm.receive_output(timeout=5)
    assert output["type"] == "websocket.close" and output["code"] == 4403


@pytest.mark.asyncio
async def test_a_game_starting_and_finishing_is_pushed_at_once(teacher, classroom, student):
    """No timer here (REFRESH_SECONDS = 0): the start and the end of a game are announced."""
    comm = connect_dashboard(teacher, classroom.pk)
    assert (await comm.connect(timeout=10))[0]
    assert "Nobody is playing right now" in await comm.receive_from(timeout=5)
    game = await database_sync_to_async(game_create)(
        key="multiplication", classroom=classroom, seed=3,
        seats=[SeatSpec("Ann", user=student), SeatSpec("Robo", bot_level="expert")])
    html = await comm.receive_from(timeout=5)
    assert "Ann" in playing_now(html)
    await database_sync_to_async(Game.objects.filter(pk=game.pk).delete)()
    await database_sync_to_async(play_game)(key="multiplication", classroom=classroom, student=student,
                                            player=PlantedPlayer([]), seed=4)
    # Each push carries only the parts that changed: the report's own push (skills only) may
    # follow the one that re-drew "Playing now", so the newest "Playing now" is the one to read.
    pushes = [await comm.receive_from(timeout=5)]
    while await comm.receive_nothing(timeout=0.5) is False:
        pushes.append(await comm.receive_from(timeout=5))
    html = [push for push in pushes if 'id="dash-now"' in push][-1]
    assert "Nobody is playing right now" in playing_now(html)
    await comm.disconnect()


@pytest.mark.asyncio
async def test_playing_now_refreshes_by_itself(settings, teacher, classroom, student):
    """A game made without the services (no announcement) still shows: the dashboard also
    re-renders on a timer."""
    settings.REPORTS_DASHBOARD_REFRESH_SECONDS = 0.2
    comm = connect_dashboard(teacher, classroom.pk)
    assert (await comm.connect(timeout=10))[0]
    assert "Nobody is playing right now" in await comm.receive_from(timeout=5)
    await database_sync_to_async(make_game)(classroom, student, status=Game.Status.ACTIVE)
    html = await comm.receive_from(timeout=5)
    while 'id="dash-now"' not in html:  # a tick may first send only the Live line's new time
        html = await comm.receive_from(timeout=5)
    assert "Ann" in playing_now(html)
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_change_during_a_render_is_pushed_too(teacher, classroom, student, monkeypatch):
    """A report landing while the previous push is still rendering is not dropped."""
    comm = connect_dashboard(teacher, classroom.pk)
    assert (await comm.connect(timeout=10))[0]
    assert "No skill numbers yet" in await comm.receive_from(timeout=5)
    render = DashboardConsumer.current
    rendering = asyncio.Event()

    async def slow_render(self):
        html = await render(self)  # read before the change below is committed...
        rendering.set()
        await asyncio.sleep(0.3)  # ...and still busy (a big class) when it arrives
        return html

    monkeypatch.setattr(DashboardConsumer, "current", slow_render)
    await database_sync_to_async(broadcast_dashboard_changed)(classroom_id=classroom.pk)
    await asyncio.wait_for(rendering.wait(), timeout=5)
    await database_sync_to_async(rollup)(classroom, "so.lowest_operator", student=student,
                                         chances=37, misses=4)
    await database_sync_to_async(broadcast_dashboard_changed)(classroom_id=classroom.pk)
    # The render that was under way sends what changed in it (perhaps nothing, perhaps the
    # Live line's time); the change that came during it follows.
    html = await comm.receive_from(timeout=5)
    while ">37</a>" not in html:
        html = await comm.receive_from(timeout=5)
    assert ">4</a>" in html
    await comm.disconnect()


@pytest.mark.asyncio
async def test_a_co_teacher_removed_through_the_class_page_gets_no_further_push(teacher, co_teacher,
                                                                                classroom, student):
    """The service the class page uses: the next push (here a finished report) is not sent to
    the removed co-teacher, whose socket is closed with 4403; the owner's goes on."""
    theirs, mine = connect_dashboard(co_teacher, classroom.pk), connect_dashboard(teacher, classroom.pk)
    for comm in (theirs, mine):
        assert (await comm.connect(timeout=10))[0]
        await comm.receive_from(timeout=5)
    await database_sync_to_async(co_teacher_remove)(classroom=classroom, teacher=co_teacher)
    await database_sync_to_async(rollup)(classroom, "so.lowest_operator", student=student,
                                         chances=37, misses=4)
    await database_sync_to_async(broadcast_dashboard_changed)(classroom_id=classroom.pk)
    output = await theirs.receive_output(timeout=5)
    assert output["type"] == "websocket.close" and output["code"] == 4403
    assert ">37</a>" in await mine.receive_from(timeout=5)
    await mine.disconnect()


@pytest.mark.asyncio
async def test_an_archived_class_stops_its_live_dashboard(teacher, classroom):
    comm = connect_dashboard(teacher, classroom.pk)
    assert (await comm.connect(timeout=10))[0]
    await comm.receive_from(timeout=5)
    await database_sync_to_async(classroom_archive)(classroom=classroom)
    await database_sync_to_async(broadcast_dashboard_changed)(classroom_id=classroom.pk)
    output = await comm.receive_output(timeout=5)
    assert output["type"] == "websocket.close" and output["code"] == 4403
