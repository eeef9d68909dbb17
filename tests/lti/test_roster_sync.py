"""The class list kept in step with the course (names and roles): read from devtools' test
platform, page by page, on a teacher's launch and when a teacher presses "Sync the class list
now" on the class's page of the course."""

from django.test import Client
from lti_tool.models import LtiUser

from accounts.models import Membership, User
from devtools.lti_platform import INSTRUCTOR, LEARNER
from lti.models import CourseClass, RosterSync
from lti.tasks import sync_roster
from tests.conftest import classroom_of

from .services_platform import platform_launch

MENTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"


def course_class_with(platform):
    """The teacher opens Numberdeck from the course; Sam comes through it; the course's members
    are then listed by the test: the launch's own sync (queued after the commit) does not run
    in a test transaction."""
    teacher = Client()
    assert platform_launch(teacher, platform, person="teacher").status_code == 302
    assert platform_launch(Client(), platform, person="student").status_code == 302
    course_class = CourseClass.objects.select_related("classroom").get()
    assert not RosterSync.objects.exists()
    return teacher, course_class


def class_list(classroom) -> list[str]:
    return sorted(User.objects.filter(role=User.Role.STUDENT, is_active=True, memberships__classroom=classroom,
                                      memberships__archived_at__isnull=True).values_list("display_name", flat=True))


def press_sync(client, classroom):
    response = client.post(f"/lti/classes/{classroom.pk}/class-list/sync/", follow=True)
    assert response.status_code == 200
    return response.content.decode()


def set_course(platform, *members):
    platform.members = [platform.member(*m) if isinstance(m, tuple) else m for m in members]


TEACHER = ("demo-teacher", [INSTRUCTOR], "Tess", "Teacher")
SAM = ("demo-student", [LEARNER], "Sam", "Student")
ANA = ("demo-student-2", [LEARNER], "Ana", "Lopez")
OMAR = ("demo-student-3", [LEARNER], "Omar", "Haddad")
CO_TEACHER = ("demo-teacher-2", [INSTRUCTOR], "Cleo", "Coteach")


def test_a_sync_adds_new_members_archives_those_who_left_and_reads_every_page(test_platform, make_student):
    teacher, course_class = course_class_with(test_platform)
    classroom = course_class.classroom
    make_student(classroom, "Kim")  # added on Numberdeck, not through the course: never touched
    sam = User.objects.get(display_name="Sam S.")
    # Sam left the course; Zoe was deleted before ever coming; a mentor and a member without an
    # identifier are left out. Seven members, three to a page: three pages.
    set_course(test_platform, TEACHER, ANA, ("zoe", [LEARNER], "Zoe", "Gone", "Deleted"), OMAR, CO_TEACHER,
               ("parent-1", [MENTOR], "Pat", "Parent"), {"roles": [LEARNER], "status": "Active", "name": "Nobody"})
    test_platform.page_size = 3

    page = press_sync(teacher, classroom)

    # Each next page as the platform named it: its token keeps its capitals.
    first, *following = test_platform.member_requests
    assert first == "/memberships" and len(following) == 2
    assert all("limit=3&pageToken=" in path and path != path.lower() for path in following)
    assert class_list(classroom) == ["Ana L.", "Kim", "Omar H."]
    sam.refresh_from_db()
    left = Membership.objects.get(student=sam, classroom=classroom)
    assert left.archived_at is not None and not sam.is_active  # archived, not deleted: his games stay
    co = LtiUser.objects.get(sub="demo-teacher-2").auth_user
    assert co.is_teacher and classroom.teachers.filter(pk=co.pk).exists() and co.display_name == "Cleo Coteach"
    ana = LtiUser.objects.get(sub="demo-student-2")
    assert (ana.given_name, ana.family_name, ana.name, ana.email) == ("", "", "", "")  # only the sub is kept
    assert not LtiUser.objects.filter(sub="zoe", auth_user__isnull=False).exists()
    assert "The class list is in step with the course." in page
    assert "Added: 3 people" in page and "Taken off the class list: 1 student" in page
    assert "Unchanged: 2 people" in page and "Left out: 2 members" in page

    # The same list again changes nothing.
    accounts = User.objects.count()
    page = press_sync(teacher, classroom)
    assert "Added: 0 people" in page and "Taken off the class list: 0 students" in page
    assert "Unchanged: 5 people" in page
    assert class_list(classroom) == ["Ana L.", "Kim", "Omar H."] and User.objects.count() == accounts


def test_a_student_back_in_the_course_is_back_on_the_class_list(test_platform):
    teacher, course_class = course_class_with(test_platform)
    classroom = course_class.classroom
    sam = User.objects.get(display_name="Sam S.")
    set_course(test_platform, TEACHER, ANA)
    press_sync(teacher, classroom)
    assert class_list(classroom) == ["Ana L."]
    refused = platform_launch(Client(), test_platform, person="student")
    assert refused.status_code == 403  # his account was closed with his last class

    test_platform.add_member(*SAM)
    page = press_sync(teacher, classroom)
    assert "Added: 1 person" in page
    assert class_list(classroom) == ["Ana L.", "Sam S."]
    assert User.objects.get(display_name="Sam S.").pk == sam.pk  # the same account, his history with it
    assert Membership.objects.filter(student=sam, classroom=classroom).count() == 1
    assert platform_launch(Client(), test_platform, person="student")["Location"] == "/play/"


def test_a_status_of_inactive_archives_and_active_again_reactivates(test_platform):
    teacher, course_class = course_class_with(test_platform)
    test_platform.set_status("demo-student", "Inactive")
    assert "Taken off the class list: 1 student" in press_sync(teacher, course_class.classroom)
    assert "Sam S." not in class_list(course_class.classroom)
    test_platform.set_status("demo-student", "Active")
    press_sync(teacher, course_class.classroom)
    assert "Sam S." in class_list(course_class.classroom)


def test_a_teachers_launch_queues_the_sync_and_the_task_twice_is_harmless(
        test_platform, eager_celery, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        platform_launch(Client(), test_platform, person="teacher")
    classroom = CourseClass.objects.get().classroom
    sync = RosterSync.objects.get()
    assert sync.succeeded and (sync.added, sync.unchanged) == (3, 1)  # three students; the teacher
    assert class_list(classroom) == ["Ana L.", "Omar H.", "Sam S."]
    accounts = User.objects.count()
    sync_roster.apply(args=[sync.course_class_id])
    sync_roster.apply(args=[sync.course_class_id])
    sync.refresh_from_db()
    assert (sync.added, sync.archived, sync.unchanged) == (0, 0, 4)
    assert class_list(classroom) == ["Ana L.", "Omar H.", "Sam S."] and User.objects.count() == accounts
    # Sam's own launch finds the account the sync made.
    assert platform_launch(Client(), test_platform, person="student")["Location"] == "/play/"
    assert User.objects.count() == accounts


def test_a_platform_error_is_shown_in_plain_words_and_changes_nothing(test_platform):
    teacher, course_class = course_class_with(test_platform)
    classroom = course_class.classroom
    set_course(test_platform, TEACHER, ANA)  # Sam left, Ana came
    test_platform.fail_members = 1
    page = press_sync(teacher, classroom)
    assert "The class list could not be synced: The learning platform refused to give the class list (HTTP 503)." \
        in page
    assert "did not work, and nothing was changed" in page
    assert class_list(classroom) == ["Sam S."] and not LtiUser.objects.filter(sub="demo-student-2").exists()
    assert not RosterSync.objects.get().succeeded


def test_a_page_that_fails_midway_changes_nothing(test_platform):
    teacher, course_class = course_class_with(test_platform)
    set_course(test_platform, TEACHER, ANA, OMAR)  # Sam left; two pages
    test_platform.page_size = 2
    test_platform.fail_members, test_platform.fail_members_after = 1, 1  # the second page fails
    page = press_sync(teacher, course_class.classroom)
    assert "(HTTP 503)" in page and len(test_platform.member_requests) == 2
    assert class_list(course_class.classroom) == ["Sam S."]  # Sam not archived from half a list
    assert not LtiUser.objects.filter(sub="demo-student-2").exists()
    assert "Omar H." not in page and "Added:" not in page

    page = press_sync(teacher, course_class.classroom)  # the platform is back
    assert class_list(course_class.classroom) == ["Ana L.", "Omar H."]


def test_only_the_class_teachers_may_sync_it(test_platform, make_teacher, make_student):
    teacher, course_class = course_class_with(test_platform)
    classroom = course_class.classroom
    assert "Class list from the course" in teacher.get(f"/teach/classes/{classroom.pk}/").content.decode()
    page = teacher.get(f"/lti/classes/{classroom.pk}/class-list/").content.decode()
    assert "has not been synced with the course yet" in page and "Sync the class list now" in page

    stranger = Client()
    stranger.force_login(make_teacher(name="Mr Elsewhere"))
    assert stranger.get(f"/lti/classes/{classroom.pk}/class-list/").status_code == 404
    assert stranger.post(f"/lti/classes/{classroom.pk}/class-list/sync/").status_code == 404
    own = classroom_of(User.objects.get(display_name="Mr Elsewhere"))  # a class from no course
    assert stranger.post(f"/lti/classes/{own.pk}/class-list/sync/").status_code == 404

    child = Client()
    child.force_login(make_student(classroom, "Kim"))
    assert child.post(f"/lti/classes/{classroom.pk}/class-list/sync/").status_code == 403
    assert test_platform.member_requests == [] and not RosterSync.objects.exists()
