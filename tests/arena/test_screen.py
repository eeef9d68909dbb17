"""The projector: what the whole room reads (first names and initials, never a rating, no
ranking with "no points"), how small each push is, and who may listen to its socket."""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from arena import class_line, screen
from arena.models import Arena, ArenaPlayer
from arena.services import (arena_create, arena_end, arena_join, arena_let_back, arena_start,
                            arena_take_out)
from config.asgi import application
from games.models import PlayerRating
from tests.sockets import cookie_for

pytestmark = pytest.mark.django_db

LONG_SURNAMES = ["Wolfeschlegelsteinhausenbergerdorff", "Featherstonehaugh-Cholmondeley",
                 "Vanderhoeven-Oppenheimer", "Montgomery-Fitzwilliam"]


def shown(html: str) -> str:
    """The live part without its opening tag (whose clock attributes hold a timestamp, where
    any number may turn up)."""
    return html.split(">", 1)[1]


def make_arena(teacher, classroom, mode="points"):
    return arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                        key="smooth_operator", options={}, minutes=10, mode=mode)


def fill(arena, make_student, classroom, count):
    """`count` players with long names, all with games, points and streaks."""
    players = []
    for n in range(count):
        name = f"Maximiliana-Josephine{n:02d} {LONG_SURNAMES[n % len(LONG_SURNAMES)]}"
        player = arena_join(student=make_student(classroom, name), arena_id=arena.pk)
        ArenaPlayer.objects.filter(pk=player.pk).update(
            points=100 - n, games=9, wins=5, streak=2 + n % 6, best_streak=6,
            status=ArenaPlayer.Status.RESTING if n % 2 else ArenaPlayer.Status.WAITING)
        players.append(player)
    return players


def test_the_live_part_stays_under_2_kb_with_30_long_names_and_a_long_class_line(
        teacher, classroom, make_student, monkeypatch):
    arena = make_arena(teacher, classroom)
    fill(arena, make_student, classroom, 30)
    monkeypatch.setattr(class_line, "for_arena", lambda *, arena: class_line.Line(
        text="The class has made " + "9" * 12
        + " moves and finished a great many games together this morning, well done! " * 2))
    lobby = screen.render(arena=Arena.objects.get(pk=arena.pk))
    assert "<strong>30</strong> players have joined" in lobby
    assert all(f"Maximiliana-Josephine{n:02d} " in lobby for n in range(30))  # the whole class
    assert len(lobby.encode()) <= 2048, len(lobby.encode())
    arena_start(arena_id=arena.pk)
    html = screen.render(arena=Arena.objects.get(pk=arena.pk))
    assert 'id="arena-screen-live"' in html and "Maximiliana-Josephine00 W." in html
    assert len(html.encode()) <= 2048, len(html.encode())
    arena_end(arena_id=arena.pk, stop_games=True)
    finished = screen.render(arena=Arena.objects.get(pk=arena.pk))
    assert "Well played, everyone!" in finished and "podium" in finished and len(finished.encode()) <= 2048


def test_a_big_lobby_and_a_big_tie_stay_under_2_kb_and_say_how_many_more(teacher, classroom, make_student):
    """60 long names: the lobby shows the latest to join and counts the rest; all 60 level in
    1st, the podium names as many as fit and counts the rest."""
    arena = make_arena(teacher, classroom)
    players = fill(arena, make_student, classroom, 60)
    lobby = screen.render(arena=Arena.objects.get(pk=arena.pk))
    assert "<strong>60</strong> players have joined" in lobby and "and 30 more" in lobby
    assert "Maximiliana-Josephine59 " in lobby and "Maximiliana-Josephine00 " not in lobby
    assert len(lobby.encode()) <= 2048, len(lobby.encode())
    ArenaPlayer.objects.filter(pk__in=[p.pk for p in players]).update(points=8, wins=4)
    arena_end(arena_id=arena.pk, stop_games=True)
    finished = screen.render(arena=Arena.objects.get(pk=arena.pk))
    assert finished.count("1st") == 1 and "and 50 more" in finished
    assert len(finished.encode()) <= 2048, len(finished.encode())


def test_the_projector_names_first_name_and_initial_and_never_a_rating(
        teacher, classroom, make_student):
    arena = make_arena(teacher, classroom)
    ann = arena_join(student=make_student(classroom, "Ann Baker"), arena_id=arena.pk)
    ArenaPlayer.objects.filter(pk=ann.pk).update(points=6, games=3, wins=3, streak=3)
    PlayerRating.objects.create(user=ann.user, key="smooth_operator", rating=1377)
    ArenaPlayer.objects.filter(pk=ann.pk).update(rating_at_start=1291)
    html = shown(screen.render(arena=Arena.objects.get(pk=arena.pk)))
    assert "Ann B." in html and "Ann Baker" not in html and "Baker" not in html
    assert "1377" not in html and "1291" not in html and "86" not in html
    arena_end(arena_id=arena.pk)
    finished = shown(screen.render(arena=Arena.objects.get(pk=arena.pk)))
    assert "Ann B." in finished and "1377" not in finished and "Baker" not in finished


def test_no_points_shows_the_class_totals_and_most_improved_names_without_a_ranking(
        teacher, classroom, make_student):
    arena = make_arena(teacher, classroom, mode="no_points")
    ann = arena_join(student=make_student(classroom, "Ann Baker"), arena_id=arena.pk)
    ben = arena_join(student=make_student(classroom, "Ben Cole"), arena_id=arena.pk)
    ArenaPlayer.objects.filter(pk=ann.pk).update(points=57, games=4, wins=3, rating_at_start=1200)
    ArenaPlayer.objects.filter(pk=ben.pk).update(points=13, games=4, wins=1, rating_at_start=1250)
    PlayerRating.objects.create(user=ann.user, key="smooth_operator", rating=1377)
    PlayerRating.objects.create(user=ben.user, key="smooth_operator", rating=1240)
    arena_start(arena_id=arena.pk)
    html = shown(screen.render(arena=Arena.objects.get(pk=arena.pk)))
    assert "Top five" not in html and "57" not in html and "<ol" not in html
    assert "4</strong> wins" in html
    arena_end(arena_id=arena.pk)
    finished = shown(screen.render(arena=Arena.objects.get(pk=arena.pk)))
    assert "Most improved" in finished and "Ann B." in finished
    assert "Ben C." not in finished  # his rating went down: not "improved"
    assert "1377" not in finished and "177" not in finished and "57" not in finished
    assert "podium" not in finished.lower()


def test_the_projector_page_shows_the_code_and_a_qr_code_to_the_join_link(client, teacher, classroom):
    arena = make_arena(teacher, classroom)
    client.force_login(teacher)
    page = client.get(reverse("arena:screen", args=[arena.pk])).content.decode()
    assert arena.join_code in re.sub(r"<[^>]+>", "", page) and "<svg" in page
    assert 'aria-label="QR code: scan it to join the arena"' in page
    assert f'ws-connect="/ws/arena/{arena.pk}/screen/"' in page
    assert 'id="arena-screen-live"' in page and "Smooth Operator" in page
    assert "<script>" not in page  # no inline script (a strict CSP comes later)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_screen_socket_sends_the_screen_on_connect_and_each_change(
        teacher, classroom, make_student):
    arena = await sync_to_async(make_arena)(teacher, classroom)
    comm = screen_socket(teacher, arena.pk)
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from(timeout=5)
    assert 'id="arena-screen-live"' in first and "<strong>0</strong> players have joined" in first
    ann = await sync_to_async(make_student)(classroom, "Ann Baker")
    await sync_to_async(arena_join)(student=ann, arena_id=arena.pk)
    pushed = await comm.receive_from(timeout=5)
    assert "<strong>1</strong> player has joined" in pushed and "Ann B." in pushed
    assert len(pushed.encode()) <= 2048
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_lobby_hears_a_child_taken_out_and_let_back(teacher, classroom, make_student):
    """Before the start no round runs: taking a child out (or letting them back) tells the
    projector itself, so the lobby stops naming them (and names them again)."""
    arena = await sync_to_async(make_arena)(teacher, classroom)
    ann = await sync_to_async(make_student)(classroom, "Ann Baker")
    player = await sync_to_async(arena_join)(student=ann, arena_id=arena.pk)
    comm = screen_socket(teacher, arena.pk)
    assert (await comm.connect())[0]
    assert "<li>Ann B.</li>" in await comm.receive_from(timeout=5)
    await sync_to_async(arena_take_out)(arena_id=arena.pk, player_id=player.pk)
    pushed = await comm.receive_from(timeout=5)
    assert "Ann B." not in pushed and "<strong>0</strong> players have joined" in pushed
    await sync_to_async(arena_let_back)(arena_id=arena.pk, player_id=player.pk)
    assert "<li>Ann B.</li>" in await comm.receive_from(timeout=5)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_screen_hears_an_arena_ended_at_once(teacher, classroom, make_student):
    """Ended before its start (or with the last games stopped) the arena is over at once, and
    no round follows to push it: the end itself tells the projector."""
    arena = await sync_to_async(make_arena)(teacher, classroom)
    ann = await sync_to_async(make_student)(classroom, "Ann Baker")
    await sync_to_async(arena_join)(student=ann, arena_id=arena.pk)
    comm = screen_socket(teacher, arena.pk)
    connected, _ = await comm.connect()
    assert connected
    assert "<strong>1</strong> player has joined" in await comm.receive_from(timeout=5)
    await sync_to_async(arena_end)(arena_id=arena.pk, stop_games=True)
    pushed = await comm.receive_from(timeout=5)
    assert "Well played, everyone!" in pushed
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_screen_socket_refuses_students_other_teachers_and_strangers(
        teacher, classroom, student, other_teacher):
    arena = await sync_to_async(make_arena)(teacher, classroom)
    await sync_to_async(arena_join)(student=student, arena_id=arena.pk)
    for user in (student, other_teacher, None):
        comm = screen_socket(user, arena.pk)
        connected, code = await comm.connect()
        assert not connected and code == 4403


def screen_socket(user, arena_id):
    """/ws/arena/<id>/screen/ signed in as `user` (None: anonymous), from the site's origin."""
    headers = [(b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1")]
    if user is not None:
        headers.append((b"cookie", cookie_for(user)))
    return WebsocketCommunicator(application, f"/ws/arena/{arena_id}/screen/", headers=headers)


def test_a_projector_update_redis_did_not_take_is_sent_with_the_next_change(teacher, classroom, monkeypatch):
    """The digest of what the projectors were sent is forgotten when the send failed: the
    same screen is sent again next time instead of being taken as already shown."""
    import redis.exceptions
    from channels.layers import get_channel_layer

    arena = make_arena(teacher, classroom)
    layer = get_channel_layer()
    real_send = layer.group_send

    async def redis_away(group, message):
        raise redis.exceptions.ConnectionError("Redis is restarting")

    monkeypatch.setattr(layer, "group_send", redis_away)
    assert screen.push_if_changed(arena_id=arena.pk) is False
    assert Arena.objects.get(pk=arena.pk).screen_digest == ""

    monkeypatch.setattr(layer, "group_send", real_send)
    assert screen.push_if_changed(arena_id=arena.pk) is True  # nothing changed, but never shown
    assert screen.push_if_changed(arena_id=arena.pk) is False  # now it was


def test_a_send_that_failed_on_the_servers_loop_calls_its_failure_off_the_loop():
    import threading
    from concurrent.futures import Future

    import redis.exceptions

    from live import groups

    called = threading.Event()
    failed: Future = Future()
    failed.set_exception(redis.exceptions.ConnectionError("Redis is restarting"))
    groups._after_send("arena-1-screen", failed, called.set)
    assert called.wait(timeout=5)

    sent: Future = Future()
    sent.set_result(None)
    quiet = threading.Event()
    groups._after_send("arena-1-screen", sent, quiet.set)
    assert not quiet.wait(timeout=0.2)
