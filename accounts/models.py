from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.crypto import salted_hmac
from django.utils.translation import pgettext_lazy

from . import pictures


class User(AbstractUser):
    """Teachers sign in with e-mail and password; students belong to a class and have no e-mail.

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
    classroom = models.ForeignKey(
        "classroom.Classroom",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="students",
        help_text="Students only: the class the student belongs to.",
    )
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
