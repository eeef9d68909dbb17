"""`python manage.py reading_level`: how hard the English children's pages are to read (docs/i18n.md).

Renders each page a child reads (signing in to the class, their home page, a table in play of
every game, their progress, the class arena) as a child would see it, in English, and prints the
Flesch-Kincaid grade of its visible text (textstat; no network). The aim is grade ~3: what an
8-year-old reads. The world the pages show (a class, its students, a game of each kind, an
arena) is made inside a transaction that is rolled back: the database is left as it was.

How the text is read: each piece of text on its own (a heading, a button, a paragraph) counts
as a sentence, as a child reads a button's label on its own; what is not shown (scripts,
styles, the <head>) is left out. Words people typed (the names of the world's children) are the
same short ones on every page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse
from django.utils import translation

# The game tables are named after each game: "Table in play: Numero".
TABLE = "Table in play: "
FIXED_PAGES = ("Class sign-in: the class code", "Class sign-in: pick your name",
               "Class sign-in: your pictures", "Student home", "Ready to play (an assignment)",
               "My progress", "Arena: type the code", "Arena: my arena page")


@dataclass(frozen=True)
class PageLevel:
    name: str
    url: str
    grade: float
    words: int


class _ShownText(HTMLParser):
    SKIPPED = {"script", "style", "template", "head"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skipping = 0
        self.pieces: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIPPED:
            self.skipping += 1

    def handle_endtag(self, tag):
        if tag in self.SKIPPED and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        text = " ".join(data.split())
        if not self.skipping and re.search(r"[A-Za-z]", text):
            self.pieces.append(text)


def shown_text(html: str) -> str:
    """The page's visible text, each piece a sentence of its own."""
    parser = _ShownText()
    parser.feed(html)
    return " ".join(p if p[-1] in ".!?:" else p + "." for p in parser.pieces)


def _world():
    """A class with three children, an assignment, a game of each kind and an arena."""
    from accounts.services import student_create, teacher_sign_up
    from arena.services import arena_create
    from classroom.models import Assignment, Classroom
    from games import registry
    from games.services import SeatSpec, game_create

    teacher = teacher_sign_up(name="Ms Reading", email="reading-level@example.invalid",
                              password="reading-level-42")
    classroom = Classroom.objects.create(name="Class 3A", owner=teacher)
    classroom.teachers.add(teacher)
    children = [student_create(classroom=classroom, display_name=name, picture_password=pictures)
                for name, pictures in (("Ann", ["cat", "sun", "tree"]), ("Ben", ["boat", "star", "apple"]),
                                       ("Cal", ["cat", "boat", "sun"]))]
    games = registry.all_games()
    Assignment.objects.create(classroom=classroom, title="Warm-up", game=games[0].key, opponents="bots",
                              bot_count=max(games[0].min_players - 1, 1), created_by=teacher)
    tables = {}
    for spec in games:
        seated = (children * spec.min_players)[:max(spec.min_players, 1)]
        tables[spec.name] = game_create(key=spec.key, classroom=classroom, seed=7, announce=False,
                                        options=dict(spec.free_play_options) or None,
                                        seats=[SeatSpec(child.display_name, user=child) for child in seated])
    arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena", key=games[0].key,
                         options=dict(games[0].free_play_options), minutes=10, mode="points")
    return classroom, children[0], tables, arena


def _pages(classroom, child, tables, arena) -> list[tuple[str, str, Client]]:
    visitor, signed_in = Client(), Client()
    signed_in.force_login(child)
    assignment = classroom.assignments.get()
    code = classroom.join_code
    pages = [
        ("Class sign-in: the class code", reverse("classroom:join"), visitor),
        ("Class sign-in: pick your name", reverse("classroom:join_class", args=[code]), visitor),
        ("Class sign-in: your pictures", reverse("classroom:join_pictures", args=[code, child.pk]), visitor),
        ("Student home", reverse("classroom:student_home"), signed_in),
        ("Ready to play (an assignment)", reverse("classroom:assignment_start", args=[assignment.pk]), signed_in),
        ("My progress", reverse("reports:my_progress"), signed_in),
        ("Arena: type the code", reverse("arena:join"), signed_in),
        ("Arena: my arena page", reverse("arena:play", args=[arena.pk]), signed_in),
    ]
    pages += [(TABLE + name, reverse("games:game", args=[game.pk]), signed_in) for name, game in tables.items()]
    return pages


def reading_levels() -> list[PageLevel]:
    import textstat

    from arena.services import arena_join

    levels, problems = [], []
    # The test client's host; the world and the sessions it signs in are rolled back at the end.
    with override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"]), translation.override("en"):
        with transaction.atomic():
            classroom, child, tables, arena = _world()
            arena_join(student=child, arena_id=arena.pk)
            for name, url, client in _pages(classroom, child, tables, arena):
                # "Ready to play" resumes a game in progress: this world has none for the assignment.
                response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
                if response.status_code != 200:
                    problems.append(f"{name} ({url}): {response.status_code}")
                    continue
                text = shown_text(response.content.decode())
                levels.append(PageLevel(name, url, textstat.flesch_kincaid_grade(text),
                                        textstat.lexicon_count(text)))
            transaction.set_rollback(True)
    if problems:
        raise CommandError("Pages that did not render: " + "; ".join(problems))
    return levels


class Command(BaseCommand):
    help = "Print the Flesch-Kincaid grade of each English page a child reads (aim: about 3)."

    def handle(self, *args, **options):
        levels = reading_levels()
        self.stdout.write(f"{'grade':>6}  {'words':>5}  page")
        for level in levels:
            self.stdout.write(f"{level.grade:6.1f}  {level.words:5d}  {level.name}  ({level.url})")
        average = sum(level.grade for level in levels) / len(levels)
        self.stdout.write(f"{average:6.1f}         average of {len(levels)} children's pages (aim: about 3)")
