"""Two students seated at a new arena table sit down together.

A round seats whoever is waiting, and a student whose game has just ended waits at once while
their page still shows the result (for `Game.SERIES_RESULT_SECONDS`, then it comes back by
itself). A classmate who was already waiting on the arena page is sent to the new table when
that result page moves on, not before: otherwise they sat down and played alone, and their
first moves reached the other screen only seconds later."""

import re
from datetime import timedelta

import pytest
from django.db.models import F
from django.urls import reverse

from arena.me import render_me
from arena.models import ArenaPlayer
from arena.services import arena_back, arena_round, count_table
from games.models import Game
from games.services.tables import game_leave

from tests.arena.conftest import play_to_end
from tests.games.helpers import signed_in

pytestmark = pytest.mark.django_db

GO = re.compile(r'data-go="/game/(\d+)/"(?: data-go-after="([\d.]+)")?')


def arena_page(child, arena):
    return signed_in(child).get(reverse("arena:play", args=[arena.pk]))


def first_table_and_the_one_left_waiting(arena, children):
    """The first round: one table of two, and the third child waiting on the arena page."""
    [game_id] = arena_round(arena_id=arena.pk, force=True).tables
    game = Game.objects.get(pk=game_id)
    seated = {s.user_id for s in game.seats.all()}
    [waiting] = [c for c in children if c.pk not in seated]
    return game, waiting


def the_next_table(arena, waiting):
    """The next round pairs the child who waited with one whose game just ended."""
    report = arena_round(arena_id=arena.pk, force=True)
    game = Game.objects.get(pk=ArenaPlayer.objects.get(arena=arena, user=waiting).game_id)
    assert game.pk in report.tables
    return game


def test_a_waiting_child_goes_to_the_new_table_when_the_classmate_s_result_page_does(
        make_students, make_arena):
    children = make_students(3)
    arena = make_arena(children)
    played, waiting = first_table_and_the_one_left_waiting(arena, children)
    play_to_end(played)  # counted by the next round, which seats the two again at once
    table = the_next_table(arena, waiting)
    [classmate] = [s.user for s in table.seats.all() if s.user_id != waiting.pk]

    # The child who waited is shown the table, and her page goes there when her classmate's
    # result page moves on: not at once (the page is not sent on to the table).
    page = arena_page(waiting, arena)
    assert page.status_code == 200
    game_id, after = GO.search(page.content.decode()).groups()
    assert int(game_id) == table.pk and after is not None
    assert 0 < float(after) <= Game.SERIES_RESULT_SECONDS
    pushed = render_me(user=waiting, arena_id=arena.pk)  # what her arena socket is sent
    assert GO.search(pushed).group(2) is not None
    # The classmate's result page comes back to the arena and goes straight to the table.
    assert arena_page(classmate, arena).url == f"/game/{table.pk}/"

    # Once that result has been on screen its whole moment, the table is open to both at once.
    Game.objects.filter(pk=played.pk).update(
        finished_at=F("finished_at") - timedelta(seconds=Game.SERIES_RESULT_SECONDS))
    assert arena_page(waiting, arena).url == f"/game/{table.pk}/"
    game_id, after = GO.search(render_me(user=waiting, arena_id=arena.pk)).groups()
    assert int(game_id) == table.pk and after is None


def test_a_classmate_who_walked_away_from_their_last_game_holds_nobody_back(
        make_students, make_arena):
    children = make_students(4)
    arena = make_arena(children)
    first = [Game.objects.get(pk=pk) for pk in arena_round(arena_id=arena.pk, force=True).tables]
    left, played = first
    leaver = left.seats.exclude(user=None).first().user
    game_leave(student=leaver, game_id=left.pk)  # their page goes to the arena page at once
    play_to_end(played)
    for game in first:
        count_table(table_id=game.arena_table.pk)
    arena_back(student=leaver, arena_id=arena.pk)  # "I'm ready to play"
    arena_round(arena_id=arena.pk, force=True)  # nobody meets the same classmate again
    table = Game.objects.get(pk=ArenaPlayer.objects.get(arena=arena, user=leaver).game_id)
    [classmate] = [s.user for s in table.seats.all() if s.user_id != leaver.pk]
    # The classmate who came from the arena page is not held for the one who walked away...
    assert arena_page(classmate, arena).url == f"/game/{table.pk}/"
    # ...who is held for the classmate's result page.
    assert arena_page(leaver, arena).status_code == 200
