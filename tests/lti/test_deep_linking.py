"""Deep linking: the teacher sets an assignment from the platform's "add an activity"; the
signed answer, decoded by the platform, places it; its link then opens it."""

from django.test import Client

from classroom.models import Assignment, Classroom
from devtools.lti_platform import DL_CLAIM
from lti.models import PlacedAssignment

from .services_platform import deep_link, platform_launch

CLAIM_TYPE = "https://purl.imsglobal.org/spec/lti/claim/message_type"


def test_a_teacher_places_an_assignment_and_its_link_opens_it(test_platform):
    platform = test_platform
    teacher = Client()
    platform_launch(teacher, platform, person="teacher")
    classroom = Classroom.objects.get()
    page, answer = deep_link(teacher, platform, classroom, title="Numbers week")

    assignment = Assignment.objects.get()
    assert assignment.classroom == classroom and assignment.title == "Numbers week"
    assert "form-action 'self' " + platform.origin in page["Content-Security-Policy"]
    assert answer[CLAIM_TYPE] == "LtiDeepLinkingResponse" and answer[DL_CLAIM + "data"] == "demo-data"
    [item] = answer[DL_CLAIM + "content_items"]
    assert item["type"] == "ltiResourceLink" and item["url"] == "http://testserver/lti/launch/"
    assert item["custom"] == {"numberdeck_assignment": str(assignment.pk)}
    assert item["lineItem"]["scoreMaximum"] == 100 and item["lineItem"]["label"] == "Numbers week"

    student = Client()
    opened = platform_launch(student, platform, person="student", activity=0)
    assert opened["Location"] == f"/play/assignment/{assignment.pk}/start/"
    assert student.get(opened["Location"]).status_code == 200
    placement = PlacedAssignment.objects.get()
    assert placement.lineitem_url == platform.activities[0]["lineitem"]  # from the launch's grades claim
    again = platform_launch(teacher, platform, person="teacher", activity=0)
    assert again["Location"] == f"/lti/assignments/{placement.pk}/"
    assert "Numbers week" in teacher.get(again["Location"]).content.decode()


def test_a_student_cannot_add_an_activity(test_platform):
    platform = test_platform
    platform_launch(Client(), platform, person="teacher")
    refused = platform_launch(Client(), platform, person="student", message="deep_link")
    assert refused.status_code == 403 and "can add Numberdeck work" in refused.content.decode()
    assert not Assignment.objects.exists()


def test_a_link_naming_work_not_placed_in_this_course_is_refused(test_platform):
    platform_launch(Client(), test_platform, person="teacher")
    test_platform.activities.append({"id": "copied-link", "title": "Copied", "lineitem": None,
                                     "custom": {"numberdeck_assignment": "999999"}})
    refused = platform_launch(Client(), test_platform, person="teacher", activity=0)
    assert refused.status_code == 403 and "belongs to another course" in refused.content.decode()
