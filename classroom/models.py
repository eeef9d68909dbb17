from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_lazy as _

from accounts.codes import new_join_code


class Classroom(models.Model):
    """A class. Students join with its code; its teachers (owner and co-teachers) manage it."""

    name = models.CharField(max_length=80)
    grade = models.CharField(max_length=20, blank=True)
    join_code = models.CharField(max_length=6, unique=True, default=new_join_code)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_classes"
    )
    teachers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="taught_classes")
    free_play = models.BooleanField(default=True, help_text="Students may play any game.")
    archived_at = models.DateTimeField(null=True, blank=True)
    # The class's language (a code from settings.LANGUAGES) for students who have not chosen
    # their own; blank: each student's browser decides (accounts/language.py).
    language = models.CharField(max_length=12, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None


class Assignment(models.Model):
    """Work set by a teacher: a game with a preset, opponents, and a goal.

    `options` are the engine options (from the preset, possibly adjusted). `students` empty
    means the whole class, including students who join later.
    """

    class Opponents(models.TextChoices):
        BOTS = "bots", _("Computer players")
        CLASSMATES = "classmates", _("Classmates")
        EITHER = "either", _("Computer players or classmates")

    class Goal(models.TextChoices):
        PLAY = "play", _("Play a number of games")
        WIN = "win", _("Win a number of games")
        UNTIL = "until", _("Play until a date")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    title = models.CharField(max_length=100)
    game = models.CharField(max_length=30)
    preset = models.CharField(max_length=40, blank=True)
    options = models.JSONField(default=dict)
    opponents = models.CharField(max_length=10, choices=Opponents.choices, default=Opponents.BOTS)
    bot_level = models.CharField(max_length=10, default="beginner")
    bot_count = models.PositiveSmallIntegerField(default=1)
    mental_math = models.BooleanField(default=False)
    goal = models.CharField(max_length=5, choices=Goal.choices, default=Goal.PLAY)
    goal_count = models.PositiveSmallIntegerField(default=3)
    goal_until = models.DateField(null=True, blank=True)
    due_on = models.DateField(null=True, blank=True)
    students = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="assignments")
    # A "Practise this" assignment: what it practises (games/practice.py `Focus.as_json`:
    # game, measure, detail, label, the focus options and the evidence details the report's
    # before/after counts); {} for an ordinary assignment. `options` already include the
    # focus options.
    focus = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return self.title

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class CoTeacherInvite(models.Model):
    """An e-mailed link that lets another teacher co-teach a class.

    Only a hash of the link's token is stored, so a leaked database row cannot be turned back
    into a working link. A link works once (`accepted_at`) and only until `expires_at`; a
    teacher of the class may withdraw it (`withdrawn_at`) before then.
    """

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="invites")
    email = models.EmailField()
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return f"{self.email} → {self.classroom}"

    @property
    def masked_email(self) -> str:
        """r***@school.org: enough for the right teacher to recognise, without giving the
        address to someone holding a forwarded link."""
        local, _, domain = self.email.partition("@")
        return f"{local[:1]}***@{domain}"

    @property
    def for_someone_else(self) -> str:
        """What a teacher signed in with another address is told (and nothing changes)."""
        # Translators: %(address)s is a partly hidden e-mail address, such as r***@school.org.
        return gettext("This invitation was sent to %(address)s. Sign in with that address, "
                       "or ask the teacher to invite you.") % {"address": self.masked_email}

    def is_usable(self, now) -> bool:
        return self.accepted_at is None and self.withdrawn_at is None and self.expires_at > now
