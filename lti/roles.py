"""Which LTI roles (the LIS vocabulary of LTI 1.3) make a Numberdeck teacher or student."""

from lti_tool.lti_core.constants import ContextRole
from lti_tool.lti_core.utils import normalize_role

TEACHING_ASSISTANT = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
TEACHER_ROLES = frozenset({ContextRole.INSTRUCTOR, ContextRole.ADMINISTRATOR, TEACHING_ASSISTANT})
STUDENT_ROLES = frozenset({ContextRole.LEARNER})


def numberdeck_role(roles) -> str | None:
    """"teacher", "student", or None when the launch carries neither kind of course role (a
    mentor, a guest, a platform-wide role alone). Someone with both is a teacher."""
    if not isinstance(roles, list):
        return None
    given = {normalize_role(role) for role in roles if isinstance(role, str)}
    if given & TEACHER_ROLES:
        return "teacher"
    if given & STUDENT_ROLES:
        return "student"
    return None
