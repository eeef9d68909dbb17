"""A password reset, new pictures for a child, or "Sign out everywhere" end the user's other
sessions: their pages are signed out and their open sockets close and hear nothing more
(docs/play.md, "Sockets stay safe while they are open")."""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.services import SeatSpec, game_create
from games.services.moves import game_apply_move
from config.asgi import application
from games import registry
from tests.classroom.helpers import page_text
from tests.sockets import connect_as

pytestmark = pytest.mark.django_db(transaction=True)

SIGNED_OUT_EVERYWHERE = "You are signed out on every other device."


def signed_in_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def socket_of(client: Client, game_id: int) -> WebsocketCommunicator:
    """A game socket of the same browser session as `client`."""
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return WebsocketCommunicator(application, f"/ws/game/{game_id}/", headers=[
        (b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", cookie.encode())])


def is_signed_out(client: Client, url: str) -> bool:
    """A page of the account's own answers with a redirect to a sign-in page."""
    response = client.get(url)
    return response.status_code == 302 and ("sign-in" in response["Location"] or "join" in response["Location"])


def reset_by_email(client: Client, email: str, password: str) -> None:
    client.post(reverse("accounts:password_reset"), {"email": email})
    link = re.search(r"http://testserver(/teacher/password-reset/\S+/)", mail.outbox[-1].body).group(1)
    form_page = client.get(link, follow=True)
    client.post(form_page.redirect_chain[-1][0], {"new_password1": password, "new_password2": password})


@pytest.fixture
def table(classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    game = game_create(key="smooth_operator", classroom=classroom, seed=9, options={"target": 200},
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=ben)])
    return game, student, ben


def play_one_move(game_id, key):
    game = Game.objects.get(pk=game_id)
    name = registry.spec_for(game.key).engine.waiting_for(game.state)[0]
    card = next(c for c in game.state["hands"][name] if c in "+-x")
    assert game_apply_move(game_id=game_id, seat=game.seats.get(name=name), action={"type": "play", "card": card},
                           expected_version=game.version, idempotency_key=key).applied


async def open_table(user, game_id) -> "WebsocketCommunicator":
    """A socket of a session of `user`'s own, at the table, its first table read."""
    comm = connect_as(user, game_id)
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    return comm


async def teacher_posts(teacher, url: str, data: dict) -> Client:
    """Ms Rivera posts from her own device; that device's client."""
    client = await sync_to_async(signed_in_client)(teacher)
    await sync_to_async(client.post)(url, data)
    return client


async def closed_with(comm) -> int:
    """The close code, once everything sent before it is read."""
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output.get("code")


async def assert_closed_and_silent(comm, game_id):
    assert await closed_with(comm) == 4401
    await sync_to_async(play_one_move)(game_id, "after-the-reset")
    assert await comm.receive_nothing(timeout=0.3)  # no more hands


@pytest.mark.asyncio
async def test_a_teachers_password_reset_signs_out_the_old_session_and_closes_its_socket(table, teacher):
    game, _, _ = table
    old = await sync_to_async(signed_in_client)(teacher)
    comm = await open_table(teacher, game.pk)  # another session of hers, watching the table

    await sync_to_async(reset_by_email)(Client(), "rivera@school.test", "brand-new-secret-9")

    assert await sync_to_async(is_signed_out)(old, reverse("classroom:teacher_home"))
    await assert_closed_and_silent(comm, game.pk)
    await comm.disconnect()


@pytest.mark.asyncio
async def test_new_pictures_for_a_child_sign_out_their_old_session_and_close_its_socket(table, teacher):
    game, ann, _ = table
    old = await sync_to_async(signed_in_client)(ann)
    comm = await open_table(ann, game.pk)

    by_teacher = await teacher_posts(teacher, reverse("classroom:student_pictures", args=[ann.pk]),
                                     {"confirmed": "yes"})

    assert await sync_to_async(is_signed_out)(old, reverse("classroom:student_home"))
    await assert_closed_and_silent(comm, game.pk)
    await comm.disconnect()
    # The teacher who did it is still signed in.
    assert (await sync_to_async(by_teacher.get)(reverse("classroom:teacher_home"))).status_code == 200


@pytest.mark.asyncio
async def test_a_new_text_password_for_a_child_closes_their_socket(table, teacher):
    game, ann, _ = table
    comm = await open_table(ann, game.pk)
    await teacher_posts(teacher, reverse("classroom:student_text_password", args=[ann.pk]),
                        {"password": "tiger-42"})
    await assert_closed_and_silent(comm, game.pk)
    await comm.disconnect()


@pytest.mark.asyncio
async def test_sign_out_everywhere_ends_the_other_sessions_and_keeps_this_one(table, teacher, classroom):
    game, _, _ = table
    other_device = await sync_to_async(signed_in_client)(teacher)
    comm = await open_table(teacher, game.pk)
    dashboard = connect_as(teacher, classroom.pk, "reports/class")
    assert (await dashboard.connect())[0]

    this_device = await sync_to_async(signed_in_client)(teacher)
    here = socket_of(this_device, game.pk)  # this device's own table stays open
    assert (await here.connect())[0]
    await here.receive_from(timeout=5)
    profile = await sync_to_async(this_device.get)(reverse("accounts:teacher_profile"))
    assert "Sign out everywhere" in page_text(profile)
    response = await sync_to_async(this_device.post)(reverse("accounts:sign_out_everywhere"), follow=True)
    assert SIGNED_OUT_EVERYWHERE in page_text(response)

    assert await sync_to_async(is_signed_out)(other_device, reverse("classroom:teacher_home"))
    assert (await sync_to_async(this_device.get)(reverse("classroom:teacher_home"))).status_code == 200
    await assert_closed_and_silent(comm, game.pk)
    assert await closed_with(dashboard) == 4401
    assert "teacher view" in await here.receive_from(timeout=5)  # the move played after it
    await comm.disconnect()
    await dashboard.disconnect()
    await here.disconnect()


@pytest.mark.asyncio
async def test_a_socket_of_another_user_stays_open(table, teacher):
    game, ann, ben = table
    comm = await open_table(ben, game.pk)
    await teacher_posts(teacher, reverse("classroom:student_pictures", args=[ann.pk]), {"confirmed": "yes"})
    await sync_to_async(play_one_move)(game.pk, "others-carry-on")
    html = await comm.receive_from(timeout=5)
    assert "Ben" in html
    await comm.disconnect()


def test_sign_out_everywhere_needs_a_post(client, teacher):
    client.force_login(teacher)
    assert client.get(reverse("accounts:sign_out_everywhere")).status_code == 405


@pytest.mark.asyncio
async def test_a_password_changed_in_the_admin_closes_the_users_sockets(table, django_user_model):
    game, ann, _ = table
    comm = await open_table(ann, game.pk)
    admin = await sync_to_async(django_user_model.objects.create_superuser)(
        username="head", email="head@school.test", password="admin-secret-42")
    by_admin = await sync_to_async(signed_in_client)(admin)
    url = reverse("admin:auth_user_password_change", args=[ann.pk])
    response = await sync_to_async(by_admin.post)(url, {"usable_password": "true", "password1": "new-secret-4242",
                                                         "password2": "new-secret-4242"})
    assert response.status_code == 302  # changed
    await assert_closed_and_silent(comm, game.pk)
    await comm.disconnect()
    # The administrator who did it is still signed in.
    assert (await sync_to_async(by_admin.get)(reverse("admin:index"))).status_code == 200

