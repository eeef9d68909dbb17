"""Every message Numberdeck must refuse gets a page in plain words (4xx) and creates nothing:
no account, no class, no record of the person or the course."""

import time

import pytest
from django.test import Client
from tests.conftest import active_class_names
from lti_tool.models import LtiContext, LtiDeployment, LtiMembership, LtiResourceLink, LtiUser

from accounts.models import User
from classroom.models import Classroom
from lti.models import CourseClass

from .platform import CLAIM, INSTRUCTOR, LEARNER, MENTOR, SigningKey, auth_request, course, launch, \
    login_initiation, post_id_token

MODELS = [User, Classroom, CourseClass, LtiUser, LtiContext, LtiMembership, LtiResourceLink, LtiDeployment]


def counts() -> dict:
    return {model.__name__: model.objects.count() for model in MODELS}


def refused(response, status: int) -> str:
    assert response.status_code == status, response.content[:300]
    page = response.content.decode()
    assert "Numberdeck could not open" in page and "Nothing was changed in Numberdeck." in page
    assert "_auth_user_id" not in response.wsgi_request.session
    return page


@pytest.fixture
def course_with_class(platform):
    """A course whose teacher has launched once, so its class exists."""
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    return platform


def now() -> int:
    return int(time.time())


BAD_CLAIMS = {  # claims changed (made when the test runs), and the library's reason for refusing
    "expired": (lambda: {"exp": now() - 60, "iat": now() - 400}, "Signature has expired"),
    "not yet valid (nbf)": (lambda: {"nbf": now() + 600}, "not yet valid (nbf)"),
    "issued in the future": (lambda: {"iat": now() + 600, "exp": now() + 900}, "not yet valid (iat)"),
    "no expiry": (lambda: {"exp": None}, 'missing the "exp" claim'),
    "wrong audience": (lambda: {"aud": "another-tool"}, "Registration not found"),
    "unknown issuer": (lambda: {"iss": "https://elsewhere.example"}, "Registration not found"),
    "unknown deployment": (lambda: {CLAIM + "deployment_id": "deployment-unknown"}, "Unable to find deployment"),
    "no roles claim": (dict, "Missing Roles Claim"),
    "wrong version": (lambda: {CLAIM + "version": "1.1"}, "Incorrect version"),
}


@pytest.fixture
def reasons(caplog):
    caplog.set_level("INFO", logger="lti.views")
    return lambda: " ".join(record.getMessage() for record in caplog.records if record.name == "lti.views")


@pytest.mark.parametrize("case", BAD_CLAIMS)
def test_a_message_the_library_finds_invalid_is_refused(course_with_class, visitor, reasons, case):
    platform = course_with_class
    make_claims, reason = BAD_CLAIMS[case]
    claims = make_claims()
    before = counts()
    # A student launch: were it taken, it would create the student.
    roles = None if case == "no roles claim" else [LEARNER]
    refused(launch(visitor, platform, sub="student-1", roles=roles, context=course(), **claims), 400)
    assert reason in reasons()
    assert counts() == before


def test_a_deployment_switched_off_is_refused(course_with_class, visitor):
    LtiDeployment.objects.update(is_active=False)
    before = counts()
    refused(launch(visitor, course_with_class, sub="teacher-1", roles=[INSTRUCTOR], context=course()), 400)
    assert counts() == before


def test_a_bad_signature_is_refused(course_with_class, visitor, reasons):
    platform = course_with_class
    before = counts()
    forger = SigningKey()
    # Signed by another key that claims the platform's key id.
    response = launch(visitor, platform, sub="student-1", roles=[LEARNER], context=course(),
                      sign=lambda claims: platform.sign(claims, key=forger, kid=platform.signing.kid))
    refused(response, 400)
    assert "Signature verification failed" in reasons()
    assert counts() == before


def test_a_token_whose_body_was_changed_after_signing_is_refused(course_with_class, visitor, reasons):
    platform = course_with_class
    before = counts()

    def tamper(claims):
        genuine = platform.sign(claims)
        other = platform.sign({**claims, "sub": "someone-else"})
        head, _, signature = genuine.split(".")
        return ".".join([head, other.split(".")[1], signature])

    refused(launch(visitor, platform, sub="student-1", roles=[LEARNER], context=course(), sign=tamper), 400)
    assert "Signature verification failed" in reasons()
    assert counts() == before


def test_a_replayed_id_token_is_refused(course_with_class, visitor, reasons):
    platform = course_with_class
    asked = auth_request(login_initiation(visitor, platform, sub="student-1"), platform)
    token = platform.sign(platform.claims(nonce=asked["nonce"], sub="student-1", roles=[LEARNER], context=course()))
    assert post_id_token(visitor, asked, token).status_code == 302
    after_first = counts()

    replay = Client()
    replay.cookies = visitor.cookies  # the same state cookie, the same token: a replay
    visitor.logout()
    refused(post_id_token(replay, asked, token), 400)
    assert "Invalid Nonce" in reasons()
    assert counts() == after_first


def test_a_nonce_numberdeck_never_issued_is_refused(course_with_class, visitor):
    platform = course_with_class
    asked = auth_request(login_initiation(visitor, platform, sub="student-1"), platform)
    before = counts()
    token = platform.sign(platform.claims(nonce="made-up", sub="student-1", roles=[LEARNER], context=course()))
    refused(post_id_token(visitor, asked, token), 400)
    assert counts() == before


def test_a_state_that_does_not_match_the_browser_is_refused(course_with_class, visitor, reasons):
    platform = course_with_class
    asked = auth_request(login_initiation(visitor, platform, sub="student-1"), platform)
    token = platform.sign(platform.claims(nonce=asked["nonce"], sub="student-1", roles=[LEARNER], context=course()))
    before = counts()
    refused(post_id_token(Client(), asked, token), 400)  # another visitor, without the state cookie
    assert counts() == before


@pytest.mark.parametrize("roles", [[], [MENTOR], ["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Guest"]])
def test_a_launch_without_a_teacher_or_student_role_is_refused(course_with_class, visitor, roles):
    before = counts()
    page = refused(launch(visitor, course_with_class, sub="parent-1", roles=roles, context=course()), 403)
    assert "did not say that you are either" in page
    assert counts() == before


def test_a_student_before_any_teacher_of_the_course_is_refused(platform, visitor):
    before = counts()
    page = refused(launch(visitor, platform, sub="student-1", roles=[LEARNER], context=course()), 403)
    assert "has not opened Numberdeck from this course yet" in page
    assert counts() == before


def test_a_launch_from_outside_any_course_is_refused(platform, visitor):
    before = counts()
    refused(launch(visitor, platform, sub="teacher-1", roles=[INSTRUCTOR], context=None), 400)
    assert counts() == before


def test_a_student_launching_into_another_courses_class_is_refused(platform, visitor):
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course("course-a", "Maths A"))
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course("course-b", "Maths B"))
    class_a = Classroom.objects.get(name="Maths A")
    before = counts()

    # A link copied from course A into course B still names A's class.
    page = refused(launch(visitor, platform, sub="student-1", roles=[LEARNER], context=course("course-b", "Maths B"),
                          **{CLAIM + "custom": {"numberdeck_class": str(class_a.pk)}}), 403)
    assert "belongs to another course" in page
    assert counts() == before
    # From its own course, the same link works.
    ok = launch(Client(), platform, sub="student-1", roles=[LEARNER], context=course("course-a", "Maths A"),
                **{CLAIM + "custom": {"numberdeck_class": str(class_a.pk)}})
    assert ok.status_code == 302 and active_class_names(User.objects.get(role="student")) == [class_a.name]


def test_a_student_account_launching_as_a_teacher_is_refused(course_with_class, visitor):
    platform = course_with_class
    launch(Client(), platform, sub="student-1", roles=[LEARNER], context=course())
    before = counts()
    refused(launch(visitor, platform, sub="student-1", roles=[INSTRUCTOR], context=course("course-z")), 403)
    assert counts() == before


def test_an_unknown_issuer_at_login_initiation_is_refused(platform, visitor):
    before = counts()
    refused(login_initiation(visitor, platform, sub="teacher-1", issuer="https://elsewhere.example"), 400)
    assert counts() == before


def test_the_launch_url_only_takes_a_post(platform, visitor):
    assert visitor.get("/lti/launch/").status_code == 405
    refused(visitor.post("/lti/launch/", {"id_token": "not.a.token", "state": "x"}), 400)


def test_a_refusal_is_in_the_readers_language(platform):
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es")
    page = launch(spanish, platform, sub="student-1", roles=[LEARNER], context=course())
    assert page.status_code == 403
    text = page.content.decode()
    assert "Numberdeck no se pudo abrir" in text and "No se cambió nada en Numberdeck." in text
