"""A child in several classes (accounts.Membership): Ann is in Ms Rivera's Class 5B and in Mr
Other's class. She signs in through either class code and sees both classes' work; what she
starts is in the class she signed in through or chose; each teacher sees only what she did in
their own class; leaving one class keeps the other and her evidence; her export and erasure
cover every class."""

import csv
import io
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Membership, User
from classroom import selectors, services
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game
from games.models import Game
from reports import selectors as report_selectors
from reports.measures import evidence_measures
from reports.models import SkillEvidence
from tests.classroom.helpers import assignment_of
from tests.classroom.helpers import page_text as text
from tests.conftest import active_class_names

pytestmark = pytest.mark.django_db

ANN_PICTURES = ["cat", "sun", "tree"]


@pytest.fixture
def ann(student, other_classroom):
    """Ann (the `student` fixture, of Class 5B) also in Mr Other's class."""
    services.membership_join(student=student, classroom=other_classroom)
    return student


def sign_in(client, classroom, student):
    return client.post(reverse("classroom:join_pictures", args=[classroom.join_code, student.pk]),
                       {"picture": ANN_PICTURES})


def play_in(classroom, student, seed):
    """A whole game of `student` in `classroom`, with rule errors: evidence in that class."""
    return play_game(key="smooth_operator", classroom=classroom, student=student, seed=seed,
                     player=PlantedPlayer([parse_plant("all.rule_errors=0.2")]))


@pytest.mark.parametrize("through", ["classroom", "other_classroom"])
def test_she_signs_in_through_either_class_and_sees_both_classes_work(
        through, ann, classroom, other_classroom, teacher, other_teacher, request):
    assignment_of(classroom, created_by=teacher, title="Times tables warm-up")
    assignment_of(other_classroom, created_by=other_teacher, title="Catch-up group game")
    client = Client()
    signed_in_through = request.getfixturevalue(through)
    response = sign_in(client, signed_in_through, ann)
    assert response["Location"] == reverse("classroom:student_home")
    home = text(client.get(reverse("classroom:student_home")))
    # Both classes' work, each labelled with its class.
    assert "Times tables warm-up For Class 5B" in home
    assert "Catch-up group game For Other class" in home
    # She plays in the class she signed in through, and can switch to the other.
    other = other_classroom if signed_in_through == classroom else classroom
    assert f"You are playing in {signed_in_through.name}." in home
    assert f"Play in {other.name}" in home


def test_free_play_is_in_the_class_she_signed_in_through_or_chose(ann, classroom, other_classroom,
                                                                  make_classroom, other_teacher):
    client = Client()
    sign_in(client, other_classroom, ann)
    client.post(reverse("games:free_play_start", args=["smooth_operator"]), {"level": "player"})
    assert Game.objects.get(seats__user=ann).classroom == other_classroom
    # She chooses Class 5B: her next game is there.
    client.post(reverse("classroom:student_choose_class"), {"classroom": classroom.pk})
    client.post(reverse("games:free_play_start", args=["numero_solitaire"]), {"level": "player"})
    assert Game.objects.get(seats__user=ann, key="numero_solitaire").classroom == classroom
    # A class she is not in cannot be chosen: nothing changes.
    stranger = make_classroom(other_teacher, name="Not hers", join_code="QQQ222")
    client.post(reverse("classroom:student_choose_class"), {"classroom": stranger.pk})
    home = text(client.get(reverse("classroom:student_home")))
    assert "You are playing in Class 5B." in home and "Not hers" not in home


def test_a_table_she_opens_is_in_her_working_class_and_only_its_children_find_it(
        ann, classroom, other_classroom, other_student, make_student):
    from games.services.tables import TableError, open_table_by_code

    client = Client()
    sign_in(client, other_classroom, ann)
    client.post(reverse("classroom:table_open"), {"game": "multiplication"})
    table = Game.objects.get(seats__user=ann, status=Game.Status.LOBBY)
    assert table.classroom == other_classroom
    # Olga, of the other class, finds it by its code; Ben, of Class 5B only, does not.
    assert open_table_by_code(student=other_student, raw_code=table.table_code) == table
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    with pytest.raises(TableError):
        open_table_by_code(student=ben, raw_code=table.table_code)


def test_each_teacher_sees_only_what_she_did_in_their_own_class(ann, classroom, other_classroom,
                                                                teacher, other_teacher):
    play_in(classroom, ann, seed=4)
    play_in(classroom, ann, seed=5)
    play_in(other_classroom, ann, seed=6)
    in_5b = SkillEvidence.objects.filter(student=ann, classroom=classroom).count()
    in_other = SkillEvidence.objects.filter(student=ann, classroom=other_classroom).count()
    assert in_5b and in_other

    # The class pages count each class's own games.
    rows = {c.pk: selectors.class_progress(classroom=c).rows for c in (classroom, other_classroom)}
    assert [r.student.games_played for r in rows[classroom.pk]] == [2]
    assert [r.student.games_played for r in rows[other_classroom.pk]] == [1]
    # Each class's report of her counts only that class's decisions.
    for c, count in ((classroom, in_5b), (other_classroom, in_other)):
        rule = next(sm for sm in report_selectors.student_measures(classroom=c, student=ann)
                    if sm.cell.measure.id == "all.rule_errors")
        assert rule.cell.chances == SkillEvidence.objects.filter(
            student=ann, classroom=c, measure__in=evidence_measures("all.rule_errors")).count()
    # Neither teacher finds her report, nor her games, through the other's class.
    mine, theirs = Client(), Client()
    mine.force_login(teacher)
    theirs.force_login(other_teacher)
    assert mine.get(reverse("reports:student", args=[classroom.pk, ann.pk])).status_code == 200
    assert mine.get(reverse("reports:student", args=[other_classroom.pk, ann.pk])).status_code == 404
    assert theirs.get(reverse("reports:student", args=[classroom.pk, ann.pk])).status_code == 404
    assert theirs.get(reverse("reports:student", args=[other_classroom.pk, ann.pk])).status_code == 200
    game_in_5b = Game.objects.filter(classroom=classroom).first()
    assert theirs.get(reverse("games:replay", args=[game_in_5b.pk])).status_code == 404
    # Her page on Mr Other's side names only his class.
    page = text(theirs.get(reverse("classroom:student_detail", args=[ann.pk])))
    assert "Other class" in page and "Class 5B" not in page


def test_removing_her_from_one_class_archives_it_and_keeps_her_other_class_and_evidence(
        ann, classroom, other_classroom, teacher):
    play_in(classroom, ann, seed=4)
    evidence = SkillEvidence.objects.filter(student=ann).count()
    client = Client()
    client.force_login(teacher)
    url = reverse("classroom:student_remove", args=[ann.pk]) + f"?class={classroom.pk}"
    assert "They leave this class list, and stay in their other classes." in text(client.get(url))
    response = client.post(url, {"classroom": classroom.pk})
    assert response["Location"] == reverse("classroom:class_detail", args=[classroom.pk])

    ann.refresh_from_db()
    assert ann.is_active and active_class_names(ann) == ["Other class"]
    left = Membership.objects.get(student=ann, classroom=classroom)
    assert left.archived_at is not None  # archived, not deleted
    assert SkillEvidence.objects.filter(student=ann).count() == evidence  # her evidence stays
    assert not selectors.students_of_class(classroom=classroom).filter(pk=ann.pk).exists()
    # She signs in through her other class only.
    child = Client()
    assert sign_in(child, classroom, ann).status_code == 404
    assert sign_in(child, other_classroom, ann)["Location"] == reverse("classroom:student_home")
    # Taken back into the class, she has the same membership again.
    services.membership_join(student=ann, classroom=classroom)
    left.refresh_from_db()
    assert left.archived_at is None and Membership.objects.filter(student=ann).count() == 2


def test_removing_her_from_her_last_class_ends_her_sign_in(ann, classroom, other_classroom):
    assert services.student_remove(student=ann, classroom=classroom) is True
    assert services.student_remove(student=ann, classroom=other_classroom) is False
    ann.refresh_from_db()
    assert not ann.is_active and active_class_names(ann) == []


def test_moving_her_keeps_her_other_class(ann, teacher, classroom, make_classroom):
    sixth = make_classroom(teacher, name="6A", join_code="SIX666")
    client = Client()
    client.force_login(teacher)
    response = client.post(reverse("classroom:student_move", args=[ann.pk]),
                           {"to_classroom": sixth.pk, "classroom": classroom.pk})
    assert response["Location"] == reverse("classroom:class_detail", args=[classroom.pk])
    assert active_class_names(ann) == ["6A", "Other class"]


def unzip(body: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        return {name: archive.read(name).decode("utf-8-sig") for name in archive.namelist()}


def test_her_export_covers_every_class_and_needs_a_teacher_of_all_of_them(
        ann, classroom, other_classroom, teacher, other_teacher):
    play_in(classroom, ann, seed=4)
    play_in(other_classroom, ann, seed=6)
    mine = Client()
    mine.force_login(teacher)
    page = text(mine.get(reverse("classroom:student_detail", args=[ann.pk])))
    assert "Ann is also in a class you do not teach, so only a teacher of all of their classes" in page
    assert "Download Ann's data" not in page
    refused = mine.get(reverse("privacy:student_export", args=[ann.pk]))
    assert refused.status_code == 403 and "also in a class you do not teach" in text(refused)
    # In Class 5B's zip she is listed, without her folder (it would show the other class).
    class_zip = unzip(mine.get(reverse("privacy:class_export", args=[classroom.pk])).content)
    students = list(csv.DictReader(io.StringIO(class_zip["students.csv"])))
    assert [(s["name"], s["folder"]) for s in students] == [("Ann", "")]
    assert not any(name.startswith("ann-") for name in class_zip)

    other_classroom.teachers.add(teacher)  # Ms Rivera now teaches both of Ann's classes
    files = unzip(mine.get(reverse("privacy:student_export", args=[ann.pk])).content)
    classes = {row["classroom name"] for row in csv.DictReader(io.StringIO(files["classes.csv"]))}
    assert classes == {"Class 5B", "Other class"}
    moves_from = {row["classroom name"] for row in csv.DictReader(io.StringIO(files["skill_evidence.csv"]))}
    assert moves_from == {"Class 5B", "Other class"}


def test_her_erasure_covers_every_class_and_needs_the_owner_of_all_of_them(
        ann, classroom, other_classroom, teacher, other_teacher):
    from privacy.erasure import erase_student

    play_in(classroom, ann, seed=4)
    play_in(other_classroom, ann, seed=6)
    mine = Client()
    mine.force_login(teacher)
    erase = reverse("privacy:student_erase", args=[ann.pk])
    assert mine.post(erase, {"typed_name": "Ann"}).status_code == 403
    assert User.objects.filter(pk=ann.pk).exists()

    erase_student(student=ann, erased_by=teacher)  # as the owner of both would
    assert not User.objects.filter(pk=ann.pk).exists()
    assert not Membership.objects.filter(student_id=ann.pk).exists()
    assert not SkillEvidence.objects.filter(student_id=ann.pk).exists()


def test_erasing_one_class_keeps_a_child_who_is_also_in_another(ann, classroom, other_classroom, make_student):
    from privacy.erasure import erase_classroom

    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    play_in(other_classroom, ann, seed=6)
    erase_classroom(classroom=classroom)
    assert not User.objects.filter(pk=ben.pk).exists()  # only ever in the erased class
    assert active_class_names(User.objects.get(pk=ann.pk)) == ["Other class"]
    assert SkillEvidence.objects.filter(student=ann, classroom=other_classroom).exists()


def test_deleting_a_class_keeps_the_account_of_a_child_also_in_another(ann, classroom, other_classroom,
                                                                     make_student, teacher):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    services.classroom_archive(classroom=classroom)
    services.classroom_delete_permanently(classroom=classroom, typed_name="Class 5B")
    assert not User.objects.filter(pk=ben.pk).exists()
    assert active_class_names(User.objects.get(pk=ann.pk)) == ["Other class"]
