"""Which Numberdeck person and class each OneRoster `sourcedId` is, per roster source.

A source is one school system sending bundles (its `source.systemName`, or the name an
administrator gives it): ids are unique within a source only. The links are how a second
bundle knows who is who; `archived_at` records what the roster took away (a `tobedeleted`
row, or a bulk bundle that no longer lists it), so a later bundle can bring it back.
"""

from django.conf import settings
from django.db import models


class RosterSource(models.Model):
    name = models.CharField(max_length=100, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class RosterPerson(models.Model):
    """A OneRoster user who is a Numberdeck student or teacher."""

    source = models.ForeignKey(RosterSource, on_delete=models.CASCADE, related_name="people")
    sourced_id = models.CharField(max_length=255)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="roster_ids")
    role = models.CharField(max_length=10)  # "student" or "teacher", as accounts.User.Role
    # False: the account was already in Numberdeck (a teacher with the same e-mail): the
    # roster never renames it.
    created_account = models.BooleanField(default=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["source", "sourced_id"], name="one_person_per_roster_id")]


class RosterClass(models.Model):
    source = models.ForeignKey(RosterSource, on_delete=models.CASCADE, related_name="classes")
    sourced_id = models.CharField(max_length=255)
    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE, related_name="roster_ids")
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["source", "sourced_id"], name="one_class_per_roster_id")]


class RosterEnrollment(models.Model):
    """A person in a class as the roster last said: what a later bundle compares with."""

    source = models.ForeignKey(RosterSource, on_delete=models.CASCADE, related_name="enrollments")
    sourced_id = models.CharField(max_length=255)
    person = models.ForeignKey(RosterPerson, on_delete=models.CASCADE, related_name="enrollments")
    roster_class = models.ForeignKey(RosterClass, on_delete=models.CASCADE, related_name="enrollments")
    role = models.CharField(max_length=10)
    archived_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["source", "sourced_id"],
                                               name="one_enrollment_per_roster_id")]


class RosterImport(models.Model):
    """One uploaded bundle: previewed, then (maybe) applied.

    `bundle` holds the checked bundle, only the fields Numberdeck keeps (rostering/records.py),
    while it waits for the administrator's confirmation; it is emptied once applied. The
    uploaded zip itself is never stored.
    """

    source = models.ForeignKey(RosterSource, on_delete=models.CASCADE, related_name="imports")
    file_name = models.CharField(max_length=200, blank=True)
    version = models.CharField(max_length=5)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    bundle = models.JSONField(default=dict, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    counts = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
