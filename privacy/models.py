"""The access log and the retention job's warnings.

Why a small model rather than django-auditlog: auditlog records changes to rows (create,
update, delete); what a school asks is who *looked at* or *exported* a child's reports, and
those are reads, which auditlog does not see.
"""
from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext, pgettext_lazy

# The access log's sentences, whole (each language orders them its own way): by action and by
# whose data it was. `what` is a thing's name from privacy/access_log.py LOGGED ("skill report").
SENTENCES = {
    ("viewed", "student"): pgettext_lazy(
        "access log", "%(viewer)s viewed %(student)s's %(what)s, %(when)s"),
    ("exported", "student"): pgettext_lazy(
        "access log", "%(viewer)s exported %(student)s's %(what)s, %(when)s"),
    ("viewed", "former"): pgettext_lazy(
        "access log", "%(viewer)s viewed a former student's %(what)s, %(when)s"),
    ("exported", "former"): pgettext_lazy(
        "access log", "%(viewer)s exported a former student's %(what)s, %(when)s"),
    ("viewed", "class"): pgettext_lazy(
        "access log: a whole class's data", "%(viewer)s viewed %(class)s's %(what)s, %(when)s"),
    ("exported", "class"): pgettext_lazy(
        "access log: a whole class's data", "%(viewer)s exported %(class)s's %(what)s, %(when)s"),
}


class AccessLog(models.Model):
    """One view or export of a child's data (or of a whole class's), by a teacher or an
    administrator, written by privacy/middleware.py after the page answered 200.

    The viewer's and the class's names are copied so the log stays readable after an account
    or a class is gone; the child's is not: once the child is erased, the row says "a former
    student" (the row records that someone looked, which the school keeps)."""

    class Action(models.TextChoices):
        VIEWED = "viewed", pgettext_lazy("access log action", "viewed")
        EXPORTED = "exported", pgettext_lazy("access log action", "exported")

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
    def sentence(self) -> str:
        """"Ms Rivera viewed Maya R.'s skill report, 26 Nov 14:03", in the active language. The
        row keeps its words in English (`action`, `what`: data); they become words here."""
        # Translators: a day and time in the access log, as Django's date format: "26 Nov 14:03".
        when = date_format(timezone.localtime(self.at), pgettext("access log time", "j M H:i"))
        values = {"viewer": self.viewer_name, "what": gettext(self.what), "when": when}
        if self.about_class:
            values["class"] = self.classroom_name
            template = SENTENCES[self.action, "class"]
        elif self.student is None:
            template = SENTENCES[self.action, "former"]
        else:
            values["student"] = self.student.display_name
            template = SENTENCES[self.action, "student"]
        return str(template) % values


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
