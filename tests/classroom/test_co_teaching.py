"""Co-teaching: an e-mailed link, single-use and expiring, gives another teacher the class."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from classroom.models import CoTeacherInvite

from tests.classroom.helpers import page_text as text

pytestmark = pytest.mark.django_db




@pytest.fixture
def invite_link(client, teacher, classroom, django_capture_on_commit_callbacks):
    """Invite friend@school.test as the owner; return the path of the e-mailed link."""
    client.force_login(teacher)
    with django_capture_on_commit_callbacks(execute=True):  # the e-mail goes after commit
        response = client.post(reverse("classroom:co_teachers", args=[classroom.pk]),
                               {"email": "Friend@School.test"}, follow=True)
    assert "Invitation sent to friend@school.test." in text(response)
    client.logout()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["friend@school.test"]
    assert message.subject == "Ms Rivera invited you to co-teach Class 5B on Numberdeck"
    url = re.search(r"http://testserver(/teach/invite/[^/\s]+/)", message.body).group(1)
    return url


def test_a_new_teacher_signs_up_then_accepts_and_gets_the_class(client, invite_link, classroom, student):
    landing = text(client.get(invite_link))
    assert "Ms Rivera invited you to co-teach Class 5B" in landing and "First sign in" in landing
    client.post(reverse("accounts:teacher_signup"), {
        "name": "Mr Friend", "email": "friend@school.test",
        "password": "a-long-password-1", "password_again": "a-long-password-1"})
    home = client.get(reverse("classroom:teacher_home"))
    assert "Ms Rivera invited you to co-teach Class 5B." in text(home)
    assert invite_link in home.content.decode()
    response = client.post(invite_link)
    assert response["Location"] == reverse("classroom:class_detail", args=[classroom.pk])
    assert classroom.teachers.filter(email="friend@school.test").exists()
    # Same rights as the owner: the class page, its students, its assignments.
    assert "Ann" in text(client.get(response["Location"]))
    assert client.get(reverse("classroom:student_detail", args=[student.pk])).status_code == 200


def test_an_existing_teacher_signs_in_from_the_link(client, invite_link, make_teacher, classroom):
    make_teacher(name="Mr Friend", email="friend@school.test", password="a-long-password-1")
    landing = client.get(invite_link).content.decode()
    sign_in = reverse("accounts:teacher_login") + "?next=" + invite_link.replace("/", "%2F")
    assert sign_in in landing
    response = client.post(sign_in, {"email": "friend@school.test", "password": "a-long-password-1"})
    assert response["Location"] == invite_link
    client.post(invite_link)
    assert classroom.teachers.count() == 2


def test_a_link_works_only_once(client, invite_link, make_teacher, classroom):
    client.force_login(make_teacher(email="friend@school.test"))
    client.post(invite_link)
    client.force_login(make_teacher(email="someone@school.test"))
    response = client.post(invite_link)
    assert response.status_code == 410 and "already been used" in text(response)
    assert classroom.teachers.count() == 2


def test_an_expired_link_is_refused(client, invite_link, make_teacher, classroom):
    CoTeacherInvite.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    client.force_login(make_teacher(email="friend@school.test"))
    response = client.post(invite_link)
    assert response.status_code == 410 and "This invitation has expired" in text(response)
    assert classroom.teachers.count() == 1


def test_a_withdrawn_link_is_refused(client, invite_link, teacher, make_teacher, classroom):
    client.force_login(teacher)
    invite = CoTeacherInvite.objects.get()
    client.post(reverse("classroom:invite_withdraw", args=[classroom.pk, invite.pk]))
    client.force_login(make_teacher(email="friend@school.test"))
    response = client.post(invite_link)
    assert response.status_code == 410 and "withdrawn" in text(response)


def test_an_unknown_link_is_not_found(client):
    response = client.get(reverse("classroom:invite_accept", args=["made-up-token"]))
    assert response.status_code == 404 and "We couldn't find this invitation" in text(response)


def test_only_a_hash_of_the_token_is_stored(invite_link):
    token = invite_link.rstrip("/").rsplit("/", 1)[1]
    assert not CoTeacherInvite.objects.filter(token_hash=token).exists()
    assert token not in CoTeacherInvite.objects.get().token_hash


def test_inviting_again_replaces_the_older_link(client, invite_link, teacher, classroom):
    client.force_login(teacher)
    client.post(reverse("classroom:co_teachers", args=[classroom.pk]), {"email": "friend@school.test"})
    assert client.get(invite_link).status_code == 410
    assert CoTeacherInvite.objects.filter(withdrawn_at__isnull=True).count() == 1


def test_inviting_a_teacher_of_the_class_is_explained(client, teacher, classroom, co_teacher):
    client.force_login(teacher)
    response = client.post(reverse("classroom:co_teachers", args=[classroom.pk]), {"email": "CO@school.test"})
    assert "co@school.test already teaches this class." in text(response)
    assert 'value="CO@school.test"' in response.content.decode()
    assert not mail.outbox


def test_a_co_teacher_can_leave_and_the_owner_can_remove_them(client, teacher, classroom, co_teacher):
    client.force_login(co_teacher)
    url = reverse("classroom:co_teacher_remove", args=[classroom.pk, co_teacher.pk])
    assert "Stop teaching “Class 5B”?" in text(client.get(url))
    assert client.post(url)["Location"] == reverse("classroom:teacher_home")
    assert client.get(reverse("classroom:class_detail", args=[classroom.pk])).status_code == 404
    classroom.teachers.add(co_teacher)
    client.force_login(teacher)
    client.post(url)
    assert list(classroom.teachers.all()) == [teacher]


def test_the_owner_is_never_removed(client, classroom, co_teacher, teacher):
    client.force_login(co_teacher)
    response = client.post(reverse("classroom:co_teacher_remove", args=[classroom.pk, teacher.pk]))
    assert response.status_code == 404 and classroom.teachers.filter(pk=teacher.pk).exists()


# ----- An invitation is for the address it was sent to (docs/classroom.md) -----------------

FORWARDED = ("This invitation was sent to f***@school.test. Sign in with that address, "
             "or ask the teacher to invite you.")


def test_a_forwarded_link_does_not_make_another_teacher_a_co_teacher(client, invite_link, make_teacher,
                                                                     classroom):
    client.force_login(make_teacher(name="Mr Stranger", email="stranger@school.test"))
    page = client.get(invite_link)
    assert FORWARDED in text(page)
    assert "Accept and co-teach" not in text(page)
    refused = client.post(invite_link)
    assert refused.status_code == 403 and FORWARDED in text(refused)
    assert classroom.teachers.count() == 1
    invite = CoTeacherInvite.objects.get()
    assert invite.accepted_at is None  # still usable by the teacher it was sent to
    # Nor is it offered on their My classes page.
    assert "invited you to co-teach" not in text(client.get(reverse("classroom:teacher_home")))


def test_the_invited_address_matches_whatever_its_capitals(client, invite_link, make_teacher, classroom):
    friend = make_teacher(name="Mr Friend", email="friend@school.test")
    # An account saved before addresses were kept in lower case.
    type(friend).objects.filter(pk=friend.pk).update(email="FRIEND@School.Test")
    client.force_login(friend)
    response = client.post(invite_link)
    assert response["Location"] == reverse("classroom:class_detail", args=[classroom.pk])
    assert classroom.teachers.filter(pk=friend.pk).exists()


def test_the_service_refuses_another_address_too(invite_link, make_teacher, classroom):
    from classroom.services import InviteError, co_teacher_invite_accept

    with pytest.raises(InviteError, match="sent to f\\*\\*\\*@school.test"):
        co_teacher_invite_accept(invite=CoTeacherInvite.objects.get(),
                                 teacher=make_teacher(email="stranger@school.test"))
    assert classroom.teachers.count() == 1


# ----- Only the owner archives, restores and deletes (docs/classroom.md) --------------------

OWNER_ONLY = "Only Ms Rivera, who created the class, can archive, restore or delete it."


def test_a_co_teacher_cannot_archive_restore_or_delete(client, teacher, co_teacher, classroom, student):
    from classroom.services import classroom_archive

    client.force_login(co_teacher)
    archive = reverse("classroom:class_archive", args=[classroom.pk])
    for response in (client.get(archive), client.post(archive)):
        assert response.status_code == 403 and OWNER_ONLY in text(response)
    classroom.refresh_from_db()
    assert not classroom.is_archived
    # The buttons are not offered to them either.
    assert archive not in client.get(reverse("classroom:class_edit", args=[classroom.pk])).content.decode()

    classroom_archive(classroom=classroom)
    restore = reverse("classroom:class_restore", args=[classroom.pk])
    delete = reverse("classroom:class_delete", args=[classroom.pk])
    for page in (reverse("classroom:archived_classes"), reverse("classroom:class_detail", args=[classroom.pk])):
        html = client.get(page).content.decode()
        assert restore not in html and delete not in html
        assert OWNER_ONLY in text(client.get(page))
    assert client.post(restore).status_code == 403
    assert client.get(delete).status_code == 403
    response = client.post(delete, {"typed_name": "Class 5B"})
    assert response.status_code == 403 and OWNER_ONLY in text(response)
    classroom.refresh_from_db()
    assert classroom.is_archived
    student.refresh_from_db()  # the child's account is still there

    client.force_login(teacher)  # the owner still can
    html = client.get(reverse("classroom:archived_classes")).content.decode()
    assert restore in html and delete in html
    assert client.post(delete, {"typed_name": "Class 5B"}).status_code == 302
    assert not type(student).objects.filter(pk=student.pk).exists()
