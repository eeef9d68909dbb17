"""The rows every export shares, as plain Python values."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date

from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from classroom import selectors as classroom_selectors
from classroom.models import Classroom
from games import registry

from ..measures import RULES, THINK, all_measures
from ..models import SkillEvidence, SkillRollup
from ..words import Cell

# A spreadsheet runs a cell starting with one of these as a formula ("CSV injection");
# a leading apostrophe makes it text. Tab and carriage return are the OWASP additions.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def safe_row(row) -> list:
    return [safe_cell(v) for v in row]


def filename(classroom: Classroom, what: str, ext: str, day: date | None = None) -> str:
    day = day or timezone.localdate()
    return f"{slugify(classroom.name) or 'class'}-{what}-{day.isoformat()}.{ext}"


def game_name(key: str) -> str:
    spec = registry.get(key)
    return spec.name if spec else key


SKILL_HEADER = ["Student", "Measure id", "Measure", "Game", "What counts as a miss", "Misses",
                "Chances", "Missed (%)", "Median seconds", "In words"]


def skill_cells(*, classroom: Classroom) -> list[tuple[object, list[Cell]]]:
    """(student, a cell for every measure) for every student of the class: two queries."""
    students = list(classroom_selectors.students_of_class(classroom=classroom))
    measures = all_measures()
    known = {m.id: m for m in measures}
    found = {}
    for sid, mid, chances, misses, median in SkillRollup.objects.filter(
            classroom=classroom, scope=SkillRollup.Scope.STUDENT, week__isnull=True,
            assignment__isnull=True, detail="").values_list(
            "student_id", "measure", "chances", "misses", "amount_median"):
        if mid in known:
            found[(sid, mid)] = Cell(known[mid], misses, chances, median)
    return [(s, [found.get((s.pk, m.id)) or Cell(m) for m in measures]) for s in students]


def skill_rows(*, classroom: Classroom) -> Iterator[list]:
    """One row per student × measure (every measure, "0 of 0" when not played yet)."""
    for student, cells in skill_cells(classroom=classroom):
        for cell in cells:
            m = cell.measure
            rate = round(100 * cell.rate, 1) if cell.rate is not None else ""
            median = round(cell.median, 1) if cell.median is not None else ""
            yield [student.display_name, m.id, m.title, game_name(m.game) if m.game else "All games",
                   m.miss_words or "-", cell.misses if m.has_misses else "", cell.chances,
                   rate, median, cell.words]


DECISION_HEADER = ["Student", "Played at", "Game", "Game number", "Assignment", "Turn", "Move",
                   "Accepted", "Rule error", "Seconds", "Chances at", "Missed", "Details",
                   "Replay"]


def decision_count(*, classroom: Classroom) -> int:
    return SkillEvidence.objects.filter(classroom=classroom).count()


def decision_rows(*, classroom: Classroom,
                  progress: Callable[[int], None] | None = None) -> Iterator[list]:
    """One row per recorded decision of a student (a move with its evidence rows), oldest
    first. Streams the evidence in chunks; `progress(n)` hears how many rows were read."""
    evidence = (SkillEvidence.objects.filter(classroom=classroom)
                .select_related("student", "game", "assignment", "move")
                .order_by("move_id", "id"))
    current, group, read = None, [], 0
    for row in evidence.iterator(chunk_size=2000):
        read += 1
        if progress and read % 2000 == 0:
            progress(read)
        if current is not None and row.move_id != current:
            yield _decision(group)
            group = []
        current = row.move_id
        group.append(row)
    if group:
        yield _decision(group)
    if progress:
        progress(read)


def _decision(group: list[SkillEvidence]) -> list:
    first = group[0]
    move = first.move
    # Every attempt is a chance at the rules (an accepted one has no rules row of its own).
    chances = {e.measure for e in group if e.measure != THINK} | {RULES}
    think = move.think_ms / 1000 if move.think_ms is not None else None
    details = sorted({f"{e.measure}={e.detail}" for e in group
                      if e.detail and e.measure not in (THINK, RULES)})
    action = move.action.get("type", "") if isinstance(move.action, dict) else ""
    replay = reverse("games:replay", args=[first.game_id]) + f"?turn={first.turn}"
    return [
        first.student.display_name, timezone.localtime(first.played_at).strftime("%Y-%m-%d %H:%M"),
        game_name(first.game.key), first.game_id, first.assignment.title if first.assignment else "",
        first.turn, action, "yes" if move.accepted else "no", move.error_code,
        round(think, 1) if think is not None else "",
        " ".join(sorted(chances)),
        " ".join(sorted({e.measure for e in group if e.missed})),
        " ".join(details), replay,
    ]
