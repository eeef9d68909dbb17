"""Two students seated at a new arena table sit down together.

A round seats whoever is waiting, and a student whose game has just ended waits at once while
their page still shows the result (for `Game.SERIES_RESULT_SECONDS`; then it comes back to the
arena page by itself, which sends it on to the table). A classmate who was already on the arena
page is sent to the new table when that page comes back, not before (and at most
`table_hold_seconds()` after the game ended): otherwise they sat down and played alone, and
their first moves reached the other screen only seconds later."""

import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db.models import F
from django.urls import reverse

from arena.me import render_me
from arena.models import ArenaPlayer
from arena.selectors import table_hold_seconds
from arena.services import arena_back, arena_round, count_table
from games.models import Game
from games.services.tables import game_leave

from tests.arena.conftest import play_to_end
from tests.arena.test_player_socket import opened
from tests.clients import signed_in

GO = re.compile(r'data-go="/game/(\d+)/"(?: data-go-after="([\d.]+)")?')


def arena_page(child, arena):
    return signed_in(child).get(reverse("arena:play", args=[arena.pk]))


def a_new_table_with_one_who_waited(arena, children):
    """The first round seats two of three; their game ends, and the next round seats the child
    who waited on the arena page with one of the two, whose page still shows the result.
    Returns (the game that ended, the new table, the child who waited, the classmate)."""
    [game_id] = arena_round(arena_id=arena.pk, force=True).tables
    played = Game.objects.get(pk=game_id)
    seated = {s.user_id for s in played.seats.all()}
    [waited] = [c for c in children if c.pk not in seated]
    play_to_end(played)
    report = arena_round(arena_id=arena.pk, force=True)  # counts it, and seats again at once
    table = Game.objects.get(pk=ArenaPlayer.objects.get(arena=arena, user=waited).game_id)
    assert table.pk in report.tables
    [classmate] = [s.user for s in table.seats.all() if s.user_id != waited.pk]
    return played, table, waited, classmate


@pytest.mark.django_db
def test_a_child_who_waited_goes_to_the_new_table_when_the_classmate_comes_back_from_their_result(
        make_students, make_arena):
    children = make_students(3)
    arena = make_arena(children)
    _, table, waited, classmate = a_new_table_with_one_who_waited(arena, children)

    # The child who waited is shown the table, and her page is not sent on yet.
    page = arena_page(waited, arena)
    assert page.status_code == 200
    game_id, after = GO.search(page.content.decode()).groups()
    assert int(game_id) == table.pk and after is not None
    assert 0 < float(after) <= table_hold_seconds()
    assert GO.search(render_me(user=waited, arena_id=arena.pk)).group(2) is not None  # her socket's

    # The classmate's result page comes back to the arena page: straight on to the table, and
    # from now on the table is open to the child who waited too.
    assert arena_page(classmate, arena).url == f"/game/{table.pk}/"
    assert arena_page(waited, arena).url == f"/game/{table.pk}/"
    game_id, after = GO.search(render_me(user=waited, arena_id=arena.pk)).groups()
    assert int(game_id) == table.pk and after is None


@pytest.mark.django_db
def test_a_classmate_who_does_not_come_back_holds_nobody_for_long(make_students, make_arena):
    children = make_students(3)
    arena = make_arena(children)
    played, table, waited, _ = a_new_table_with_one_who_waited(arena, children)
    assert arena_page(waited, arena).status_code == 200
    # Their tab was closed: the hold ends by itself.
    Game.objects.filter(pk=played.pk).update(
        finished_at=F("finished_at") - timedelta(seconds=table_hold_seconds()))
    assert arena_page(waited, arena).url == f"/game/{table.pk}/"


@pytest.mark.django_db
def test_a_classmate_who_walked_away_from_their_last_game_holds_nobody(make_students, make_arena):
    children = make_students(4)
    arena = make_arena(children)
    first = [Game.objects.get(pk=pk) for pk in arena_round(arena_id=arena.pk, force=True).tables]
    left, played = first
    leaver = left.seats.exclude(user=None).first().user
    game_leave(student=leaver, game_id=left.pk)  # their page went to the arena page at once
    play_to_end(played)
    for game in first:
        count_table(table_id=game.arena_table.pk)
    arena_back(student=leaver, arena_id=arena.pk)  # "I'm ready to play"
    arena_round(arena_id=arena.pk, force=True)  # nobody meets the same classmate again
    table = Game.objects.get(pk=ArenaPlayer.objects.get(arena=arena, user=leaver).game_id)
    [classmate] = [s.user for s in table.seats.all() if s.user_id != leaver.pk]
    # The leaver's classmate is not held for them...
    game_id, after = GO.search(render_me(user=classmate, arena_id=arena.pk)).groups()
    assert int(game_id) == table.pk and after is None
    # ...while the leaver is held for the classmate, whose game has just ended.
    assert arena_page(leaver, arena).status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_held_child_s_arena_page_is_told_the_moment_the_classmate_comes_back(
        make_students, make_arena):
    children = await sync_to_async(make_students)(3)
    arena = await sync_to_async(make_arena)(children)
    _, table, waited, classmate = await sync_to_async(a_new_table_with_one_who_waited)(arena, children)
    comm, first = await opened(waited, arena.pk)
    assert GO.search(first).group(2) is not None  # held
    came_back = await sync_to_async(arena_page)(classmate, arena)
    assert came_back.url == f"/game/{table.pk}/"
    told = await comm.receive_from(timeout=5)
    game_id, after = GO.search(told).groups()
    assert int(game_id) == table.pk and after is None  # her page goes to the table now
    await comm.disconnect()
