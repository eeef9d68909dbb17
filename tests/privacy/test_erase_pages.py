"""The erase page: it names what will go, asks for the student's name, and only the class's
owner may post it; anything else changes nothing."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from accounts.models import User
from games.models import Move
from privacy.erasure import counts_in_words, erasure_preview
from tests.classroom.helpers import page_text
from tests.clients import signed_in
from tests.privacy.test_erasure import rows_referring_to

pytestmark = pytest.mark.django_db


def erase_url(student) -> str:
    return reverse("privacy:student_erase", args=[student.pk])


def test_the_page_names_what_will_go(world):
    page = signed_in(world.owner).get(erase_url(world.ann)).content.decode()
    moves = Move.objects.filter(seat__user=world.ann).count()
    assert f"<li>{moves} moves</li>" in page
    for line in counts_in_words(erasure_preview(student=world.ann)):
        assert f"<li>{escape(line)}</li>" in page
    assert "a former student" in page and "Type the student&#x27;s name to confirm" in page


def test_the_owner_erases_by_typing_the_name(world):
    client = signed_in(world.owner)
    response = client.post(erase_url(world.ann), {"typed_name": " ann "})
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:class_detail", args=[world.classroom.pk])
    assert not User.objects.filter(pk=world.ann.pk).exists()
    assert rows_referring_to(world.ann.pk) == {}
    page = client.get(response["Location"]).content.decode()
    assert escape("Ann's data is erased: ") in page and " moves" in page


@pytest.mark.parametrize("typed", ["", "Ben", "An"])
def test_a_wrong_name_changes_nothing(world, typed):
    before = rows_referring_to(world.ann.pk)
    response = signed_in(world.owner).post(erase_url(world.ann), {"typed_name": typed})
    assert response.status_code == 200
    assert "Type “Ann” to erase" in response.content.decode() or "This field is required" in \
        response.content.decode()
    assert rows_referring_to(world.ann.pk) == before


@pytest.mark.parametrize("role, status", [("co_teacher", 403), ("other_teacher", 404),
                                          ("student", 403), ("classmate", 403), ("anonymous", 302)])
def test_only_the_owner_may_erase(world, role, status):
    before = rows_referring_to(world.ann.pk)
    client = signed_in(world.user(role))
    for response in (client.get(erase_url(world.ann)),
                     client.post(erase_url(world.ann), {"typed_name": "Ann"})):
        assert response.status_code == status, role
    assert rows_referring_to(world.ann.pk) == before


def test_the_co_teacher_is_told_who_can_erase(world):
    page = page_text(signed_in(world.co_teacher).get(erase_url(world.ann)))
    assert "only Ms Rivera, who owns Class 5B, can erase Ann's data" in page


def test_a_student_of_another_class_is_not_found(world):
    before = rows_referring_to(world.olga.pk)
    response = signed_in(world.owner).post(erase_url(world.olga), {"typed_name": "Olga"})
    assert response.status_code == 404
    assert rows_referring_to(world.olga.pk) == before


def test_the_student_page_has_the_buttons(world):
    page = signed_in(world.owner).get(reverse("classroom:student_detail", args=[world.ann.pk])).content.decode()
    assert reverse("privacy:student_export", args=[world.ann.pk]) in page
    assert erase_url(world.ann) in page
    co_page = signed_in(world.co_teacher).get(
        reverse("classroom:student_detail", args=[world.ann.pk])).content.decode()
    assert erase_url(world.ann) not in co_page and "Only the class's owner, Ms Rivera" in co_page
    class_page = signed_in(world.co_teacher).get(
        reverse("classroom:class_detail", args=[world.classroom.pk])).content.decode()
    assert reverse("privacy:class_export", args=[world.classroom.pk]) in class_page


def test_the_skill_report_of_the_student_links_to_the_download(world):
    page = signed_in(world.co_teacher).get(
        reverse("reports:student", args=[world.classroom.pk, world.ann.pk])).content.decode()
    assert reverse("privacy:student_export", args=[world.ann.pk]) in page
