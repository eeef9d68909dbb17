"""What a child reads about their arena says what happened to them, and nothing that no longer
applies: taken out by the teacher (no "keep going", no place to climb), a "top 10" only in an
arena of more than ten, and an arena their teacher ended early."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from arena import words
from arena.models import Arena, ArenaPlayer
from arena.services import arena_end, arena_let_back, arena_round, arena_take_out
from tests.arena.conftest import game_of, later, player
from tests.clients import signed_in

pytestmark = pytest.mark.django_db


def arena_page_words(child, arena) -> str:
    """The words of the child's own arena page (tags stripped)."""
    response = signed_in(child).get(reverse("arena:play", args=[arena.pk]))
    assert response.status_code == 200
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_a_child_taken_out_mid_game_is_told_so_plainly_and_nothing_more(make_students, make_arena):
    children = make_students(8)
    arena = make_arena(children)
    arena_round(arena_id=arena.pk, force=True)  # four tables of two
    ann = children[0]
    assert player(arena, ann).status == ArenaPlayer.Status.PLAYING

    arena_take_out(arena_id=arena.pk, player_id=player(arena, ann).pk)
    said = arena_page_words(ann, arena)
    assert "Your teacher has taken you out of this arena." in said
    assert "Your teacher took you out during your last game, so it counted as a loss." in said
    assert "You have 0 points." in said
    for stale in ("You left your last game", "Keep going", "next win counts", "top 10", "top 5",
                  "place", "on fire", "Next one"):
        assert stale not in said, stale

    # Let back in: the last game still says how it ended; the encouragement is back.
    arena_let_back(arena_id=arena.pk, player_id=player(arena, ann).pk)
    said = arena_page_words(ann, arena)
    assert "Your teacher took you out during your last game, so it counted as a loss." in said
    assert "You left your last game" not in said and "Keep going: your next win counts!" in said

    # Out again when the arena ends: no place (the podium leaves them out too).
    arena_take_out(arena_id=arena.pk, player_id=player(arena, ann).pk)
    arena_end(arena_id=arena.pk, stop_games=True)
    said = arena_page_words(ann, arena)
    assert "The arena is over. You played 1 game and won 0. Your teacher took you out of this arena before the end." in said
    assert "place" not in said


def test_a_child_who_leaves_a_game_themselves_still_reads_that_they_left_it(make_students, make_arena):
    ann, ben = make_students(2)
    arena = make_arena([ann, ben])
    arena_round(arena_id=arena.pk, force=True)
    signed_in(ann).post(reverse("games:stop", args=[game_of(arena, ann).pk]))
    arena_round(arena_id=arena.pk, force=True)
    assert "You left your last game, so it counted as a loss." in arena_page_words(ann, arena)


@pytest.mark.parametrize("place, players, expected", [
    (7, 8, "You're 7th of 8."), (9, 10, "You're 9th of 10."), (9, 11, "You're in the top 10!"),
    (4, 5, "You're 4th of 5."), (4, 6, "You're in the top 5!"), (3, 3, "You're in 3rd place!"),
])
def test_a_top_5_or_top_10_only_in_an_arena_of_more_than_that(place, players, expected):
    assert words.place_line(place, players, games=2) == expected


def test_the_summary_says_top_10_only_when_more_than_ten_played():
    summary = words.finished_line(games=2, wins=0, place=7, players=8, points=0, best=None, with_points=True)
    assert summary.endswith("You finished 7th of 8 with 0 points.")
    summary = words.finished_line(games=2, wins=0, place=7, players=30, points=0, best=None, with_points=True)
    assert summary.endswith("You finished in the top 10 with 0 points.")


def test_an_arena_ended_early_says_the_teacher_ended_it(make_students, make_arena):
    ann, ben, cat = make_students(3)
    arena = make_arena([ann, ben, cat])
    arena_round(arena_id=arena.pk, force=True)  # Ann and Ben at a table, Cat waits
    waiting = next(c for c in (ann, ben, cat) if player(arena, c).status == ArenaPlayer.Status.WAITING)
    arena_end(arena_id=arena.pk)
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHING and arena.ended_early
    said = arena_page_words(waiting, arena)
    assert "Your teacher ended the arena. The last games are finishing." in said
    assert "Time's up" not in said
    # The teacher's page and the projector carry it to their clocks (static/js/arena.js).
    teacher_page = signed_in(arena.classroom.teachers.first())
    for name in ("arena:control", "arena:screen"):
        page = teacher_page.get(reverse(name, args=[arena.pk])).content.decode()
        assert 'data-status="finishing" data-ended-early="1"' in page, name


def test_an_arena_whose_time_ran_out_says_time_is_up(make_students, make_arena):
    ann, ben, cat = make_students(3)
    arena = make_arena([ann, ben, cat], minutes=5)
    arena_round(arena_id=arena.pk, force=True)
    waiting = next(c for c in (ann, ben, cat) if player(arena, c).status == ArenaPlayer.Status.WAITING)
    arena_round(arena_id=arena.pk, now=later(6 * 60), force=True)
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHING and not arena.ended_early
    assert "Time's up! The last games are finishing." in arena_page_words(waiting, arena)
    page = signed_in(arena.classroom.teachers.first()).get(reverse("arena:control", args=[arena.pk]))
    assert "data-ended-early" not in page.content.decode()
    # Stopping the last games once the time is up ends nothing early.
    arena_end(arena_id=arena.pk, stop_games=True)
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED and not arena.ended_early
