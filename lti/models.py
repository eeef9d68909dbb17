"""What Numberdeck adds to django-lti's records (docs/lti.md, "What Numberdeck stores").

django-lti keeps the platforms (`LtiRegistration`, with the service URLs later work needs), their
deployments, the courses (`LtiContext`), the people (`LtiUser`: issuer and `sub`, linked to a
Numberdeck account by `auth_user`) and who is in which course (`LtiMembership`). This app adds
which Numberdeck class a course opens.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class CourseClass(models.Model):
    """The Numberdeck class a course on a platform opens: made at a teacher's first launch from
    that course (a course is a context within one deployment)."""

    context = models.OneToOneField("lti_tool.LtiContext", on_delete=models.CASCADE,
                                   related_name="numberdeck_class", verbose_name=_("course"))
    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE,
                                  related_name="lti_courses", verbose_name=_("class"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("course's class")
        verbose_name_plural = _("courses' classes")

    def __str__(self) -> str:
        return f"{self.context} → {self.classroom}"
