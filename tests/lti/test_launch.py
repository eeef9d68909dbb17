"""Launches from a platform played by the test (tests/lti/platform.py): login initiation, the
authorisation redirect, then the id token POST, validated by pylti1p3 against the platform's
key set fetched over HTTP."""

from django.test import Client
from lti_tool.models import LtiMembership, LtiUser

from accounts.models import User
from classroom.models import Classroom
from tests.classroom.helpers import page_text
from tests.conftest import active_class_names
from lti.models import CourseClass

from .platform import INSTRUCTOR, LEARNER, TEACHING_ASSISTANT, auth_request, course, launch


def signed_in_user(client) -> User:
    return User.objects.get(pk=client.session["_auth_user_id"])


def test_a_teachers_first_launch_makes_the_courses_class_and_lands_on_it(platform, visitor):
    response = launch(visitor, platform, sub="teacher-1", roles=[INSTRUCTOR], context=course(title="Maths 5B"))

    classroom = Classroom.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/teach/classes/{classroom.pk}/"
    teacher = signed_in_user(visitor)
    assert teacher.is_teacher and teacher.display_name == "Ada Lovelace"
    assert teacher.email == "" and not teacher.has_usable_password()
    assert classroom.name == "Maths 5B" and classroom.owner == teacher
    assert list(classroom.teachers.all()) == [teacher]
    assert CourseClass.objects.get().classroom == classroom
    page = visitor.get(response["Location"])
    assert page.status_code == 200 and "Maths 5B" in page.content.decode()


def test_the_same_teacher_launching_again_is_the_same_teacher_on_the_same_class(platform, visitor):
    launch(visitor, platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    again = launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())

    assert again.status_code == 302
    assert User.objects.filter(role="teacher").count() == 1 and Classroom.objects.count() == 1


def test_a_teaching_assistant_becomes_a_co_teacher_of_the_courses_class(platform, visitor):
    launch(visitor, platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    assistant_browser = Client()
    response = launch(assistant_browser, platform, sub="ta-1", roles=[TEACHING_ASSISTANT], context=course(),
                      name="Grace Hopper")

    classroom = Classroom.objects.get()
    assistant = signed_in_user(assistant_browser)
    assert response["Location"] == f"/teach/classes/{classroom.pk}/"
    assert classroom.owner.display_name == "Ada Lovelace"
    assert set(classroom.teachers.values_list("display_name", flat=True)) == {"Ada Lovelace", "Grace Hopper"}
    assert assistant.is_teacher


def test_a_student_lands_signed_in_on_their_home_page_in_the_courses_class(platform, visitor):
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    response = launch(visitor, platform, sub="student-1", roles=[LEARNER], context=course(),
                      given_name="Ben", family_name="Okafor", name="Ben Okafor")

    assert response.status_code == 302 and response["Location"] == "/play/"
    student = signed_in_user(visitor)
    assert student.is_student and student.display_name == "Ben O."
    assert active_class_names(student) == [Classroom.objects.get().name] and student.email == ""
    home = visitor.get("/play/")
    assert home.status_code == 200 and "Ben O." in home.content.decode()


def test_the_same_child_from_two_courses_is_one_student(platform, visitor):
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course("course-a", "Maths A"))
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course("course-b", "Maths B"))
    class_a, class_b = Classroom.objects.get(name="Maths A"), Classroom.objects.get(name="Maths B")

    launch(visitor, platform, sub="student-1", roles=[LEARNER], context=course("course-a", "Maths A"))
    assert active_class_names(signed_in_user(visitor)) == ["Maths A"]
    second = Client()
    response = launch(second, platform, sub="student-1", roles=[LEARNER], context=course("course-b", "Maths B"))

    assert response["Location"] == "/play/"
    student = signed_in_user(second)
    assert User.objects.filter(role="student").count() == 1 and signed_in_user(visitor) == student
    # In the classes of both courses, and working in the one launched from.
    assert active_class_names(student) == ["Maths A", "Maths B"]
    assert "You are playing in Maths B." in page_text(second.get("/play/"))
    lti_user = LtiUser.objects.get(sub="student-1")
    assert lti_user.auth_user == student
    assert set(LtiMembership.objects.filter(user=lti_user, is_learner=True)
               .values_list("context__id_on_platform", flat=True)) == {"course-a", "course-b"}


def test_two_students_with_the_same_name_are_told_apart(platform, visitor):
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    launch(Client(), platform, sub="student-1", roles=[LEARNER], context=course(), given_name="Ben",
           family_name="Okafor")
    launch(visitor, platform, sub="student-2", roles=[LEARNER], context=course(), given_name="Ben",
           family_name="Osei")

    assert signed_in_user(visitor).display_name not in ("Ben O.", "ben o.")
    assert User.objects.filter(role="student").count() == 2


def test_a_platform_without_names_still_gives_a_working_account(platform, visitor):
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course(), name=None,
           given_name=None, family_name=None)
    response = launch(visitor, platform, sub="student-1", roles=[LEARNER], context=course(), name=None,
                      given_name=None, family_name=None)

    assert response["Location"] == "/play/"
    assert signed_in_user(visitor).display_name == "Student"
    assert User.objects.get(role="teacher").display_name == "Teacher"


def test_a_name_with_hidden_characters_is_not_taken(platform, visitor):
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    launch(visitor, platform, sub="student-1", roles=[LEARNER], context=course(), given_name="Ben\u202e",
           family_name="Okafor", name="Ben\u202e Okafor")
    assert signed_in_user(visitor).display_name == "Student"


def test_a_login_initiation_without_client_id_uses_the_issuers_only_registration(platform, visitor):
    response = visitor.get("/lti/login/", {"iss": platform.issuer, "login_hint": "teacher-1",
                                           "target_link_uri": "http://testserver/lti/launch/"})
    asked = auth_request(response, platform)
    assert asked["client_id"] == platform.client_id and asked["redirect_uri"] == "http://testserver/lti/launch/"
