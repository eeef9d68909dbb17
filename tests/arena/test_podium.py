"""The podium at the end of an arena shows ties as ties, however many children share a place:
the teacher's page, the projector, each child's own page and the CSV agree on who stands where."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from arena import screen
from arena.me import me_context
from arena.models import Arena, ArenaPlayer
from arena.services import arena_create, arena_end, arena_join

pytestmark = pytest.mark.django_db

NAMES = ["Ann Lee", "Ben Cho", "Cal Diaz", "Dee Ortiz", "Eve Park", "Fin Quinn", "Gus Reid", "Hal Wu"]


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


class PodiumReader(HTMLParser):
    """The words of each place on the page's podium (<ol class="podium">): one string a place
    (its place, the names on it, the points), as a person reads it."""

    def __init__(self):
        super().__init__()
        self.depth = 0  # inside the podium: how many <li> deep
        self.inside = False
        self.steps: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "ol" and "podium" in (dict(attrs).get("class") or "").split():
            self.inside = True
        elif self.inside and tag == "li":
            self.depth += 1
            if self.depth == 1:
                self.steps.append([])

    def handle_endtag(self, tag):
        if self.inside and tag == "li":
            self.depth -= 1
        elif self.inside and tag == "ol" and self.depth == 0:
            self.inside = False

    def handle_data(self, data):
        if self.inside and self.depth:
            self.steps[-1].append(data)


def podium_steps(html: str) -> list[str]:
    reader = PodiumReader()
    reader.feed(html)
    assert reader.steps, "no podium on the page"
    return [re.sub(r"\s+", " ", " ".join(step)).strip() for step in reader.steps]


def finished_arena(teacher, classroom, make_student, scores: dict[str, tuple[int, int]]) -> Arena:
    """An arena of the eight, ended, with these (points, wins) for the named (each played two
    games at least, and lost those they did not win); the others lost two."""
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                         key="smooth_operator", options={}, minutes=10, mode=Arena.Mode.POINTS)
    for name in NAMES:
        player = arena_join(student=make_student(classroom, name), arena_id=arena.pk)
        points, wins = scores.get(name, (0, 0))
        games = max(2, wins)
        ArenaPlayer.objects.filter(pk=player.pk).update(points=points, wins=wins, games=games,
                                                        losses=games - wins)
    arena_end(arena_id=arena.pk)  # nobody at a table: over at once
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    return arena


def csv_places(client, arena) -> dict[str, int]:
    response = client.get(reverse("arena:standings_csv", args=[arena.pk]))
    _, *rows = csv.reader(io.StringIO(response.content.decode()))
    return {row[1]: int(row[0]) for row in rows}


def test_four_children_tied_first_all_stand_on_the_podium_everywhere(
        client, teacher, classroom, make_student):
    arena = finished_arena(teacher, classroom, make_student, {
        "Ann Lee": (4, 2), "Ben Cho": (4, 2), "Cal Diaz": (4, 2), "Dee Ortiz": (4, 2), "Eve Park": (2, 1)})
    client.force_login(teacher)
    places = csv_places(client, arena)
    assert [places[n] for n in NAMES[:5]] == [1, 1, 1, 1, 5]

    desk = client.get(reverse("arena:control", args=[arena.pk])).content.decode()
    projector = screen.render(arena=arena)
    for html in (desk, projector):
        # One place, four children on it, and nobody in 2nd or 3rd (a tie of four fills it).
        assert podium_steps(html) == ["1st Ann L. Ben C. Cal D. Dee O. 4 pts"], podium_steps(html)

    # Each of the four reads that they share 1st place; the fifth is not told of a podium.
    for name in NAMES[:4]:
        player = ArenaPlayer.objects.select_related("arena", "user").get(arena=arena, user__display_name=name)
        summary = me_context(player)["summary"]
        assert "You finished in 1st place with 4 points." in summary
        assert "It's a tie: you share this place with 3 classmates." in summary
    eve = ArenaPlayer.objects.select_related("arena", "user").get(arena=arena, user__display_name="Eve Park")
    summary = me_context(eve)["summary"]
    assert "You finished in the top 5 with 2 points." in summary and "tie" not in summary


def test_a_tie_for_third_puts_every_child_of_that_place_on_the_podium(
        client, teacher, classroom, make_student):
    arena = finished_arena(teacher, classroom, make_student, {
        "Ann Lee": (6, 2), "Ben Cho": (4, 2), "Cal Diaz": (2, 1), "Dee Ortiz": (2, 1), "Eve Park": (2, 1)})
    client.force_login(teacher)
    assert [csv_places(client, arena)[n] for n in NAMES[:6]] == [1, 2, 3, 3, 3, 6]
    desk = client.get(reverse("arena:control", args=[arena.pk])).content.decode()
    for html in (desk, screen.render(arena=arena)):
        assert podium_steps(html) == ["1st Ann L. 6 pts", "2nd Ben C. 4 pts",
                                      "3rd Cal D. Dee O. Eve P. 2 pts"], podium_steps(html)


def test_a_child_taken_out_ahead_keeps_the_places_the_csv_gives(client, teacher, classroom, make_student):
    """A taken-out child is not on the podium; the places shown stay the standings' own."""
    arena = finished_arena(teacher, classroom, make_student, {
        "Ann Lee": (8, 4), "Ben Cho": (4, 2), "Cal Diaz": (4, 2), "Dee Ortiz": (2, 1)})
    ArenaPlayer.objects.filter(arena=arena, user__display_name="Ann Lee").update(status=ArenaPlayer.Status.OUT)
    client.force_login(teacher)
    desk = client.get(reverse("arena:control", args=[arena.pk])).content.decode()
    for html in (desk, screen.render(arena=arena)):
        assert podium_steps(html) == ["2nd Ben C. Cal D. 4 pts", "4th Dee O. 2 pts"], podium_steps(html)
