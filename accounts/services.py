"""Account writes: sign-up, student creation, and sign-in checks within their limits."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import authenticate
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.crypto import constant_time_compare, get_random_string

from . import pictures, throttle
from .language import language_is_offered
from .models import Membership, User
from .signals import sessions_ended


def teacher_sign_up(*, name: str, email: str, password: str) -> User:
    email = User.objects.normalize_email(email).lower()
    return User.objects.create_user(
        username=email, email=email, password=password,
        display_name=name.strip(), role=User.Role.TEACHER,
    )


def teacher_create_without_password(*, name: str, email: str, username: str) -> User:
    """A teacher whose school system sent them (rostering/): no password, so they sign in
    through the school's platform or set one with a password reset. `email` may be blank."""
    teacher = User(username=username, email=User.objects.normalize_email(email).lower(),
                   display_name=name.strip(), role=User.Role.TEACHER)
    teacher.set_unusable_password()
    teacher.save()
    return teacher


def teacher_update_profile(*, teacher: User, name: str, email: str, language: str = "") -> User:
    """`language`: a code of settings.LANGUAGES, or "" (the browser decides); it lasts across
    sign-ins and is the language of the teacher's pages and e-mails (accounts/language.py)."""
    email = User.objects.normalize_email(email).lower()
    teacher.display_name = name.strip()
    teacher.email = email
    teacher.username = email
    teacher.language = language if language_is_offered(language) else ""
    teacher.save(update_fields=["display_name", "email", "username", "language"])
    return teacher


def student_create(*, classroom, display_name: str, username: str = "",
                   picture_password: list[str] | None = None) -> User:
    """A student in `classroom` with a fresh picture password; usernames are only internal
    handles."""
    handle = username.strip().lower() or f"s-{get_random_string(10).lower()}"
    student = User(
        username=handle, display_name=display_name.strip(), role=User.Role.STUDENT,
        picture_password=pictures.encode(picture_password or pictures.random_picture_password()),
    )
    student.set_unusable_password()
    with transaction.atomic():
        student.save()
        if classroom is not None:
            Membership.objects.create(student=student, classroom=classroom)
    return student


@dataclass(frozen=True)
class LimitedCheck:
    """The outcome of a limited check (a sign-in, a class code)."""

    found: Any = None  # what the check found (the user, the class); None: wrong, or not checked
    wait_seconds: int = 0  # how long before the next try from this device (0: now)
    checked: bool = True  # False: refused unchecked, because a wait was running

    @property
    def ok(self) -> bool:
        return self.found is not None


def check_limited(*, scope: str, account: str, source: throttle.Source,
                  check: Callable[[], Any]) -> LimitedCheck:
    """Run `check` (None: wrong) within the sign-in limits of accounts/throttle.py: the try is
    counted first, and while a wait runs it is refused unchecked, even a right answer."""
    attempt = throttle.attempt_start(scope=scope, account=account, source=source)
    if not attempt.allowed:
        return LimitedCheck(wait_seconds=attempt.wait_seconds, checked=False)
    found = check()
    if found is None:
        return LimitedCheck(wait_seconds=attempt.wait_seconds)
    throttle.attempt_succeeded(attempt)
    return LimitedCheck(found=found)


def student_check_picture_password(*, student: User, sequence: list[str],
                                   source: throttle.Source) -> LimitedCheck:
    def check():
        stored = student.picture_password
        return student if stored and constant_time_compare(pictures.encode(sequence), stored) else None

    return check_limited(scope="picture", account=str(student.pk), source=source, check=check)


def student_check_text_password(*, student: User, password: str, source: throttle.Source) -> LimitedCheck:
    def check():
        return student if student.has_usable_password() and student.check_password(password) else None

    return check_limited(scope="picture", account=str(student.pk), source=source, check=check)


def student_sign_in_wait(*, student: User, source: throttle.Source) -> int:
    """Seconds this device must wait before this student's next try (0: now)."""
    return throttle.wait_seconds(scope="picture", account=str(student.pk), source=source)


def student_lock_for_teacher(*, student: User) -> datetime | None:
    """Until when some device must wait before its next try at this student's sign-in."""
    return throttle.account_wait_until(scope="picture", account=str(student.pk))


def student_unlock(*, student: User) -> None:
    """A teacher lets a student try again at once, from every device."""
    throttle.account_forgive(scope="picture", account=str(student.pk))


def password_check(*, request, username: str, password: str,
                   accept: Callable[[User], bool] = lambda user: True) -> LimitedCheck:
    """A username (a teacher's is their e-mail) and password, from the app's teacher sign-in
    or /admin/'s: one count per account for both doors. `accept`: whom this door lets in."""
    def check():
        user = authenticate(request, username=username, password=password)
        return user if user is not None and accept(user) else None

    return check_limited(scope="password", account=(username or "").strip().lower(),
                         source=throttle.source_of(request), check=check)


def teacher_check_credentials(*, request, email: str, password: str) -> LimitedCheck:
    return password_check(request=request, username=(email or "").strip().lower(), password=password,
                          accept=lambda user: user.role == User.Role.TEACHER)


def teacher_password_was_reset(*, teacher: User) -> None:
    """A reset proves the owner holds the mailbox: nothing holds their sign-in back now, and
    whoever was signed in with the old password is signed out."""
    throttle.account_forgive(scope="password", account=(teacher.username or "").strip().lower())
    user_end_sessions(user=teacher)


def user_end_sessions(*, user: User, keep_session_key: str = "") -> None:
    """End every session of `user` except the one `keep_session_key` names ("": all of them).

    A stolen or forgotten session must not outlive a new password, and a child's old
    sessions must not outlive new pictures. Raising the session epoch changes the session
    hash (accounts/models.py), so every other session is signed out at its next request
    (the kept one must be given the new hash: `update_session_auth_hash`); once committed,
    `sessions_ended` closes the user's open sockets, which would otherwise keep receiving.
    """
    User.objects.filter(pk=user.pk).update(session_epoch=F("session_epoch") + 1)
    user.refresh_from_db(fields=["session_epoch"])
    user_id = user.pk
    transaction.on_commit(lambda: sessions_ended.send_robust(
        sender=User, user_id=user_id, keep_session_key=keep_session_key or ""))


def class_code_check(*, source: throttle.Source, find: Callable[[], Any]) -> LimitedCheck:
    """A typed class code (`find`: the class, or None), limited per device and, for a device
    that never typed a right code, per network address: fresh browsers cannot dodge it."""
    return check_limited(scope=throttle.CLASS_CODE, account="", source=source, check=find)


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
    throttle.account_forgive(scope="picture", account=str(student.pk))
    user_end_sessions(user=student)  # whoever knew the old pictures is signed out
    return sequence


@transaction.atomic
def student_set_text_password(*, student: User, password: str) -> None:
    student.set_password(password)
    student.save(update_fields=["password"])
    throttle.account_forgive(scope="picture", account=str(student.pk))
    user_end_sessions(user=student)


@transaction.atomic
def student_clear_text_password(*, student: User) -> None:
    student.set_unusable_password()
    student.save(update_fields=["password"])
    user_end_sessions(user=student)


def student_reactivate(*, student: User, classroom) -> User:
    """A removed student back on a class list (their pictures and history as they were; their
    membership of the class, if they had one, taken up again)."""
    with transaction.atomic():
        student.is_active = True
        student.save(update_fields=["is_active"])
        membership, created = Membership.objects.get_or_create(student=student, classroom=classroom)
        if not created and membership.archived_at is not None:
            membership.archived_at = None
            membership.save(update_fields=["archived_at"])
    return student


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
