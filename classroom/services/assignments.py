"""Assignments: a game with a preset, opponents and a goal, for the class or chosen students."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import practice, registry

from .. import presets
from ..models import Assignment, Classroom


def _settings(*, title: str, game: str, preset: str, opponents: str, bot_level: str,
              bot_count: int, mental_math: bool, goal: str, goal_count: int,
              goal_until: date | None, due_on: date | None, focus: dict | None = None) -> dict:
    """The stored fields, made consistent: options from the preset (checked by the engine),
    no opponents for a one-player game, mental maths only where the game has it. A "Practise
    this" `focus` (games/practice.py `Focus.as_json`) adds its focus options to the level's
    (checked by the engine too) and is stored, for the report's before and after."""
    spec = registry.get(game)
    if spec is None:
        raise presets.PresetError(_("Choose one of the games in the list."))
    if spec.is_solo:
        opponents, bot_count = Assignment.Opponents.BOTS, 0
    players = 1 + bot_count if opponents != Assignment.Opponents.CLASSMATES else None
    choice = presets.resolve(game=game, preset=preset, player_count=players)
    # A one-player game has no computer players, so its stored level is never used.
    if not spec.is_solo and bot_level not in presets.bot_level_choices(game):
        raise presets.PresetError(_("Choose a level for the computer players."))
    options, stored_focus = choice.options, {}
    found = practice.from_json(focus) if focus else None
    if found is not None:
        if found.game != game:
            raise presets.PresetError(
                _("This practice is for %(game)s.") % {"game": registry.spec_for(found.game).name}
                if registry.get(found.game) else _("This practice is for another game."))
        options = practice.merged_options(game, choice.options, found.options)
        counts = [players] if players else range(spec.min_players, spec.max_players + 1)
        problem = practice.options_accepted(game, options, counts)
        if problem:
            raise presets.PresetError(problem)
        stored_focus = found.as_json()
    # An empty title is filled in the teacher's language; from then on it is the teacher's text.
    default_title = (_("Practise %(skill)s") % {"skill": stored_focus["label"]} if stored_focus
                     # Translators: an assignment's title: the game's name and the level's, "Numero: Level 3".
                     else _("%(game)s: %(level)s") % {"game": spec.name, "level": choice.label})
    return {
        "title": title.strip() or default_title,
        "game": game, "preset": preset, "options": options, "focus": stored_focus,
        "opponents": opponents, "bot_level": bot_level, "bot_count": bot_count,
        "mental_math": mental_math and spec.mental_math is not None,
        "goal": goal, "goal_count": goal_count,
        "goal_until": goal_until if goal == Assignment.Goal.UNTIL else None,
        "due_on": due_on,
    }


@transaction.atomic
def assignment_create(*, classroom: Classroom, created_by: User, students: list[User] | None = None,
                      **fields) -> Assignment:
    """`students` empty or None: the whole class, including students who join later."""
    assignment = Assignment.objects.create(classroom=classroom, created_by=created_by,
                                           **_settings(**fields))
    assignment.students.set(students or [])
    return assignment


@transaction.atomic
def assignment_update(*, assignment: Assignment, students: list[User] | None = None,
                      **fields) -> Assignment:
    for name, value in _settings(**fields).items():
        setattr(assignment, name, value)
    assignment.save()
    assignment.students.set(students or [])
    return assignment


def assignment_close(*, assignment: Assignment) -> Assignment:
    """Closed work leaves students' home pages; progress is kept and it can be reopened."""
    if assignment.closed_at is None:
        assignment.closed_at = timezone.now()
        assignment.save(update_fields=["closed_at"])
    return assignment


def assignment_reopen(*, assignment: Assignment) -> Assignment:
    assignment.closed_at = None
    assignment.save(update_fields=["closed_at"])
    return assignment


@transaction.atomic
def assignment_duplicate(*, assignment: Assignment, to_classroom: Classroom,
                         created_by: User) -> Assignment:
    """A copy for another class (or the same one), open, for the whole class: chosen
    students belong to the original class."""
    copy = Assignment.objects.create(
        classroom=to_classroom, created_by=created_by,
        **{field: getattr(assignment, field) for field in (
            "title", "game", "preset", "options", "opponents", "bot_level", "bot_count",
            "mental_math", "goal", "goal_count", "goal_until", "due_on", "focus")})
    if to_classroom.pk == assignment.classroom_id:
        copy.students.set(assignment.students.all())
    return copy


@transaction.atomic
def assignments_forget_student(*, student: User) -> None:
    """Erasing a student (privacy/erasure.py): they leave every list of chosen students. Work
    set for them alone is deleted, not left with an empty list, which would mean the whole
    class (and a "Practise this" for one child says what that child found hard)."""
    for assignment in Assignment.objects.filter(students=student).prefetch_related("students"):
        if {s.pk for s in assignment.students.all()} == {student.pk}:
            assignment.delete()
        else:
            assignment.students.remove(student)
