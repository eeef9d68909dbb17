"""The class list as a teacher uses it: adding, renaming, moving, removing, passwords."""

import codecs

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import User

from tests.classroom.helpers import page_text as text
from tests.conftest import active_class_names, members

pytestmark = pytest.mark.django_db


def names_in(classroom):
    return sorted(members(classroom).filter(is_active=True).values_list("display_name", flat=True))


def upload(data: bytes, name="class.csv"):
    return {"file": SimpleUploadedFile(name, data, "text/csv")}


# ----- adding --------------------------------------------------------------------------

def test_add_one_student_with_a_tidied_name_and_random_pictures(signed_in, classroom):
    response = signed_in.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": "  Zoë   Ng "})
    assert response["Location"] == reverse("classroom:class_detail", args=[classroom.pk])
    zoe = members(classroom).get()
    assert zoe.display_name == "Zoë Ng" and zoe.role == "student" and len(zoe.picture_sequence) == 3
    assert not zoe.has_usable_password()


def test_add_another_returns_to_the_empty_form(signed_in, classroom):
    url = reverse("classroom:students_add", args=[classroom.pk])
    response = signed_in.post(url, {"name": "Ann", "add_another": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == url
    assert "Ann is in the class. Add the next one." in response.content.decode()


def test_a_name_already_in_the_class_is_refused_with_suggestions(signed_in, classroom, student):
    response = signed_in.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": "ann"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "There is already a student called “ann” in this class." in page
    assert "“ann B.” or “ann 2”" in page
    assert 'value="ann"' in page  # what was typed stays in the box
    assert names_in(classroom) == ["Ann"]


def test_a_removed_students_name_can_be_used_again(signed_in, classroom, student):
    signed_in.post(reverse("classroom:student_remove", args=[student.pk]))
    signed_in.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": "Ann"})
    assert names_in(classroom) == ["Ann"]


def test_paste_25_names(signed_in, classroom):
    pasted = "\n".join(f"Student {n:02d}" for n in range(1, 26))
    response = signed_in.post(reverse("classroom:students_paste", args=[classroom.pk]),
                              {"names": pasted}, follow=True)
    assert "25 students added; the class has 25 students." in response.content.decode()
    assert len(names_in(classroom)) == 25


def test_adding_to_a_class_that_has_students_says_how_many_were_added_and_how_many_there_are(
        signed_in, classroom, student):
    # Ann is in the class already: 3 more make 4, and the message must not read "3 are in it".
    response = signed_in.post(reverse("classroom:students_paste", args=[classroom.pk]),
                              {"names": "Ben\nCal\nDee"}, follow=True)
    page = response.content.decode()
    assert "3 students added; the class has 4 students." in page
    assert "students are in the class" not in page
    response = signed_in.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": "Eve"},
                              follow=True)
    assert "Eve added; the class has 5 students." in response.content.decode()


def test_a_paste_with_bad_lines_adds_nobody_and_lists_each_line(signed_in, classroom, student):
    pasted = "Ben\nAnn\n\n" + "x" * 61 + "\nCal\nben\n"
    response = signed_in.post(reverse("classroom:students_paste", args=[classroom.pk]), {"names": pasted})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nobody was added yet: 3 rows need fixing first." in page
    assert "<td>2</td><td>Ann</td><td>There is already a student called “Ann” in this class." in page
    assert "<td>4</td>" in page and "longer than 60 characters" in page
    assert "<td>6</td><td>ben</td><td>“ben” is also on line 1." in page
    assert "Ben\nAnn\n\n" in page  # the list is still in the box to fix
    assert names_in(classroom) == ["Ann"]


def test_csv_import_adds_everyone_with_their_usernames(signed_in, classroom):
    data = codecs.BOM_UTF8 + "name,username\nZoë,zoe.k\nBen,\n".encode()
    signed_in.post(reverse("classroom:students_import", args=[classroom.pk]), upload(data))
    assert names_in(classroom) == ["Ben", "Zoë"]
    assert members(classroom).get(display_name="Zoë").username == "zoe.k"


def test_csv_import_reports_a_username_someone_else_has(signed_in, classroom, other_student):
    other_student.username = "taken"
    other_student.save()
    response = signed_in.post(reverse("classroom:students_import", args=[classroom.pk]),
                              upload(b"name,username\nAnn,fine\nBen,taken\n"))
    assert "The username “taken” is already used by another account." in response.content.decode()
    assert names_in(classroom) == []


@pytest.mark.parametrize("data, message", [
    (b"", "The submitted file is empty."),  # Django's own check, before ours
    ("name\nZoë\n".encode("utf-16"), "This file is saved as UTF-16 text."),
    ("name\nJosé\n".encode("latin-1"), "This file is not UTF-8 text"),
    (b"first name\nAnn\n", "with one called “name”"),
])
def test_bad_csv_files_are_explained(signed_in, classroom, data, message):
    response = signed_in.post(reverse("classroom:students_import", args=[classroom.pk]), upload(data))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert names_in(classroom) == []


def test_a_large_csv_is_refused(signed_in, classroom):
    data = b"name\n" + b"Somebody\n" * 30_000
    response = signed_in.post(reverse("classroom:students_import", args=[classroom.pk]), upload(data))
    assert "This file is too big" in response.content.decode()
    assert names_in(classroom) == []


def test_names_are_escaped_everywhere(signed_in, classroom, make_assignment, client):
    evil = "<script>alert(1)</script>"
    signed_in.post(reverse("classroom:students_add", args=[classroom.pk]), {"name": evil})
    student = members(classroom).get()
    make_assignment(classroom, title=evil)
    pages = [reverse("classroom:class_detail", args=[classroom.pk]),
             reverse("classroom:student_detail", args=[student.pk]),
             reverse("classroom:sign_in_cards", args=[classroom.pk]),
             reverse("classroom:student_remove", args=[student.pk]),
             reverse("classroom:join_class", args=[classroom.join_code])]
    for url in pages:
        page = signed_in.get(url).content.decode()
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, url
        assert evil not in page, url
    client.force_login(student)
    home = client.get(reverse("classroom:student_home")).content.decode()
    assert "Hi &lt;script&gt;" in home and evil not in home


# ----- one student ---------------------------------------------------------------------

def test_rename_refuses_a_name_in_use_and_keeps_what_was_typed(signed_in, classroom, student, make_student):
    ben = make_student(classroom, "Ben")
    assert 'value="Ben"' in signed_in.get(reverse("classroom:student_detail", args=[ben.pk])).content.decode()
    response = signed_in.post(reverse("classroom:student_detail", args=[ben.pk]), {"name": " ANN "})
    page = response.content.decode()
    assert "There is already a student called “ANN” in this class." in page
    assert 'value=" ANN "' in page  # exactly as typed
    signed_in.post(reverse("classroom:student_detail", args=[ben.pk]), {"name": "Benjamin"})
    ben.refresh_from_db()
    assert ben.display_name == "Benjamin"


def test_move_to_another_of_my_classes(signed_in, teacher, classroom, student, make_classroom):
    other = make_classroom(teacher, name="6A")
    response = signed_in.post(reverse("classroom:student_move", args=[student.pk]), {"to_classroom": other.pk})
    assert response["Location"] == reverse("classroom:class_detail", args=[classroom.pk])
    assert active_class_names(student) == ["6A"]  # the old class's membership is archived


def test_cannot_move_to_a_class_i_do_not_teach(signed_in, student, other_classroom):
    response = signed_in.post(reverse("classroom:student_move", args=[student.pk]),
                              {"to_classroom": other_classroom.pk})
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert active_class_names(student) == ["Class 5B"]


def test_move_refuses_a_clashing_name(signed_in, teacher, student, make_classroom, make_student):
    other = make_classroom(teacher, name="6A")
    make_student(other, "Ann")
    response = signed_in.post(reverse("classroom:student_move", args=[student.pk]), {"to_classroom": other.pk})
    assert "There is already a student called “Ann” in 6A. Rename this student first." in response.content.decode()


def test_remove_asks_first_then_ends_sign_in(signed_in, client, classroom, student):
    url = reverse("classroom:student_remove", args=[student.pk])
    question = signed_in.get(url)
    assert "Remove Ann from “Class 5B”?" in text(question)
    student.refresh_from_db()
    assert student.is_active  # asking changed nothing
    signed_in.post(url)
    student.refresh_from_db()
    assert not student.is_active
    join = reverse("classroom:join_pictures", args=[classroom.join_code, student.pk])
    assert client.post(join, {"picture": ["cat", "sun", "tree"]}).status_code == 404


def test_new_random_pictures_are_shown_to_the_teacher_and_lift_a_lockout(signed_in, student, classroom):
    tablet = Client()
    join = reverse("classroom:join_pictures", args=[classroom.join_code, student.pk])
    for _ in range(5):
        tablet.post(join, {"picture": ["moon", "moon", "moon"]})
    assert tablet.get(join).status_code == 429  # the tablet must wait before its next try
    url = reverse("classroom:student_pictures", args=[student.pk])
    question = signed_in.post(url)
    assert "Give Ann new random pictures?" in text(question)
    assert 'name="confirmed" value="yes"' in question.content.decode()
    student.refresh_from_db()
    assert student.picture_sequence == ["cat", "sun", "tree"]  # asking changed nothing
    response = signed_in.post(url, {"confirmed": "yes"}, follow=True)
    student.refresh_from_db()
    labels = ", ".join(p.title() for p in student.picture_sequence)
    assert f"Ann's new pictures: {labels}." in text(response)
    assert tablet.post(join, {"picture": student.picture_sequence}).status_code == 302


def test_teacher_chooses_the_pictures(signed_in, student):
    signed_in.post(reverse("classroom:student_pictures", args=[student.pk]),
                   {"first": "moon", "second": "boat", "third": "heart"})
    student.refresh_from_db()
    assert student.picture_sequence == ["moon", "boat", "heart"]


def test_choosing_only_some_pictures_is_explained(signed_in, student):
    response = signed_in.post(reverse("classroom:student_pictures", args=[student.pk]), {"first": "moon"})
    assert "Choose all three pictures" in response.content.decode()
    student.refresh_from_db()
    assert student.picture_sequence == ["cat", "sun", "tree"]


def test_text_password_lets_the_student_sign_in_and_can_be_removed(signed_in, client, classroom, student):
    url = reverse("classroom:student_text_password", args=[student.pk])
    assert "at least 4 characters" in signed_in.post(url, {"password": "abc"}).content.decode()
    signed_in.post(url, {"password": "tiger-42"})
    signed_in.logout()
    join = reverse("classroom:join_text", args=[classroom.join_code, student.pk])
    assert client.post(join, {"password": "tiger-42"})["Location"] == reverse("classroom:student_home")
    client.logout()
    signed_in.force_login(classroom.owner)
    signed_in.post(url, {"action": "clear"})
    assert not User.objects.get(pk=student.pk).has_usable_password()


def test_a_csv_with_an_unclosed_quote_adds_nobody_and_names_the_line(signed_in, classroom):
    response = signed_in.post(reverse("classroom:students_import", args=[classroom.pk]),
                              upload(b'name\nZoe\nYusuf\n"Xavi\nWren\n'))
    assert response.status_code == 200
    assert "Line 4 has a quote mark that is never closed: &quot;Xavi" in response.content.decode()
    assert names_in(classroom) == []
