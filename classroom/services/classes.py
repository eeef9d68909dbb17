"""Class lifecycle: create, edit, archive and restore, new join code, permanent deletion."""

from django.db import transaction
from django.utils import timezone

from accounts.language import language_is_offered
from accounts.membership import membership_changed
from accounts.models import Membership, User

from accounts.codes import new_join_code
from ..models import Classroom


def _unused_join_code() -> str:
    # 32^6 codes make a clash rare, but a clash would be an IntegrityError on save.
    for _ in range(50):
        code = new_join_code()
        if not Classroom.objects.filter(join_code=code).exists():
            return code
    raise RuntimeError("Could not find an unused join code.")


@transaction.atomic
def classroom_create(*, teacher: User, name: str, grade: str = "") -> Classroom:
    classroom = Classroom.objects.create(name=name.strip(), grade=grade.strip(), owner=teacher,
                                         join_code=_unused_join_code())
    classroom.teachers.add(teacher)
    return classroom


def classroom_update(*, classroom: Classroom, name: str, grade: str, free_play: bool,
                     language: str | None = None) -> Classroom:
    """`language`: the class's language for students who chose none ("" the browser decides;
    None leaves it as it is). A code the site does not offer is refused."""
    classroom.name = name.strip()
    classroom.grade = grade.strip()
    classroom.free_play = free_play
    fields = ["name", "grade", "free_play"]
    if language is not None:
        if language and not language_is_offered(language):
            raise ValueError(f"Not a language the site offers: {language!r}")
        classroom.language = language
        fields.append("language")
    classroom.save(update_fields=fields)
    return classroom


def classroom_set_free_play(*, classroom: Classroom, free_play: bool) -> Classroom:
    classroom.free_play = free_play
    classroom.save(update_fields=["free_play"])
    return classroom


def classroom_archive(*, classroom: Classroom) -> Classroom:
    """Hide the class and stop sign-ins; nothing is lost and `classroom_restore` undoes it."""
    if classroom.archived_at is None:
        classroom.archived_at = timezone.now()
        classroom.save(update_fields=["archived_at"])
        membership_changed(classroom.pk)  # its live dashboards stop (they show active classes)
    return classroom


def classroom_restore(*, classroom: Classroom) -> Classroom:
    classroom.archived_at = None
    classroom.save(update_fields=["archived_at"])
    return classroom


def classroom_regenerate_join_code(*, classroom: Classroom) -> str:
    """A new code; the old one (and every printed card with it) stops working."""
    classroom.join_code = _unused_join_code()
    classroom.save(update_fields=["join_code"])
    return classroom.join_code


@transaction.atomic
def classroom_delete_permanently(*, classroom: Classroom, typed_name: str) -> None:
    """Delete an archived class, its assignments, games and student accounts.

    The second confirmation is enforced here, not only in the form: the class must already be
    archived and the teacher must have typed its name.
    """
    if classroom.archived_at is None:
        raise ValueError("Only an archived class can be deleted permanently.")
    if " ".join(typed_name.split()) != " ".join(classroom.name.split()):
        raise ValueError("The typed name does not match the class name.")
    # Students who were only ever in this class go with it: without it they could never sign
    # in again. A child who is (or was) also in another class keeps their account there.
    classroom_id = classroom.pk
    other_classes = Membership.objects.exclude(classroom=classroom).values("student_id")
    affected = set(Membership.objects.filter(classroom=classroom).exclude(student_id__in=other_classes)
                   .values_list("student_id", flat=True))
    User.objects.filter(role=User.Role.STUDENT, pk__in=affected).delete()
    classroom.delete()
    membership_changed(classroom_id)  # any socket still open on it closes at its next push
