"""The access log and the retention job's warnings.

Why a small model rather than django-auditlog: auditlog records changes to rows (create,
update, delete); what a school asks is who *looked at* or *exported* a child's reports, and
those are reads, which auditlog does not see.
"""
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format


class AccessLog(models.Model):
    """One view or export of a child's data (or of a whole class's), by a teacher or an
    administrator, written by privacy/middleware.py after the page answered 200.

    The viewer's and the class's names are copied so the log stays readable after an account
    or a class is gone; the child's is not: once the child is erased, the row says "a former
    student" (the row records that someone looked, which the school keeps)."""

    class Action(models.TextChoices):
        VIEWED = "viewed", "viewed"
        EXPORTED = "exported", "exported"

    at = models.DateTimeField(db_index=True)
    viewer = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                               related_name="+")
    viewer_name = models.CharField(max_length=150)
    action = models.CharField(max_length=10, choices=Action.choices)
    what = models.CharField(max_length=60)
    # True: the page was about the whole class (a class-wide export); `student` is then None.
    about_class = models.BooleanField(default=False)
    student = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="+")
    classroom = models.ForeignKey("classroom.Classroom", null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    classroom_name = models.CharField(max_length=80, blank=True)
    path = models.CharField(max_length=300)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["classroom", "-at"])]

    def __str__(self) -> str:
        return self.sentence

    @property
    def subject(self) -> str:
        """Whose data: the class's name, the child's, or "a former student" once erased."""
        if self.about_class:
            return self.classroom_name
        return self.student.display_name if self.student is not None else "a former student"

    @property
    def sentence(self) -> str:
        """"Ms Rivera viewed Maya R.'s skill report, 26 Nov 14:03"."""
        when = date_format(timezone.localtime(self.at), "j M H:i")
        return f"{self.viewer_name} {self.action} {self.subject}'s {self.what}, {when}"


class ErasureWarning(models.Model):
    """The retention job warned the class's teachers that the class will be erased on
    `erase_on`. It holds for one archiving (`archived_at`): restoring the class cancels it, and
    archiving it again starts a new year. `emailed_at` records that the e-mail went (it is sent
    once; a failed send is tried again by the next run)."""

    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE,
                                  related_name="+")
    archived_at = models.DateTimeField()
    warned_at = models.DateTimeField()
    erase_on = models.DateTimeField()
    emailed_at = models.DateTimeField(null=True, blank=True)
    # Set once the class was erased, in case the erasure keeps the class's row.
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["classroom", "archived_at"],
                                               name="one_warning_per_archiving")]

    def __str__(self) -> str:
        return f"{self.classroom} erased on {self.erase_on:%Y-%m-%d}"
