from datetime import timedelta
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db


def pictures_url(classroom, student):
    return reverse("classroom:join_pictures", args=[classroom.join_code, student.pk])


def post_pictures(client, classroom, student, sequence):
    return client.post(pictures_url(classroom, student), {"picture": list(sequence)})


def test_class_code_then_name_then_pictures(client, classroom, student, make_student):
    make_student(classroom, "Ben", ("boat", "star", "apple"))
    response = client.post(reverse("classroom:join"), {"code": " abc-234 "})
    assert response["Location"] == reverse("classroom:join_class", args=["ABC234"])
    names = client.get(response["Location"])
    assert b"Ann" in names.content and b"Ben" in names.content
    assert pictures_url(classroom, student).encode() in names.content
    page = client.get(pictures_url(classroom, student))
    assert b"Tap your 3 pictures" in page.content and page.content.count(b'class="picture-button"') == 12
    response = post_pictures(client, classroom, student, ["cat", "sun", "tree"])
    assert response["Location"] == reverse("classroom:student_home")
    home = client.get(reverse("classroom:student_home"))
    assert b"Hi Ann!" in home.content
    student.refresh_from_db()
    assert student.last_seen_at is not None


def test_unknown_code_says_so_kindly(client, classroom):
    response = client.post(reverse("classroom:join"), {"code": "ZZZZZZ"})
    assert b"We couldn&#x27;t find a class with that code" in response.content
    assert b'value="ZZZZZZ"' in response.content


def test_archived_class_cannot_be_joined(client, classroom, student):
    classroom.archived_at = timezone.now()
    classroom.save()
    assert client.get(reverse("classroom:join_class", args=["ABC234"])).status_code == 404
    assert post_pictures(client, classroom, student, ["cat", "sun", "tree"]).status_code == 404


def test_student_of_another_class_is_not_found_under_this_code(client, classroom, make_classroom,
                                                               make_student, teacher):
    other = make_classroom(teacher, name="6A", join_code="XYZ789")
    stranger = make_student(other, "Zed", ("cat", "sun", "tree"))
    assert client.get(pictures_url(classroom, stranger)).status_code == 404


def test_wrong_pictures_do_not_say_which_one_was_wrong(client, classroom, student):
    response = post_pictures(client, classroom, student, ["cat", "sun", "moon"])
    assert response.status_code == 400
    assert b"That wasn&#x27;t quite right" in response.content
    for word in (b"first", b"second", b"third", b"Moon was"):
        assert word not in response.content.split(b"<main")[1].split(b"picture-grid")[0]
    assert "_auth_user_id" not in client.session


def test_pictures_must_be_three_known_pictures(client, classroom, student):
    for bad in (["cat", "sun"], ["cat", "sun", "tree", "tree"], ["cat", "sun", "dragon"]):
        response = post_pictures(client, classroom, student, bad)
        assert response.status_code == 400
        assert b"Pick three pictures" in response.content
    assert "_auth_user_id" not in client.session


def test_five_wrong_tries_make_this_device_wait(client, classroom, student):
    for _ in range(5):
        post_pictures(client, classroom, student, ["moon", "moon", "moon"])
    response = post_pictures(client, classroom, student, ["cat", "sun", "tree"])
    assert response.status_code == 429
    assert b"Too many wrong tries. Wait 2 seconds and try again." in response.content
    assert "_auth_user_id" not in client.session


def test_the_wait_ends(client, classroom, student):
    for _ in range(5):
        post_pictures(client, classroom, student, ["moon", "moon", "moon"])
    later = timezone.now() + timedelta(seconds=2)
    with mock.patch("django.utils.timezone.now", return_value=later):
        response = post_pictures(client, classroom, student, ["cat", "sun", "tree"])
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(student.pk)


def test_wrong_tries_more_than_an_hour_apart_do_not_add_up(client, classroom, student):
    start = timezone.now()
    for i in range(6):
        with mock.patch("django.utils.timezone.now", return_value=start + timedelta(minutes=61 * i)):
            response = post_pictures(client, classroom, student, ["moon", "moon", "moon"])
        assert response.status_code == 400 and b"Too many wrong tries" not in response.content
    with mock.patch("django.utils.timezone.now", return_value=start + timedelta(minutes=61 * 6)):
        assert post_pictures(client, classroom, student, ["cat", "sun", "tree"]).status_code == 302


def test_lock_is_per_student(client, classroom, student, make_student):
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    for _ in range(5):
        post_pictures(client, classroom, student, ["moon", "moon", "moon"])
    # Ann must wait on this device...
    locked = post_pictures(client, classroom, student, ["cat", "sun", "tree"])
    assert locked.status_code == 429 and b"Too many wrong tries" in locked.content
    # ...and Ben, on the same device, is not.
    assert post_pictures(client, classroom, ben, ["boat", "star", "apple"]).status_code == 302
    assert client.session["_auth_user_id"] == str(ben.pk)


def test_a_classmates_wrong_taps_do_not_lock_ann_out_of_her_own_tablet(classroom, student):
    prankster, anns_tablet = Client(), Client()
    assert post_pictures(anns_tablet, classroom, student, ["cat", "sun", "tree"]).status_code == 302
    anns_tablet.post(reverse("accounts:logout"))
    for _ in range(6):
        post_pictures(prankster, classroom, student, ["moon", "moon", "moon"])
    assert post_pictures(prankster, classroom, student, ["cat", "sun", "tree"]).status_code == 429
    response = post_pictures(anns_tablet, classroom, student, ["cat", "sun", "tree"])
    assert response.status_code == 302
    assert anns_tablet.session["_auth_user_id"] == str(student.pk)


def test_guessing_from_many_devices_still_rests_the_account(classroom, student, settings):
    settings.ACCOUNT_SIGNIN_MAX_FAILURES = 8
    for _ in range(4):  # four fresh devices, two wrong guesses each
        guesser = Client()
        post_pictures(guesser, classroom, student, ["moon", "moon", "moon"])
        post_pictures(guesser, classroom, student, ["moon", "moon", "moon"])
    response = post_pictures(Client(), classroom, student, ["cat", "sun", "tree"])
    assert response.status_code == 429 and "_auth_user_id" not in response.client.session


def test_a_teacher_lets_a_locked_out_student_try_again_at_once(client, classroom, student, teacher):
    tablet = Client()
    for _ in range(5):
        post_pictures(tablet, classroom, student, ["moon", "moon", "moon"])
    client.force_login(teacher)
    page = client.get(reverse("classroom:student_detail", args=[student.pk])).content.decode()
    assert "picture sign-in is resting" in page and "Let Ann try again now" in page
    client.post(reverse("classroom:student_unlock", args=[student.pk]))
    page = client.get(reverse("classroom:student_detail", args=[student.pk])).content.decode()
    assert "can try their pictures again now" in page and "picture sign-in is resting" not in page
    assert post_pictures(tablet, classroom, student, ["cat", "sun", "tree"]).status_code == 302


def test_class_codes_cannot_be_guessed_fast(client, classroom, settings):
    settings.CLASS_CODE_MAX_FAILURES = 10
    for n in range(9):
        response = client.post(reverse("classroom:join"), {"code": f"ZZZZ{n + 22}"})
        assert response.status_code == 200 and b"couldn&#x27;t find a class" in response.content
    tenth = client.post(reverse("classroom:join"), {"code": "ZZZZ99"})
    assert tenth.status_code == 429 and b"Too many wrong tries. Wait 2 seconds" in tenth.content
    # Now even the right code waits: guessing gains nothing.
    response = client.post(reverse("classroom:join"), {"code": "ABC234"})
    assert response.status_code == 429 and b"ask your teacher for the code" in response.content
    assert client.get(reverse("classroom:join_class", args=["ABC234"])).status_code == 404
    # Another device in the class is not affected.
    assert Client().post(reverse("classroom:join"), {"code": "ABC234"}).status_code == 302


def test_qr_link_preselects_but_never_signs_in(client, classroom, student):
    response = client.get(reverse("classroom:join") + f"?class=abc234&student={student.pk}")
    assert response["Location"] == pictures_url(classroom, student)
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("classroom:student_home")).status_code == 302


def test_text_password_instead_of_pictures(client, classroom, student):
    student.set_password("maths-is-fun")
    student.save()
    page = client.get(pictures_url(classroom, student))
    assert b"Use my text password" in page.content
    url = reverse("classroom:join_text", args=[classroom.join_code, student.pk])
    wrong = client.post(url, {"password": "nope"})
    assert b"That wasn&#x27;t quite right" in wrong.content
    assert client.post(url, {"password": "maths-is-fun"})["Location"] == reverse("classroom:student_home")


def test_student_without_text_password_cannot_use_one(client, classroom, student):
    url = reverse("classroom:join_text", args=[classroom.join_code, student.pk])
    assert b"Use my text password" not in client.get(pictures_url(classroom, student)).content
    response = client.post(url, {"password": ""})
    assert "_auth_user_id" not in client.session
    assert response.status_code == 200
