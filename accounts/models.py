from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import pgettext_lazy

from . import pictures


class User(AbstractUser):
    """Teachers sign in with e-mail and password; students belong to classes (`Membership`)
    and have no e-mail.

    `picture_password` is kept readable on purpose: teachers print it on sign-in cards
    (3 of 12 pictures is a classroom credential, protected by the sign-in lockout, not a
    secret from the teacher). A student's optional text password uses Django's hashed
    `password` field like everyone else's.
    """

    class Role(models.TextChoices):
        TEACHER = "teacher", pgettext_lazy("kind of account", "Teacher")
        STUDENT = "student", pgettext_lazy("kind of account", "Student")

    role = models.CharField(max_length=10, choices=Role.choices, default=Role.TEACHER)
    display_name = models.CharField(max_length=60)
    picture_password = models.CharField(max_length=64, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # Raised by `services.user_end_sessions` (a password reset, new pictures, "Sign out
    # everywhere"): it is part of the session hash below, so every session signed in before
    # it was raised stops working at its next request.
    session_epoch = models.PositiveIntegerField(default=0)
    # The language this person chose (a code from settings.LANGUAGES), kept across sign-ins;
    # blank until they choose: a student then reads their class's language, anyone else the
    # browser's (accounts/language.py).
    language = models.CharField(max_length=12, blank=True, default="")

    class Meta:
        constraints = [
            # A teacher who comes from a school's learning platform (lti/) may have no e-mail.
            models.UniqueConstraint(
                Lower("email"),
                condition=models.Q(role="teacher") & ~models.Q(email=""),
                name="unique_teacher_email",
            )
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    def _get_session_auth_hash(self, secret=None):
        """Django's hash of the password, plus the session epoch. Django checks it on every
        request and socket connect (and `get_session_auth_fallback_hash` goes through here
        too). Epoch 0 gives Django's own hash, so sessions from before the epoch existed
        stay signed in."""
        if not self.session_epoch:
            return super()._get_session_auth_hash(secret=secret)
        return salted_hmac("numberdeck.accounts.User.session_epoch", f"{self.session_epoch}:{self.password}",
                           secret=secret, algorithm="sha256").hexdigest()

    @property
    def is_teacher(self) -> bool:
        return self.role == self.Role.TEACHER

    @property
    def is_student(self) -> bool:
        return self.role == self.Role.STUDENT

    @property
    def picture_sequence(self) -> list[str]:
        return pictures.decode(self.picture_password)


class Membership(models.Model):
    """A student's place in one class. A child is in several classes at once (their maths
    class, an intervention group, next year's class), one row each.

    Leaving a class archives the row (`archived_at`), never deletes it: the child's games and
    evidence in that class stay in the class's records, and a child who comes back gets the
    same row again. Only erasing the child (privacy/) deletes it.

    What a game counts for: every game belongs to one class (`games.Game.classroom`), the class
    the child was working in when it was dealt (the class they signed in through, or the one
    they chose on their page; an assignment's game is the assignment's class). Its evidence
    counts in that class's reports only, and a teacher sees a child's games and evidence from
    their own classes only, never from another class the child is also in.
    """

    student = models.ForeignKey(User, on_delete=models.CASCADE, related_name="memberships")
    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(default=timezone.now)
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["student", "classroom"], name="one_membership_per_class")]
        indexes = [models.Index(fields=["classroom", "archived_at"])]

    def __str__(self) -> str:
        return f"{self.student} in {self.classroom}"

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None


class SignInCount(models.Model):
    """Wrong sign-in tries of one kind from one place (accounts/throttle.py says which). The
    key is keyed-hashed: the table names no account, device or address."""

    scope = models.CharField(max_length=20)
    key = models.CharField(max_length=100)
    failures = models.PositiveIntegerField(default=0)
    last_failure_at = models.DateTimeField(null=True, blank=True)
    # An account-and-device count only: when this device last signed in to the account. A
    # known device is held back by its own wrong tries alone.
    known_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scope", "key"], name="one_count_per_key")]
        indexes = [models.Index(fields=["last_failure_at"])]
