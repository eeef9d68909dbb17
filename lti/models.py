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


class RegistrationLink(models.Model):
    """A one-time link an administrator gives a platform for LTI Dynamic Registration
    (docs/lti.md): the platform opens it, and Numberdeck registers itself there. Only a hash of
    the link's token is stored; it works once, and only until `expires_at`."""

    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey("accounts.User", null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    registration = models.ForeignKey("lti_tool.LtiRegistration", null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")

    class Meta:
        ordering = ["-created_at", "id"]


class PlacedAssignment(models.Model):
    """A Numberdeck assignment a teacher placed in a course by deep linking (docs/lti.md): its
    resource links carry the custom parameter `numberdeck_assignment`, and its scores go to the
    course's line item `lineitem_url` (known from a launch, or found or made when posting)."""

    assignment = models.ForeignKey("classroom.Assignment", on_delete=models.CASCADE, related_name="lti_placements")
    context = models.ForeignKey("lti_tool.LtiContext", on_delete=models.CASCADE, related_name="+")
    lineitem_url = models.URLField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["assignment", "context"], name="one_placement_per_course")]


class GradePost(models.Model):
    """The last score sent (or tried) to the platform for one student and one placed assignment.
    While a score is on its way, `sending_score` and `sending_at` (the score's timestamp) say
    which (lti/grades.py): no row lock is held during the request to the platform."""

    class State(models.TextChoices):
        POSTED = "posted", _("Posted")
        FAILED = "failed", _("Not posted")

    placement = models.ForeignKey(PlacedAssignment, on_delete=models.CASCADE, related_name="grade_posts")
    student = models.ForeignKey("accounts.User", on_delete=models.CASCADE, related_name="+")
    score = models.FloatField()
    state = models.CharField(max_length=6, choices=State.choices)
    error = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    sending_score = models.FloatField(null=True, blank=True)
    sending_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["placement", "student"], name="one_grade_post_per_student")]


class RosterSync(models.Model):
    """The last sync of a course's class list from the platform's names-and-roles service
    (lti/roster_sync.py): when, and what it did, or why it failed (in plain words)."""

    course_class = models.OneToOneField(CourseClass, on_delete=models.CASCADE, related_name="roster_sync")
    synced_at = models.DateTimeField()
    succeeded = models.BooleanField(default=False)
    added = models.PositiveIntegerField(default=0)
    archived = models.PositiveIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
