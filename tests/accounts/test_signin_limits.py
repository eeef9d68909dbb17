"""Sign-in limits that slow guessing without letting a stranger shut a real user out (docs/security.md).

- A device that has signed in to an account before is held back only by its own wrong tries:
  wrong tries from other devices or addresses (a prankster, a botnet, a whole school's 300
  typos) never stop it.
- Wrong tries make the next try wait, 2 s, 4 s, 8 s ... up to 15 minutes, told in plain words.
- Every try is counted before its password is checked, so 40 at once are not all checked.
- The client address is what the trusted proxies say, never what the client says.
- Class codes: fresh browsers (no cookie) are slowed by their address.
- /admin/ sign-in is limited like the app's own.
"""

import re
import threading
import time
from datetime import timedelta
from pathlib import Path
from unittest import mock

import pytest
from django.contrib.auth.backends import ModelBackend
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from accounts.models import User

pytestmark = pytest.mark.django_db

SCHOOL = "203.0.113.7"
WRONG = ["moon", "moon", "moon"]
RIGHT = ["cat", "sun", "tree"]
TEACHER_LOGIN = {"email": "rivera@school.test", "password": "correct-horse-42"}


def device(address: str = SCHOOL, **headers) -> Client:
    """A browser with no cookies yet, at this network address."""
    return Client(REMOTE_ADDR=address, **headers)


def pictures(client, classroom, student, sequence):
    return client.post(reverse("classroom:join_pictures", args=[classroom.join_code, student.pk]),
                       {"picture": list(sequence)})


def teacher_sign_in(client, password="correct-horse-42", email="rivera@school.test"):
    return client.post(reverse("accounts:teacher_login"), {"email": email, "password": password})


def signed_in_as(client, user) -> bool:
    return client.session.get("_auth_user_id") == str(user.pk)


def known_tablet(classroom, student) -> Client:
    """Ann's own tablet at school, which she has signed in on before."""
    tablet = device()
    assert pictures(tablet, classroom, student, RIGHT).status_code == 302
    tablet.post(reverse("accounts:logout"))
    return tablet


# ----- 1. no stranger can shut a real user out -------------------------------------------

def test_forty_wrong_tries_from_everywhere_do_not_stop_ann_on_her_own_tablet(classroom, student):
    tablet = known_tablet(classroom, student)
    for n in range(40):  # fresh browsers, at school and elsewhere
        pictures(device(SCHOOL if n % 2 else f"198.51.100.{n}"), classroom, student, WRONG)
    assert pictures(tablet, classroom, student, RIGHT).status_code == 302
    assert signed_in_as(tablet, student)


def test_forty_wrong_passwords_from_strangers_do_not_stop_the_teacher_on_her_laptop(teacher):
    laptop = device("192.0.2.10")
    assert teacher_sign_in(laptop).status_code == 302
    laptop.post(reverse("accounts:logout"))
    for n in range(40):
        teacher_sign_in(device(f"198.51.100.{n}"), password="guess")
    assert teacher_sign_in(laptop).status_code == 302 and signed_in_as(laptop, teacher)


def test_300_failures_from_the_school_address_do_not_stop_a_known_device(classroom, student, teacher):
    tablet = known_tablet(classroom, student)
    laptop = device()
    assert teacher_sign_in(laptop).status_code == 302
    laptop.post(reverse("accounts:logout"))
    for n in range(300):  # the whole school's typos (or one prankster), every one a new account
        teacher_sign_in(device(), password="nope", email=f"typo{n}@school.test")
    assert pictures(tablet, classroom, student, RIGHT).status_code == 302 and signed_in_as(tablet, student)
    assert teacher_sign_in(laptop).status_code == 302 and signed_in_as(laptop, teacher)
    # A browser the school has never signed in on is slowed down, not let through.
    stranger = device()
    response = pictures(stranger, classroom, student, RIGHT)
    assert response.status_code == 429 and not signed_in_as(stranger, student)
    assert b"Too many wrong tries. Wait 2 seconds and try again." in response.content


def test_wrong_tries_make_the_next_one_wait_longer_and_longer(classroom, student):
    tablet = device()
    for _ in range(4):
        response = pictures(tablet, classroom, student, WRONG)
        assert response.status_code == 400 and b"That wasn&#x27;t quite right" in response.content
    at = timezone.now()
    for wait, words in [(2, "2 seconds"), (4, "4 seconds"), (8, "8 seconds"), (16, "16 seconds"),
                        (32, "32 seconds"), (64, "2 minutes"), (128, "3 minutes")]:
        with mock.patch("django.utils.timezone.now", return_value=at):
            response = pictures(tablet, classroom, student, WRONG)
        assert f"Too many wrong tries. Wait {words} and try again.".encode() in response.content
        # Even the right pictures are refused until the wait is over: guessing gains nothing.
        with mock.patch("django.utils.timezone.now", return_value=at + timedelta(seconds=wait - 1)):
            early = pictures(tablet, classroom, student, RIGHT)
        assert early.status_code == 429 and not signed_in_as(tablet, student)
        assert b"Too many wrong tries. Wait 1 second and try again." in early.content
        at += timedelta(seconds=wait)
    with mock.patch("django.utils.timezone.now", return_value=at):
        assert pictures(tablet, classroom, student, RIGHT).status_code == 302
    assert signed_in_as(tablet, student)


def test_the_wait_never_grows_past_fifteen_minutes(classroom, student):
    tablet = device()
    at = timezone.now()
    for _ in range(20):
        with mock.patch("django.utils.timezone.now", return_value=at):
            response = pictures(tablet, classroom, student, WRONG)
        at += timedelta(minutes=15)
    assert b"Wait 15 minutes and try again." in response.content
    with mock.patch("django.utils.timezone.now", return_value=at):
        assert pictures(tablet, classroom, student, RIGHT).status_code == 302


# ----- 2. every try is counted before its password is checked ----------------------------

@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("where", ["one browser", "forty addresses"])
def test_forty_guesses_at_once_are_not_all_checked(teacher, settings, where):
    """One browser firing 40 guesses at once meets its own limit (10); 40 fresh browsers at 40
    addresses meet the account's limit for devices it does not know (30)."""
    limit = settings.TEACHER_SIGNIN_MAX_FAILURES if where == "one browser" else settings.ACCOUNT_SIGNIN_MAX_FAILURES
    checked = []
    real_authenticate = ModelBackend.authenticate

    def slow_authenticate(self, request, username=None, password=None, **kwargs):
        checked.append(password)
        time.sleep(0.05)  # what Argon2 costs in production: the window the guesses race in
        return real_authenticate(self, request, username=username, password=password, **kwargs)

    start = threading.Barrier(40)
    results = []

    def guess(n):
        client = device(SCHOOL if where == "one browser" else f"198.51.100.{n}")
        if where == "one browser":
            client.cookies["nd_device"] = "b" * 24
        start.wait()
        results.append(teacher_sign_in(client, password=f"guess-{n}").status_code)

    # The clock stands still, so no wait runs out while the 40 are answered: each guess checked
    # past the limit would be one let through by the race, not by the wait having ended.
    frozen = timezone.now()
    with mock.patch.object(ModelBackend, "authenticate", slow_authenticate), \
            mock.patch("django.utils.timezone.now", return_value=frozen):
        threads = [threading.Thread(target=guess, args=(n,)) for n in range(40)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    assert len(results) == 40
    assert len(checked) <= limit, len(checked)


# ----- 3. the client address: only what the trusted proxies added ------------------------

def address_of(settings, count: int, remote: str, forwarded: str | None) -> str:
    from accounts.addresses import client_address

    settings.TRUSTED_PROXY_COUNT = count
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, **headers))


def test_without_a_trusted_proxy_a_forged_header_changes_nothing(settings):
    assert address_of(settings, 0, "192.0.2.1", "10.9.9.9") == "192.0.2.1"
    assert address_of(settings, 0, "192.0.2.1", None) == "192.0.2.1"


def test_behind_proxies_the_address_is_taken_that_many_hops_from_the_right(settings):
    # nginx appended the address it saw; what the client sent before that is ignored.
    assert address_of(settings, 1, "10.0.0.2", "6.6.6.6, 192.0.2.44") == "192.0.2.44"
    assert address_of(settings, 1, "10.0.0.2", "192.0.2.44") == "192.0.2.44"
    assert address_of(settings, 2, "10.0.0.2", "6.6.6.6, 192.0.2.44, 10.0.0.3") == "192.0.2.44"
    assert address_of(settings, 1, "10.0.0.2", None) == "10.0.0.2"
    assert address_of(settings, 1, "10.0.0.2", "not-an-address") == "10.0.0.2"


def test_a_forged_header_cannot_dodge_or_shift_the_schools_class_code_limit(classroom, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.2"
    for n in range(40):  # fresh browsers at the school, each forging another first hop
        device(proxy, HTTP_X_FORWARDED_FOR=f"6.6.{n}.6, {SCHOOL}").post(
            reverse("classroom:join"), {"code": "ZZZZ22"})
    at_school = device(proxy, HTTP_X_FORWARDED_FOR=f"8.8.8.8, {SCHOOL}").post(
        reverse("classroom:join"), {"code": "ABC234"})
    assert at_school.status_code == 429 and b"Too many wrong tries" in at_school.content
    # Another school behind the same proxy is its own address.
    elsewhere = device(proxy, HTTP_X_FORWARDED_FOR="192.0.2.99").post(reverse("classroom:join"), {"code": "ABC234"})
    assert elsewhere.status_code == 302


def test_daphne_is_not_told_to_believe_the_forwarded_header():
    """Daphne's --proxy-headers puts the *first* X-Forwarded-For value, which the client
    chooses, in REMOTE_ADDR: the address must come from accounts/addresses.py instead."""
    root = Path(__file__).resolve().parents[2]
    for path in ("Procfile", "README.md", "Makefile"):
        commands = re.findall(r"(?:daphne|uvicorn) [^`\n]*", (root / path).read_text())
        assert commands if path != "Makefile" else True, path
        assert not [c for c in commands if re.search(r"(?<!no-)proxy-headers", c)], path


# ----- 4. class codes and /admin/ ---------------------------------------------------------

def test_class_codes_cannot_be_tried_from_fresh_browsers_one_after_another(classroom, settings):
    settings.CLASS_CODE_NETWORK_MAX_FAILURES = 20
    checked = 0
    for n in range(40):
        response = device().post(reverse("classroom:join"), {"code": f"ZZZ{n + 222}"})
        checked += b"couldn&#x27;t find a class" in response.content
    assert checked <= settings.CLASS_CODE_NETWORK_MAX_FAILURES
    response = device().post(reverse("classroom:join"), {"code": "ABC234"})
    assert response.status_code == 429
    assert b"Too many wrong tries. Wait" in response.content and b"ask your teacher" in response.content


def test_a_device_that_typed_the_right_code_before_still_gets_in(classroom):
    tablet = device()
    assert tablet.post(reverse("classroom:join"), {"code": "ABC234"}).status_code == 302
    for n in range(60):
        device().post(reverse("classroom:join"), {"code": f"ZZZ{n + 222}"})
    assert tablet.post(reverse("classroom:join"), {"code": "ABC234"}).status_code == 302


@pytest.fixture
def admin_user(db):
    return User.objects.create_superuser(username="head", email="head@school.test", password="admin-pass-42")


def admin_sign_in(client, password):
    return client.post(reverse("admin:login"), {"username": "head", "password": password,
                                                "next": "/admin/"})


def test_admin_sign_in_is_limited_like_the_apps(admin_user, settings):
    guesser = device()
    for _ in range(settings.TEACHER_SIGNIN_MAX_FAILURES):
        admin_sign_in(guesser, "guess")
    response = admin_sign_in(guesser, "admin-pass-42")
    assert response.status_code != 302 and not signed_in_as(guesser, admin_user)
    assert b"Too many wrong tries. Wait 2 seconds and try again." in response.content


def test_admin_wrong_passwords_from_strangers_do_not_stop_the_admins_own_computer(admin_user):
    own = device("192.0.2.5")
    assert admin_sign_in(own, "admin-pass-42").status_code == 302
    own.post(reverse("admin:logout"))
    for n in range(40):
        admin_sign_in(device(f"198.51.100.{n}"), "guess")
    assert admin_sign_in(own, "admin-pass-42").status_code == 302 and signed_in_as(own, admin_user)


def test_counts_nobody_needs_are_deleted_and_known_devices_stay(classroom, student):
    from accounts.models import SignInCount
    from accounts.tasks import sign_in_counts_forget

    tablet = known_tablet(classroom, student)
    pictures(device(), classroom, student, WRONG)  # a fresh browser's wrong try leaves counts
    assert sign_in_counts_forget() == 0  # all still in use
    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(minutes=61)):
        assert sign_in_counts_forget() > 0
    assert not SignInCount.objects.filter(failures__gt=0).exists()
    assert SignInCount.objects.filter(known_at__isnull=False).exists()
    for n in range(40):  # the tablet is still known: strangers' tries do not hold it back
        pictures(device(f"198.51.100.{n}"), classroom, student, WRONG)
    assert pictures(tablet, classroom, student, RIGHT).status_code == 302
