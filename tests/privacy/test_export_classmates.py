"""A child's data export holds that child's data only: of a game shared with classmates, the
classmates are "another player" and the computer players "a computer player", everywhere
(the moves' actions and analysis, the verdicts' facts, who won, the rating changes, the
arena's records). No classmate's name, username, id or rating is anywhere in the zip, in any
encoding.

The world: Ann plays every kind of shared game (Smooth Operator, Add or Multiply?, Numero,
The Multiplication Game, an arena game) with her classmates Zoë and Yusuf and computer
players, through the real services; every game is reported and rated. The classmates' ids
and ratings are numbers that appear nowhere else, so finding one in the zip is a leak.
"""

from __future__ import annotations

import html
import io
import json
import urllib.parse
import zipfile
from dataclasses import dataclass

import pytest
from django.core.management.color import no_style
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.services import student_create
from arena.models import ArenaPlayer
from classroom.models import Classroom
from games.models import Game, Move, PlayerRating, RatingChange
from games.services import SeatSpec, game_create
from games.services.ratings import ratings_update_for_game
from games.services.tables import table_invite, table_open
from reports import services as reports_services
from tests.arena.conftest import play_to_end
from tests.classroom.test_permission_matrix import build_world as classroom_world
from tests.conftest import module_world
from tests.privacy.conftest import arena_played

pytestmark = pytest.mark.django_db

FIRST_CLASSMATE_ID = 7_391_000  # ids from here are found nowhere else in an export
CLASSMATE_RATING = 1487.375     # nor are ratings near this one (Ann and the bots start lower)


@dataclass
class World:
    owner: User
    ann: User
    classmates: list[User]
    classroom: Classroom
    games: list[Game]


def _next_user_ids_from(first: int) -> None:
    """Make the next accounts' ids start at `first` (SQLite's AUTOINCREMENT follows the
    highest id ever used; PostgreSQL's sequence is set to it)."""
    marker = User.objects.create(pk=first - 1, username=f"id-marker-{first}")
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [User]):
            cursor.execute(sql)
    marker.delete()


def _shared(key: str, classroom, seats: list[SeatSpec], seed: int, options: dict | None = None) -> Game:
    game = game_create(key=key, classroom=classroom, seed=seed, options=options, seats=seats)
    play_to_end(game)
    reports_services.game_finished(game_id=game.pk)
    ratings_update_for_game(game_id=game.pk)
    game.refresh_from_db()
    return game


def build_world() -> World:
    base = classroom_world()
    ann, classroom = base.student, base.classroom
    _next_user_ids_from(FIRST_CLASSMATE_ID)
    zoe = student_create(classroom=classroom, display_name="Zoë Quintero",
                         picture_password=["boat", "star", "apple"])
    yusuf = student_create(classroom=classroom, display_name="Yusuf Wexley",
                           picture_password=["moon", "sun", "fish"])
    assert zoe.pk >= FIRST_CLASSMATE_ID and yusuf.pk > FIRST_CLASSMATE_ID
    for classmate in (zoe, yusuf):
        for key in ("smooth_operator", "add_or_multiply", "numero", "multiplication"):
            PlayerRating.objects.create(user=classmate, key=key, rating=CLASSMATE_RATING, games=12)

    def seat(student):
        return SeatSpec(student.display_name, user=student)

    games = [
        _shared("smooth_operator", classroom, [seat(ann), seat(zoe), SeatSpec("Robo", bot_level="player")],
                seed=9, options={"target": 200}),
        _shared("smooth_operator", classroom, [seat(yusuf), seat(ann)], seed=21, options={"target": 200}),
        _shared("add_or_multiply", classroom, [seat(ann), seat(zoe), seat(yusuf)], seed=3),
        _shared("add_or_multiply", classroom, [seat(zoe), seat(ann), SeatSpec("Zip", bot_level="expert")],
                seed=4),
        _shared("numero", classroom, [seat(ann), seat(yusuf), SeatSpec("Bolt", bot_level="beginner")], seed=5),
        _shared("multiplication", classroom, [seat(zoe), seat(ann), SeatSpec("Nova", bot_level="player")],
                seed=6),
    ]
    # An arena game against Yusuf, counted, reported and rated.
    table = arena_played(base.owner, classroom, [ann, yusuf])
    reports_services.game_finished(game_id=table.game_id)
    ratings_update_for_game(game_id=table.game_id)
    games.append(table.game)
    # A table Zoë opened and invited Ann to.
    hers = table_open(student=zoe, key="smooth_operator")
    table_invite(host=zoe, game_id=hers.pk, student_id=ann.pk)
    return World(owner=base.owner, ann=ann, classmates=[zoe, yusuf], classroom=classroom, games=games)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with module_world(django_db_blocker):
        yield build_world()


def _ann_zip(world) -> dict[str, bytes]:
    client = Client()
    client.force_login(world.owner)
    response = client.get(reverse("privacy:student_export", args=[world.ann.pk]))
    assert response.status_code == 200
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _spellings(text: str) -> set[bytes]:
    """`text` as any file of the zip could hold it: any case, UTF-8, UTF-16, JSON's \\u
    escapes, HTML entities, a URL."""
    found = set()
    for variant in {text, text.lower(), text.upper(), text.casefold()}:
        for encoding in ("utf-8", "utf-16-le", "utf-16-be"):
            found.add(variant.encode(encoding))
        found.add(json.dumps(variant)[1:-1].encode("ascii"))
        found.add(html.escape(variant).encode("utf-8"))
        found.add(urllib.parse.quote(variant).encode("ascii"))
    return found


def _ratings(student: User) -> set[float]:
    """Every rating the student ever had."""
    found = set(PlayerRating.objects.filter(user=student).values_list("rating", flat=True))
    for before, after in RatingChange.objects.filter(user=student).values_list("before", "after"):
        found |= {before, after}
    found |= set(ArenaPlayer.objects.filter(user=student).values_list("rating_at_start", flat=True))
    return found


def _needles(student: User) -> dict[bytes, str]:
    """Byte strings that would give the classmate away -> what they are."""
    needles = {}
    for what, text in [("name", student.display_name), ("first name", student.display_name.split()[0]),
                       ("last name", student.display_name.split()[1]), ("username", student.username),
                       ("id", str(student.pk))]:
        needles.update({b: f"{student.display_name}'s {what}" for b in _spellings(text)})
    for rating in _ratings(student):
        for text in {repr(rating), f"{rating:.1f}", f"{rating:.2f}"}:
            needles.update({b: f"{student.display_name}'s rating {text}" for b in _spellings(text)})
    return needles


def test_the_world_names_the_classmates_where_a_careless_export_would_find_them(world):
    """The games really hold what the export must not pass on: the classmates' names in Ann's
    moves (whose turn it was in her explained verdicts, whom she played a card on) and in who
    won, and their ratings in her rating changes."""
    names = {c.display_name for c in world.classmates}
    ann_moves = Move.objects.filter(seat__user=world.ann)
    analyses = json.dumps(list(ann_moves.values_list("analysis", flat=True)), ensure_ascii=False)
    actions = json.dumps(list(ann_moves.values_list("action", flat=True)), ensure_ascii=False)
    assert all(name in analyses for name in names) and any(name in actions for name in names)
    winners = json.dumps([g.state["winners"] for g in world.games], ensure_ascii=False)
    assert any(name in winners for name in names)
    opponents = [o for row in RatingChange.objects.filter(user=world.ann).values_list("opponents", flat=True)
                 for o in row]
    assert {o["name"] for o in opponents} >= names
    classmate_ratings = {round(r, 1) for c in world.classmates for r in _ratings(c)}
    assert any(o["rating"] in classmate_ratings for o in opponents)
    assert len({g.key for g in world.games}) == 4


def test_no_classmate_is_anywhere_in_the_childs_zip(world):
    files = _ann_zip(world)
    leaks = []
    for classmate in world.classmates:
        for needle, what in _needles(classmate).items():
            for name, content in files.items():
                if needle in content or needle in name.encode("utf-8"):
                    leaks.append(f"{what} in {name}")
    assert not leaks, sorted(set(leaks))


def test_classmates_are_another_player_and_computers_a_computer_player(world):
    files = _ann_zip(world)
    ann = world.ann.display_name
    moves = json.loads(files["moves.json"])
    smooth = [m for m in moves if m["game key"] == "smooth_operator" and m["analysis"].get("kind") == "response"]
    # In her explained verdicts, whose turn it was: her own name, or who they were to her.
    assert {m["analysis"]["active"] for m in smooth} >= {"another player"}
    assert all(m["analysis"]["player"] == ann for m in moves if m["analysis"].get("player"))
    # Whom she played her cards on in Add or Multiply?: two others, told apart.
    targets = [set(m["action"]["on"]) for m in moves if m["game key"] == "add_or_multiply" and m["accepted"]]
    assert {"another player", "another player (2)"} in targets
    assert {"another player", "a computer player"} in targets
    # Who won: herself by name, the others as who they were.
    winners = {w for g in json.loads(files["games.json"]) for w in (g["game state winners"] or [])}
    assert winners <= {ann, "another player", "another player (2)", "a computer player"}
    assert winners - {ann}
    # Her rating changes: who was at the table, a computer player's level, nobody's rating.
    for change in json.loads(files["rating_changes.json"]):
        for opponent in change["opponents"]:
            assert set(opponent) <= {"name", "level"}
            assert opponent["name"].startswith("another player") == (opponent["level"] == "")
    assert len(json.loads(files["rating_changes.json"])) == len(world.games)


def test_the_readme_says_who_the_others_are(world):
    readme = _ann_zip(world)["README.txt"].decode("utf-8")
    assert '"another player"' in readme and '"a computer player"' in readme

