"""Account writes: sign-up, student creation, and sign-in checks with their lockouts."""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import authenticate
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, get_random_string

from . import pictures, throttle
from .models import User


def teacher_sign_up(*, name: str, email: str, password: str) -> User:
    email = User.objects.normalize_email(email).lower()
    return User.objects.create_user(
        username=email, email=email, password=password,
        display_name=name.strip(), role=User.Role.TEACHER,
    )


def teacher_update_profile(*, teacher: User, name: str, email: str) -> User:
    email = User.objects.normalize_email(email).lower()
    teacher.display_name = name.strip()
    teacher.email = email
    teacher.username = email
    teacher.save(update_fields=["display_name", "email", "username"])
    return teacher


def student_create(*, classroom, display_name: str, username: str = "",
                   picture_password: list[str] | None = None) -> User:
    """A student with a fresh picture password; usernames are only internal handles."""
    handle = username.strip().lower() or f"s-{get_random_string(10).lower()}"
    student = User(
        username=handle, display_name=display_name.strip(), role=User.Role.STUDENT,
        classroom=classroom,
        picture_password=pictures.encode(picture_password or pictures.random_picture_password()),
    )
    student.set_unusable_password()
    student.save()
    return student


@dataclass(frozen=True)
class SignInResult:
    user: User | None = None
    locked_until: datetime | None = None

    @property
    def ok(self) -> bool:
        return self.user is not None


def _check_with_lockout(*, scope: str, account: str, source: str, user: User | None,
                        correct: bool) -> SignInResult:
    until = throttle.locked_until(scope=scope, account=account, source=source)
    if until:
        # While locked, even a right answer is refused, so guessing gains nothing.
        return SignInResult(locked_until=until)
    if correct and user is not None:
        throttle.clear(scope=scope, account=account, source=source)
        return SignInResult(user=user)
    return SignInResult(locked_until=throttle.record_failure(scope=scope, account=account, source=source))


def student_check_picture_password(*, student: User, sequence: list[str], source: str) -> SignInResult:
    stored = student.picture_password
    correct = bool(stored) and constant_time_compare(pictures.encode(sequence), stored)
    return _check_with_lockout(scope="picture", account=str(student.pk), source=source, user=student,
                               correct=correct)


def student_check_text_password(*, student: User, password: str, source: str) -> SignInResult:
    correct = student.has_usable_password() and student.check_password(password)
    return _check_with_lockout(scope="picture", account=str(student.pk), source=source, user=student,
                               correct=correct)


def student_sign_in_locked_until(*, student: User, source: str) -> datetime | None:
    """When this student may try again from this device (None: now)."""
    return throttle.locked_until(scope="picture", account=str(student.pk), source=source)


def student_lock_for_teacher(*, student: User) -> datetime | None:
    """Until when some device (or every device) must wait before this student's next try."""
    return throttle.account_locked_until(scope="picture", account=str(student.pk))


def student_unlock(*, student: User) -> None:
    """A teacher lets a locked-out student try again at once, from every device."""
    throttle.clear_account(scope="picture", account=str(student.pk))


def teacher_check_credentials(*, request, email: str, password: str) -> SignInResult:
    email = (email or "").strip().lower()
    user = authenticate(request, username=email, password=password)
    correct = user is not None and user.role == User.Role.TEACHER
    return _check_with_lockout(scope="teacher", account=email, source=throttle.source_of(request),
                               user=user, correct=correct)


def teacher_password_was_reset(*, teacher: User) -> None:
    """A reset proves the owner holds the mailbox: their sign-in is no longer locked."""
    throttle.clear_account(scope="teacher", account=(teacher.email or "").strip().lower())


def class_code_attempt(*, found: bool, source: str) -> datetime | None:
    """A typed class code. Wrong ones are counted per source, so codes can't be guessed fast;
    returns when this source may type a code again (None: it may use this one now). While
    locked, even a right code is refused."""
    until = throttle.locked_until(scope="class_code", account="", source=source)
    if until or found:
        return until
    return throttle.record_failure(scope="class_code", account="", source=source)


@transaction.atomic
def user_touch_last_seen(*, user: User) -> None:
    User.objects.filter(pk=user.pk).update(last_seen_at=timezone.now())


# ----- student management by teachers (called by classroom/services/roster.py) --------

def student_rename(*, student: User, display_name: str) -> User:
    student.display_name = display_name.strip()
    student.save(update_fields=["display_name"])
    return student


@transaction.atomic
def student_set_picture_password(*, student: User, sequence: list[str] | None = None) -> list[str]:
    """Give the student new pictures (random unless given) and lift any sign-in lockout, since
    a teacher resetting pictures is exactly how a locked-out child gets back in."""
    sequence = list(sequence) if sequence else pictures.random_picture_password()
    if not pictures.is_picture_sequence(sequence):
        raise ValueError("A picture password is 3 of the 12 pictures.")
    student.picture_password = pictures.encode(sequence)
    student.save(update_fields=["picture_password"])
    throttle.clear_account(scope="picture", account=str(student.pk))
    return sequence


@transaction.atomic
def student_set_text_password(*, student: User, password: str) -> None:
    student.set_password(password)
    student.save(update_fields=["password"])
    throttle.clear_account(scope="picture", account=str(student.pk))


def student_clear_text_password(*, student: User) -> None:
    student.set_unusable_password()
    student.save(update_fields=["password"])


def student_deactivate(*, student: User) -> None:
    """Removing a student keeps their past games for the class's records but ends sign-in
    (inactive users fail authentication, and their sessions stop working)."""
    student.is_active = False
    student.save(update_fields=["is_active"])


@transaction.atomic
def student_delete(*, student: User) -> None:
    """Delete a student's account for good (privacy/erasure.py calls it last, once every other
    row about them is gone), with the sign-in lockout counts kept under their account."""
    student_unlock(student=student)
    student.delete()
