"""Erasing a student: afterwards no row anywhere refers to them, their classmates keep their
shared games (showing "a former student"), and the counts are those the confirmation showed."""

import json

import pytest
from django.apps import apps
from django.core.files.storage import default_storage
from django.urls import reverse

from accounts.models import User
from games.models import Game, RatingChange, Seat
from privacy import registry
from privacy.erasure import ErasureIncomplete, erase_student, erasure_preview
from reports.models import SkillEvidence

pytestmark = pytest.mark.django_db


def rows_referring_to(user_id: int) -> dict[str, int]:
    """Rows of every installed model with a foreign key, one-to-one or many-to-many link to
    this user: declared or not, ours or Django's."""
    user_model = apps.get_model("accounts", "User")
    found = {}
    for model in apps.get_models():
        for field in [*model._meta.fields, *model._meta.many_to_many]:
            if field.is_relation and field.related_model is user_model:
                n = model._default_manager.filter(**{field.name: user_id}).count()
                if n:
                    found[f"{model._meta.label}.{field.name}"] = n
    return found


def test_ann_has_rows_in_every_declared_kind(world):
    """Otherwise the erasure test below would prove nothing for the kinds she lacks."""
    assert set(erasure_preview(student=world.ann)) == {h.kind for h in registry.declarations()}


def test_erasing_leaves_no_row_that_refers_to_the_student(world):
    preview = erasure_preview(student=world.ann)
    ann_id = world.ann.pk

    counts = erase_student(student=world.ann, erased_by=world.owner)

    assert counts == preview
    for held in registry.declarations():
        assert not held.rows(ann_id).exists(), held.kind
    assert rows_referring_to(ann_id) == {}
    assert not User.objects.filter(pk=ann_id).exists()


def test_classmates_keep_their_shared_game_with_a_former_student(world, client):
    game = world.shared_game
    erase_student(student=world.ann)

    game.refresh_from_db()
    names = sorted(Seat.objects.filter(game=game).values_list("name", "user_id"))
    assert names == [("Ben", world.ben.pk), ("a former student", None)]
    # Nowhere in the game is her name left: not in the engine's state, events or moves.
    text = json.dumps([game.state, game.recent_events,
                       list(game.moves.values_list("action", "events", "analysis"))])
    assert '"Ann"' not in text and "a former student" in text
    change = RatingChange.objects.get(game=game, user=world.ben)
    assert [o["name"] for o in change.opponents] == ["a former student"]
    # Ben's results page shows it.
    client.force_login(world.ben)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "a former student" in page and ">Ann<" not in page


def test_games_nobody_else_played_are_deleted(world):
    erase_student(student=world.ann)
    assert not Game.objects.filter(pk=world.solo_game.pk).exists()


def test_classmates_and_other_classes_keep_everything_of_theirs(world):
    ben_evidence = SkillEvidence.objects.filter(student=world.ben).count()
    olga_rows = rows_referring_to(world.olga.pk)
    erase_student(student=world.ann)
    assert SkillEvidence.objects.filter(student=world.ben).count() == ben_evidence
    assert rows_referring_to(world.olga.pk) == olga_rows
    world.ann_and_ben.refresh_from_db()
    assert list(world.ann_and_ben.students.all()) == [world.ben]


def test_work_set_for_her_alone_goes_rather_than_becoming_the_whole_class(world):
    erase_student(student=world.ann)
    assert not world.classroom.assignments.filter(pk=world.only_ann.pk).exists()


def test_class_report_files_that_name_her_are_deleted(world, django_capture_on_commit_callbacks):
    name = world.export.file.name
    assert default_storage.exists(name)
    with django_capture_on_commit_callbacks(execute=True):
        erase_student(student=world.ann)
    assert not default_storage.exists(name)


def test_an_erasure_that_would_leave_rows_erases_nothing(world, monkeypatch):
    """The check before commit: a declaration whose erasure leaves rows rolls everything back."""
    held = registry.held("ratings")
    broken = tuple(registry.Held(**{**held.__dict__, "erase": "follows"}) if h is held else h
                   for h in registry.declarations())
    monkeypatch.setattr("privacy.erasure.declarations", lambda: broken)
    before = rows_referring_to(world.ann.pk)
    with pytest.raises(ErasureIncomplete, match="ratings"):
        erase_student(student=world.ann)
    assert rows_referring_to(world.ann.pk) == before


def test_only_students_can_be_erased(world):
    with pytest.raises(ValueError):
        erase_student(student=world.owner)
    assert User.objects.filter(pk=world.owner.pk).exists()


def test_erasing_a_class_erases_its_students_and_everything_of_the_class(world):
    from classroom.models import Classroom
    from privacy.erasure import classroom_erasure_preview, erase_classroom

    students = list(User.objects.filter(memberships__classroom=world.classroom).values_list("pk", flat=True))
    olga_rows = rows_referring_to(world.olga.pk)
    preview = classroom_erasure_preview(classroom=world.classroom)
    assert preview["students"] == 3 and preview["class"] == 1 and preview["moves"] > 0

    assert erase_classroom(classroom=world.classroom, erased_by=world.owner) == preview

    assert not Classroom.objects.filter(pk=world.classroom.pk).exists()
    for student_id in students:
        assert rows_referring_to(student_id) == {}
    assert not Game.objects.filter(classroom_id=world.classroom.pk).exists()
    # The teachers and the other class keep everything of theirs.
    assert rows_referring_to(world.olga.pk) == olga_rows
    assert User.objects.filter(pk__in=[world.owner.pk, world.co_teacher.pk]).count() == 2


def test_a_game_in_play_carries_on_with_a_computer_player_in_her_seat(world):
    from games.services import SeatSpec, game_create
    from tests.arena.conftest import play_to_end

    game = game_create(key="numero", classroom=world.classroom, seed=3, options={},
                       seats=[SeatSpec("Ann", user=world.ann), SeatSpec("Ben", user=world.ben)])
    erase_student(student=world.ann)

    seat = Seat.objects.get(game=game, user__isnull=True)
    assert seat.name == "a former student" and seat.bot_level
    game.refresh_from_db()
    assert game.state["players"] == ["a former student", "Ben"]
    # The engine still knows every seat by its name: the game plays to its end.
    assert play_to_end(game).status == Game.Status.FINISHED


def test_two_former_students_at_one_table_get_different_names(world):
    from games.services import SeatSpec, game_create
    from tests.arena.conftest import play_to_end

    cat = User.objects.get(memberships__classroom=world.classroom, display_name="Cat")
    game = game_create(key="numero", classroom=world.classroom, seed=5, options={},
                       seats=[SeatSpec("Ann", user=world.ann), SeatSpec("Ben", user=world.ben),
                              SeatSpec("Cat", user=cat)])
    play_to_end(game)
    erase_student(student=world.ann)
    erase_student(student=cat)
    assert sorted(Seat.objects.filter(game=game).values_list("name", flat=True)) == [
        "Ben", "a former student", "a former student (2)"]
    erase_student(student=User.objects.get(pk=world.ben.pk))  # nobody left to keep it for
    assert not Game.objects.filter(pk=game.pk).exists()


def test_a_table_gathering_players_passes_to_the_classmate_at_it(world):
    table = Game.objects.get(status=Game.Status.LOBBY, created_by=world.ann)
    erase_student(student=world.ann)
    table.refresh_from_db()
    assert [s.name for s in table.seats.all()] == ["Cat"]
    assert table.created_by.display_name == "Cat"
    assert list(table.invites.values_list("student__display_name", "invited_by")) == [("Ben", None)]
