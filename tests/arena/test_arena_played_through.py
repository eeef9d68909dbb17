"""A whole arena played through by six students (their moves made by the game's bots through
the real move service), with a projector listening: every push the projector received is
read, and none shows a rating, a full name, a card in anyone's hand or a named mistake. The
arena's games are ordinary recorded games: their moves carry skill facts and their students'
ratings move, as any game's do; the podium and the standings agree with the counted results."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from arena.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from arena.selectors import standings
from arena.services import arena_create, arena_join, arena_round, arena_start
from games import registry
from games.models import Game, Move, PlayerRating, RatingChange
from games.services.bots import bot_action
from games.services.moves import game_apply_move
from config.asgi import application
from tests.sockets import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

KEY = "smooth_operator"
NAMES = ["Annabel Quist", "Bertram Vosk", "Celestine Ward", "Dorian Yates", "Evangeline Zorn",
         "Fitzgerald Ulm"]
RATINGS = [1377.25, 1411.5, 1293.75, 1523.25, 1188.5, 1466.75]  # distinctive: easy to spot


def play_to_the_end(game_id: int) -> None:
    """Every seat's move chosen by the game's bot for that seat's own view, through the move
    service, until the game is over: as six children would, seen from the server."""
    spec = registry.spec_for(KEY)
    for _ in range(5000):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return
        waiting = set(spec.engine.waiting_for(game.state))
        seat = next(s for s in game.seats.all() if s.name in waiting)
        seat.bot_level = seat.bot_level or "player"  # the bot's choice, the student's seat
        result = game_apply_move(game_id=game_id, seat=seat, action=bot_action(game, seat),
                                 expected_version=game.version)
        assert result.status == "applied", result.message
    raise AssertionError("the game did not end")


def world(classroom, make_student, teacher):
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena", key=KEY,
                         options={}, minutes=10, mode=Arena.Mode.POINTS)
    students = [make_student(classroom, name) for name in NAMES]
    for student, rating in zip(students, RATINGS):
        PlayerRating.objects.create(user=student, key=KEY, rating=rating, games=5)
        arena_join(student=student, arena_id=arena.pk)
    return arena, students


@pytest.mark.asyncio
async def test_six_students_play_an_arena_and_the_projector_never_shows_what_it_must_not(
        classroom, make_student, teacher):
    arena, students = await sync_to_async(world)(classroom, make_student, teacher)
    screen = WebsocketCommunicator(application, f"/ws/arena/{arena.pk}/screen/", headers=[
        (b"origin", b"http://127.0.0.1"), (b"host", b"127.0.0.1"), (b"cookie", await sync_to_async(session_cookie)(teacher))])
    connected, _ = await screen.connect()
    assert connected
    pushes = [await screen.receive_from(timeout=5)]  # the screen as it is on connect

    await sync_to_async(arena_start)(arena_id=arena.pk)
    clock = timezone.now()
    for round_number in range(4):
        clock += timedelta(seconds=3)
        report = await sync_to_async(arena_round)(arena_id=arena.pk, now=clock, force=True)
        assert report is not None
        if round_number == 0:
            assert len(report.tables) == 3  # six students, three tables, no computer player
        for game_id in report.tables:
            await sync_to_async(play_to_the_end)(game_id)
        while not await screen.receive_nothing(timeout=0.3):
            pushes.append(await screen.receive_from(timeout=5))

    # Every finished game was counted (by the finish signal, at once) and reseated its players.
    tables = await sync_to_async(list)(ArenaGame.objects.filter(arena=arena))
    assert len(tables) == 12 and all(t.counted_at for t in tables)
    results = await sync_to_async(list)(ArenaResult.objects.filter(table__arena=arena))
    assert len(results) == 24
    # They are ordinary recorded games: skill facts on the moves, ratings moved.
    assert await sync_to_async(Move.objects.filter(game__arena_table__arena=arena,
                                                   accepted=True).exclude(analysis={}).exists)()
    assert await sync_to_async(RatingChange.objects.filter(game__arena_table__arena=arena).count)() == 24

    # The standings agree with the results, game by game.
    rows = await sync_to_async(standings)(arena=arena)
    for player in rows:
        mine = [r for r in results if r.player_id == player.pk]
        assert player.points == sum(r.points for r in mine) and player.games == len(mine) == 4
    assert [p.points for p in rows] == sorted((p.points for p in rows), reverse=True)

    await screen.disconnect()
    assert len(pushes) >= 2
    ratings = await sync_to_async(lambda: [f"{r.rating:.0f}" for r in PlayerRating.objects.filter(key=KEY)])()
    for html in pushes:
        assert len(html.encode()) <= 2048
        text = re.sub(r"<[^>]+>", " ", html)
        for name in NAMES:
            assert name not in text  # first name and initial only
        for value in set(ratings) | {f"{r:.0f}" for r in RATINGS}:
            assert value not in text
        assert not re.search(r"\b(wrong|mistake|missed)\b", text, re.I)
    shown_numbers = {n for html in pushes for n in re.findall(r"\d+", re.sub(r"<[^>]+>", " ", html))}
    # The top five are named by first name and initial.
    assert sum(f"{n.split()[0]} {n.split()[1][0]}." in pushes[-1] for n in NAMES) == 5
    # Card values are small numbers that also appear as counts, so the check is on the markup:
    # no push carries a card or a hand.
    assert not any(re.search(r"data-card|class=\"card|hand", html) for html in pushes)
    assert shown_numbers  # and the pushes did show figures (counts, points, the clock)
