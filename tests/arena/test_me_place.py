"""A child's place on their own arena page is the place the teacher's standings give them,
ties included (arena/me.py counts the players ahead instead of reading every row: the bench
found reading 600 rows per push too slow for the player socket)."""

from __future__ import annotations

import pytest

from arena import selectors, words
from arena.me import me_context
from arena.models import ArenaPlayer

pytestmark = pytest.mark.django_db

# (points, wins): Ann and Ben level in 1st, Cat 3rd on wins, ..., Kim and Leo level in 11th.
SCORES = {"Ann": (20, 5), "Ben": (20, 5), "Cat": (20, 4), "Dan": (18, 4), "Eve": (16, 4),
          "Fay": (14, 3), "Gus": (12, 3), "Hal": (10, 2), "Ivy": (8, 2), "Jon": (6, 1),
          "Kim": (2, 1), "Leo": (2, 1)}


def test_each_childs_place_matches_the_standings_ties_included(make_students, make_arena):
    arena = make_arena(make_students(12), started=False)
    for player in arena.players.select_related("user"):
        points, wins = SCORES[player.user.display_name]
        ArenaPlayer.objects.filter(pk=player.pk).update(points=points, wins=wins, games=wins + 1)
    places = {p.user.display_name: p.place for p in selectors.standings(arena=arena)}
    assert places["Ann"] == places["Ben"] == 1 and places["Cat"] == 3
    assert places["Kim"] == places["Leo"] == 11

    for player in arena.players.select_related("arena", "user", "game"):
        context = me_context(player)
        place = places[player.user.display_name]
        tied = list(places.values()).count(place) - 1  # classmates sharing the place
        assert context["place"] == words.place_line(place, 12, player.games, tied=tied)
        assert context["summary"] == words.finished_line(
            games=player.games, wins=player.wins, place=place, players=12, points=player.points,
            best=None, with_points=True, tied=tied)
    ann = arena.players.select_related("arena", "user", "game").get(user__display_name="Ann")
    assert me_context(ann)["place"] == "You're in 1st place! It's a tie: you share this place with 1 classmate."
    kim = arena.players.select_related("arena", "user", "game").get(user__display_name="Kim")
    assert "11th of 12" in me_context(kim)["summary"]
