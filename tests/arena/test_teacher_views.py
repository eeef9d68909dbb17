"""The teacher's side of a class arena, as a teacher uses it: the form that starts one, the
controls, the standings as a CSV, and who may reach any of it."""

import csv
import io
import re

import pytest
from django.urls import reverse

from arena.models import Arena, ArenaPlayer
from arena.services import arena_create, arena_join, arena_round, arena_start
from classroom import presets
from games.models import PlayerRating
from tests import clients
from tests.conftest import classroom_of

pytestmark = pytest.mark.django_db


def text(page: str) -> str:
    """What the page says, without its tags (names and numbers sit in <bdi> and <strong>)."""
    return re.sub(r"<[^>]+>", "", page)


@pytest.fixture
def signed_in(teacher):
    return clients.signed_in(teacher)


@pytest.fixture
def arena(teacher, classroom):
    return arena_create(teacher=teacher, classroom=classroom, title="Friday arena",
                        key="smooth_operator", options={}, minutes=10, mode="points")


@pytest.fixture
def players(arena, make_student, classroom):
    names = ["Ann Baker", "Ben Cole", "Cara Diaz", "Dev Evans"]
    return [arena_join(student=make_student(classroom, name), arena_id=arena.pk) for name in names]


def new_arena_data(classroom, **extra):
    data = {"game": "smooth_operator", "preset": "short", "table_size": "2", "minutes": "15",
            "mode": "no_points", "classes": [str(classroom.pk)], "joining": "everyone",
            "title": "Maths arena"}
    data.update(extra)
    return data


def test_a_teacher_starts_an_arena_with_the_chosen_game_level_time_mode_and_classes(
        signed_in, teacher, classroom):
    second = classroom_of(teacher, name="Class 6A", join_code="DEF567")
    response = signed_in.post(reverse("arena:new", args=[classroom.pk]),
                              new_arena_data(classroom, classes=[str(second.pk)], table_size="3"))
    arena = Arena.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("arena:control", args=[arena.pk])
    assert arena.title == "Maths arena" and arena.key == "smooth_operator"
    assert arena.options == presets.presets_for("smooth_operator")["short"]["options"]
    assert arena.minutes == 15 and arena.mode == Arena.Mode.NO_POINTS and arena.table_size == 3
    # The host class is always in, even when its box was not sent back ticked.
    assert set(arena.classes.all()) == {classroom, second}
    assert arena.joining == Arena.Joining.EVERYONE
    page = signed_in.get(response["Location"])
    assert arena.join_code in page.content.decode()


def test_only_chosen_students_may_join_when_the_teacher_chooses_them(signed_in, classroom, make_student):
    ann = make_student(classroom, "Ann Baker")
    make_student(classroom, "Ben Cole")
    signed_in.post(reverse("arena:new", args=[classroom.pk]),
                   new_arena_data(classroom, joining="chosen", students=[str(ann.pk)]))
    arena = Arena.objects.get()
    assert arena.joining == Arena.Joining.CHOSEN and list(arena.students.all()) == [ann]


@pytest.mark.parametrize("minutes", ["3", "41", "ten"])
def test_minutes_outside_5_to_40_are_refused_with_a_message_and_nothing_is_created(
        signed_in, classroom, minutes):
    response = signed_in.post(reverse("arena:new", args=[classroom.pk]),
                              new_arena_data(classroom, minutes=minutes))
    assert response.status_code == 200
    assert not Arena.objects.exists()
    page = response.content.decode()
    assert "minutes" in page and 'class="error"' in page


def test_a_level_of_another_game_is_refused_when_the_game_changed_without_javascript(
        signed_in, classroom):
    # The page showed Smooth Operator's levels; the game was switched to Numero without the
    # form being rebuilt, so "short" (not a Numero level) comes back.
    response = signed_in.post(reverse("arena:new", args=[classroom.pk]),
                              new_arena_data(classroom, game="numero", preset="short"))
    assert response.status_code == 200 and not Arena.objects.exists()
    page = response.content.decode()
    assert "Choose one of the levels offered for this game." in page
    assert 'value="level1"' in page  # the form now offers Numero's levels


def test_a_game_played_alone_or_a_table_too_big_is_refused(signed_in, classroom):
    alone = signed_in.post(reverse("arena:new", args=[classroom.pk]),
                           new_arena_data(classroom, game="numero_solitaire", preset="level1"))
    assert "Choose a game classmates can play together." in alone.content.decode()
    big = signed_in.post(reverse("arena:new", args=[classroom.pk]),
                         new_arena_data(classroom, table_size="9"))
    assert "played by 2 to 4 players" in big.content.decode()
    assert not Arena.objects.exists()


def test_the_form_offers_only_games_for_several_players_and_the_teachers_own_classes(
        signed_in, classroom, other_classroom):
    page = signed_in.get(reverse("arena:new", args=[classroom.pk])).content.decode()
    assert "Smooth Operator" in page and "Numero Solitaire" not in page
    assert other_classroom.name not in page
    assert signed_in.get(reverse("arena:new", args=[other_classroom.pk])).status_code == 404


def test_changing_the_game_rebuilds_only_the_fields_for_that_game(signed_in, classroom):
    response = signed_in.get(reverse("arena:new", args=[classroom.pk]), {"game": "numero"},
                             HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="arena-fields">')
    assert 'value="level3"' in page and "<html" not in page


def arena_urls(arena, player):
    get = ["control", "control_live", "screen", "standings_csv"]
    post = ["start", "pause", "resume", "end", "let_in"]
    return ([("get", reverse(f"arena:{name}", args=[arena.pk])) for name in get]
            + [("post", reverse(f"arena:{name}", args=[arena.pk])) for name in post]
            + [("post", reverse(f"arena:{name}", args=[arena.pk, player.pk]))
               for name in ("take_out", "let_back")])


def test_another_teacher_gets_404_on_every_arena_url_and_changes_nothing(
        client, arena, players, other_teacher):
    client.force_login(other_teacher)
    for method, url in arena_urls(arena, players[0]):
        assert getattr(client, method)(url).status_code == 404, url
    arena.refresh_from_db()
    assert arena.status == Arena.Status.OPEN


def test_a_student_is_turned_away_from_every_teacher_url(client, arena, players):
    client.force_login(players[0].user)
    for method, url in arena_urls(arena, players[0]):
        assert getattr(client, method)(url).status_code in (403, 404), url
    assert client.get(reverse("arena:new", args=[arena.classroom_id])).status_code == 403


def test_the_control_page_says_what_to_do_when_nobody_has_joined(signed_in, arena):
    page = signed_in.get(reverse("arena:control", args=[arena.pk])).content.decode()
    assert ("Nobody has joined yet. Put the projector screen up: students join with the code on it "
            f"or its QR code. {arena.join_code}") in text(page)
    assert reverse("arena:screen", args=[arena.pk]) in page
    # Starting with nobody in says why and changes nothing.
    response = signed_in.post(reverse("arena:start", args=[arena.pk]), follow=True)
    assert "Nobody has joined yet" in response.content.decode()
    arena.refresh_from_db()
    assert arena.status == Arena.Status.OPEN


def test_start_pause_resume_and_end_run_the_arena_as_the_teacher_sees_it(signed_in, arena, players):
    control = reverse("arena:control", args=[arena.pk])
    page = signed_in.post(reverse("arena:start", args=[arena.pk]), follow=True).content.decode()
    assert "The arena has started" in page and ">Pause</button>" in page
    arena.refresh_from_db()
    assert arena.status == Arena.Status.RUNNING and arena.ends_at is not None

    page = signed_in.post(reverse("arena:pause", args=[arena.pk]), follow=True).content.decode()
    assert "Paused: the clock has stopped" in page and ">Resume</button>" in page
    arena.refresh_from_db()
    assert arena.status == Arena.Status.PAUSED and arena.remaining_seconds > 500

    # Pausing twice: said plainly, nothing changes.
    page = signed_in.post(reverse("arena:pause", args=[arena.pk]), follow=True).content.decode()
    assert "Only a running arena can be paused." in page

    signed_in.post(reverse("arena:resume", args=[arena.pk]))
    arena.refresh_from_db()
    assert arena.status == Arena.Status.RUNNING

    # Nobody is at a table, so ending early finishes at once and shows the results.
    page = signed_in.post(reverse("arena:end", args=[arena.pk]), follow=True).content.decode()
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED
    assert "Download the standings (CSV)" in page and "Podium" in page
    assert signed_in.get(control).status_code == 200


def test_ending_while_games_are_played_lets_them_finish_then_stopping_them_ends_it(
        signed_in, arena, players):
    arena_start(arena_id=arena.pk)
    arena_round(arena_id=arena.pk, force=True)
    assert ArenaPlayer.objects.filter(arena=arena, status=ArenaPlayer.Status.PLAYING).count() == 4
    page = signed_in.post(reverse("arena:end", args=[arena.pk]), follow=True).content.decode()
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHING
    assert "Stop the games still playing" in page
    signed_in.post(reverse("arena:end", args=[arena.pk]), {"stop_games": "1"})
    arena.refresh_from_db()
    assert arena.status == Arena.Status.FINISHED


def test_a_late_student_asks_to_join_and_the_teacher_lets_them_in(
        signed_in, arena, players, make_student, classroom):
    arena_start(arena_id=arena.pk)
    late = arena_join(student=make_student(classroom, "Lee Late"), arena_id=arena.pk)
    late_two = arena_join(student=make_student(classroom, "Mo Late"), arena_id=arena.pk)
    page = signed_in.get(reverse("arena:control_live", args=[arena.pk])).content.decode()
    assert "Asking to join (2)" in page and "Let everyone in (2)" in page
    signed_in.post(reverse("arena:let_in", args=[arena.pk]), {"player": str(late.pk)})
    late.refresh_from_db(), late_two.refresh_from_db()
    assert late.status == ArenaPlayer.Status.WAITING and late_two.status == ArenaPlayer.Status.LATE
    page = signed_in.post(reverse("arena:let_in", args=[arena.pk]), {"all": "1"},
                          follow=True).content.decode()
    late_two.refresh_from_db()
    assert late_two.status == ArenaPlayer.Status.WAITING and "Let in: 1 student" in page


def test_taking_a_student_out_asks_first_then_ends_their_game_as_a_loss(signed_in, arena, players):
    arena_start(arena_id=arena.pk)
    arena_round(arena_id=arena.pk, force=True)
    ann = ArenaPlayer.objects.get(pk=players[0].pk)
    assert ann.status == ArenaPlayer.Status.PLAYING
    ask = signed_in.get(reverse("arena:control", args=[arena.pk]), {"out": ann.pk}).content.decode()
    assert "Take Ann Baker out of the arena?" in text(ask) and "counts as a loss for them" in ask
    ann.refresh_from_db()
    assert ann.status == ArenaPlayer.Status.PLAYING  # asking changed nothing

    page = signed_in.post(reverse("arena:take_out", args=[arena.pk, ann.pk]), follow=True).content.decode()
    ann.refresh_from_db()
    assert ann.status == ArenaPlayer.Status.OUT and ann.losses == 1
    assert "Ann Baker is out of the arena" in page and "Let back in" in page

    signed_in.post(reverse("arena:let_back", args=[arena.pk, ann.pk]))
    ann.refresh_from_db()
    assert ann.status == ArenaPlayer.Status.WAITING


def test_the_csv_rows_are_the_standings_of_the_page(signed_in, arena, players):
    points = {players[0].pk: 2, players[1].pk: 7, players[2].pk: 7, players[3].pk: 0}
    for player in players:
        ArenaPlayer.objects.filter(pk=player.pk).update(points=points[player.pk], games=2,
                                                        wins=points[player.pk] // 2)
    response = signed_in.get(reverse("arena:standings_csv", args=[arena.pk]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="friday-arena-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["Place", "Name", "Class", "Points"]
    assert [(r[0], r[1], r[3]) for r in rows[1:]] == [
        ("1", "Ben Cole", "7"), ("1", "Cara Diaz", "7"), ("3", "Ann Baker", "2"), ("4", "Dev Evans", "0")]
    assert all(r[2] == "Class 5B" for r in rows[1:])
    page = signed_in.get(reverse("arena:control_live", args=[arena.pk])).content.decode()
    # The page lists the same students in the same order.
    order = [page.index(name) for name in ("Ben Cole", "Cara Diaz", "Ann Baker", "Dev Evans")]
    assert order == sorted(order)


def test_the_class_page_links_to_start_an_arena_and_lists_its_arenas(signed_in, arena, classroom):
    page = signed_in.get(reverse("classroom:class_detail", args=[classroom.pk])).content.decode()
    assert reverse("arena:new", args=[classroom.pk]) in page and "Start an arena" in page
    assert reverse("arena:control", args=[arena.pk]) in page and "Friday arena" in page


def test_with_no_points_the_finished_page_shows_personal_bests_and_most_improved(
        signed_in, teacher, classroom, make_student):
    arena = arena_create(teacher=teacher, classroom=classroom, title="Calm arena",
                         key="smooth_operator", options={}, minutes=10, mode="no_points")
    ann = arena_join(student=make_student(classroom, "Ann Baker"), arena_id=arena.pk)
    ben = arena_join(student=make_student(classroom, "Ben Cole"), arena_id=arena.pk)
    ArenaPlayer.objects.filter(pk=ann.pk).update(games=3, wins=2, best_score=412, rating_at_start=1200)
    ArenaPlayer.objects.filter(pk=ben.pk).update(games=3, wins=1, best_score=388, rating_at_start=1300)
    PlayerRating.objects.create(user=ann.user, key="smooth_operator", rating=1242)
    PlayerRating.objects.create(user=ben.user, key="smooth_operator", rating=1290)
    signed_in.post(reverse("arena:end", args=[arena.pk]))
    page = signed_in.get(reverse("arena:control", args=[arena.pk])).content.decode()
    assert "Personal bests" in page and "Ann Baker: 412" in text(page)
    assert "Ben Cole: 388" in text(page)
    assert "Most improved" in page and "Ann Baker (improved most: +42)" in text(page)
    assert "improved most: -" not in page and "Podium" not in page


def test_an_arena_can_practise_one_skill_and_its_games_are_dealt_for_it(client, teacher, classroom):
    """"Or a focus, as assignments have": the form offers the game's skills whose practice
    deals the games differently; the arena keeps the focus and deals its tables with it."""
    client.force_login(teacher)
    form = client.get(reverse("arena:new", args=[classroom.pk]) + "?game=multiplication")
    assert "Squares" in form.content.decode()
    response = client.post(reverse("arena:new", args=[classroom.pk]), {
        "game": "multiplication", "preset": next(iter(presets.presets_for("multiplication"))),
        "focus": "mg.squares", "table_size": 2,
        "minutes": 10, "mode": "points", "joining": "everyone", "classes": [classroom.pk]})
    arena = Arena.objects.get()
    assert response.status_code == 302, response.content.decode()[:3000]
    assert arena.focus["label"] == "Squares"
    assert arena.options["focus_facts"] == [f"{k}x{k}" for k in range(1, 11)]
    page = client.get(reverse("arena:control", args=[arena.pk])).content.decode()
    assert "practising Squares" in page


def test_a_skill_of_another_game_is_refused_and_nothing_is_made(client, teacher, classroom):
    client.force_login(teacher)
    response = client.post(reverse("arena:new", args=[classroom.pk]), {
        "game": "multiplication", "preset": next(iter(presets.presets_for("multiplication"))),
        "focus": "nu.best_take", "table_size": 2, "minutes": 10, "mode": "points",
        "joining": "everyone", "classes": [classroom.pk]})
    assert response.status_code == 200
    assert "Choose one of the skills offered for this game." in response.content.decode()
    assert not Arena.objects.exists()
