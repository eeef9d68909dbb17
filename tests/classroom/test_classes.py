"""Classes: create, edit, archive and restore, a new join code, permanent deletion."""


import pytest
from django.urls import reverse

from accounts.models import User
from accounts import codes
from classroom import services
from classroom.models import Classroom
from games.models import Game

from tests.classroom.helpers import page_text as text
from tests.conftest import members

pytestmark = pytest.mark.django_db


def test_a_new_teacher_is_told_what_to_do_first(signed_in):
    page = text(signed_in.get(reverse("classroom:teacher_home")))
    assert "No classes yet" in page and "Start by creating a class." in page


def test_create_a_class_then_the_empty_class_page_says_add_students(signed_in, teacher):
    response = signed_in.post(reverse("classroom:class_create"), {"name": "  4C   Maths ", "grade": "4"})
    classroom = Classroom.objects.get()
    assert response["Location"] == reverse("classroom:class_detail", args=[classroom.pk])
    assert classroom.name == "4C Maths" and classroom.owner == teacher
    assert list(classroom.teachers.all()) == [teacher]
    assert codes.is_well_formed(classroom.join_code)
    page = text(signed_in.get(response["Location"]))
    assert "“4C Maths” is ready. Next, add your students." in page
    assert "No students yet" in page and "Start by adding your students" in page
    assert "No assignments yet" in page


def test_a_class_needs_a_name_and_keeps_what_was_typed(signed_in):
    response = signed_in.post(reverse("classroom:class_create"), {"name": "   ", "grade": "Year 5"})
    assert "This field is required." in text(response)
    assert 'value="Year 5"' in response.content.decode()
    assert not Classroom.objects.exists()


def test_edit_name_grade_and_free_play(signed_in, classroom):
    signed_in.post(reverse("classroom:class_edit", args=[classroom.pk]), {"name": "5B Maths", "grade": "5"})
    classroom.refresh_from_db()
    assert (classroom.name, classroom.grade, classroom.free_play) == ("5B Maths", "5", False)


def test_free_play_switch_on_the_class_page(signed_in, classroom):
    url = reverse("classroom:class_free_play", args=[classroom.pk])
    response = signed_in.post(url, follow=True)
    classroom.refresh_from_db()
    assert classroom.free_play is False
    assert "Free play is off: students see only their assignments." in text(response)
    signed_in.post(url, {"free_play": "on"})
    classroom.refresh_from_db()
    assert classroom.free_play is True


def test_archive_asks_first_and_is_reversible(signed_in, classroom, student, client):
    url = reverse("classroom:class_archive", args=[classroom.pk])
    question = text(signed_in.get(url))
    assert "Archive “Class 5B”?" in question and "Nothing is deleted" in question
    classroom.refresh_from_db()
    assert not classroom.is_archived
    signed_in.post(url)
    classroom.refresh_from_db()
    assert classroom.is_archived
    home = text(signed_in.get(reverse("classroom:teacher_home")))
    assert reverse("classroom:class_detail", args=[classroom.pk]) not in home
    assert "No active classes" in home and "Archived classes (1)" in home
    # Students of an archived class cannot sign in.
    assert signed_in.get(reverse("classroom:join_class", args=[classroom.join_code])).status_code == 404
    # The archived class page offers only restoring; working pages are out of reach.
    assert "Class 5B is archived" in text(signed_in.get(reverse("classroom:class_detail", args=[classroom.pk])))
    assert signed_in.get(reverse("classroom:students_add", args=[classroom.pk])).status_code == 404
    signed_in.post(reverse("classroom:class_restore", args=[classroom.pk]))
    classroom.refresh_from_db()
    assert not classroom.is_archived and list(members(classroom)) == [student]


def test_delete_permanently_only_archived_classes_after_typing_the_name(signed_in, classroom, student,
                                                                        assignment, make_game, make_student,
                                                                        make_classroom, teacher):
    make_game(assignment, student)
    kept = make_classroom(teacher, name="Kept")
    kept_student = make_student(kept, "Kim")
    url = reverse("classroom:class_delete", args=[classroom.pk])
    assert signed_in.get(url).status_code == 404  # archive first
    services.classroom_archive(classroom=classroom)
    page = text(signed_in.get(url))
    assert "This cannot be undone." in page and "1 student" in page
    wrong = signed_in.post(url, {"typed_name": "Class 5"})
    assert "That is not the class name. Type “Class 5B” exactly" in text(wrong)
    assert Classroom.objects.filter(pk=classroom.pk).exists()
    signed_in.post(url, {"typed_name": " Class   5B "})
    assert not Classroom.objects.filter(pk=classroom.pk).exists()
    assert not User.objects.filter(pk=student.pk).exists() and not Game.objects.exists()
    assert User.objects.filter(pk=kept_student.pk).exists()


def test_the_service_refuses_deleting_an_active_class(classroom):
    with pytest.raises(ValueError, match="Only an archived class"):
        services.classroom_delete_permanently(classroom=classroom, typed_name="Class 5B")


def test_new_join_code_asks_first_and_the_old_code_stops_working(signed_in, classroom, student):
    url = reverse("classroom:class_join_code", args=[classroom.pk])
    assert "The code ABC234 will stop working" in text(signed_in.get(url))
    signed_in.post(url)
    classroom.refresh_from_db()
    assert classroom.join_code != "ABC234" and codes.is_well_formed(classroom.join_code)
    assert signed_in.get(reverse("classroom:join_class", args=["ABC234"])).status_code == 404
    assert signed_in.get(reverse("classroom:join_class", args=[classroom.join_code])).status_code == 200


def test_my_classes_lists_owned_and_co_taught_classes_with_counts(signed_in, teacher, classroom, student,
                                                                  other_classroom, make_assignment):
    other_classroom.teachers.add(teacher)
    make_assignment(classroom)
    page = text(signed_in.get(reverse("classroom:teacher_home")))
    assert "Grade" not in page.split("Class 5B")[1].split("Class code")[0]  # no grade: none shown
    assert "1 student · 1 open assignment" in page
    assert "Other class" in page and "Co-teaching" in page
