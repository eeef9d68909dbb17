"""Redis down while a game is created or played (docs/play.md): the change is committed before anyone
is told, so a broadcast that fails (channel layer) or a computer player's turn that cannot be
queued (Celery's broker) is logged and never turns the committed change into an error.

Transactional tests: the on-commit callbacks run for real, as in a request.
"""

import logging
from unittest import mock

import kombu.exceptions
import pytest
import redis.exceptions
from celery.app.task import Task
from channels.layers import get_channel_layer
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from games.services import SeatSpec, game_apply_move, game_create
from games import registry

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def redis_down(settings):
    """The channel layer's group_send and every Celery publish fail as with Redis stopped;
    bots pause as in production, so their turn goes to the broker."""
    settings.BOT_DELAY_SECONDS = 0.8
    settings.CELERY_TASK_ALWAYS_EAGER = False
    layer = get_channel_layer()
    # On the layer itself: the pub/sub layer hands group_send to a layer per event loop.
    with mock.patch.object(layer, "group_send", new_callable=mock.AsyncMock,
                           side_effect=redis.exceptions.ConnectionError("Connection refused")) as send, \
            mock.patch.object(Task, "apply_async",
                              side_effect=kombu.exceptions.OperationalError("Connection refused")) as queue:
        yield send, queue


def test_free_play_opens_the_game_when_redis_is_down(student, redis_down, caplog):
    group_send, apply_async = redis_down
    client = Client()
    client.force_login(student)
    with caplog.at_level(logging.WARNING):
        # Add or Multiply?: everyone chooses at once, so the computer players' turn is queued.
        response = client.post(reverse("games:free_play_start", args=["add_or_multiply"]))
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk])
    assert group_send.called and apply_async.called  # both were tried, and both failed
    assert "were not told" in caplog.text and "could not be queued" in caplog.text
    page = client.get(response["Location"])
    assert page.status_code == 200 and b"table-board" in page.content
    assert Game.objects.count() == 1


def test_a_move_is_applied_once_when_its_broadcast_fails(classroom, student, redis_down):
    """The socket's move: applied, recorded once, and the service returns normally (the
    consumer answers instead of closing the socket after the move was committed)."""
    spec = registry.spec_for("multiplication")
    game = game_create(key="multiplication", classroom=classroom, seed=5, options={"hand_size": 4},
                       seats=[SeatSpec("Ann", user=student), SeatSpec("Ben", user=None, bot_level="")])
    seat = game.seats.get(name=spec.engine.waiting_for(game.state)[0])
    action = spec.engine.legal_actions(game.state, seat.name)[0]
    result = game_apply_move(game_id=game.pk, seat=seat, action=action, expected_version=0,
                             idempotency_key="key-00000001")
    assert result.applied
    again = game_apply_move(game_id=game.pk, seat=seat, action=action, expected_version=0,
                            idempotency_key="key-00000001")
    assert again.status == "duplicate"
    assert Move.objects.filter(game=game, idempotency_key="key-00000001").count() == 1
    game.refresh_from_db()
    assert game.version == 1
