"""Shared by the validity tests: their module fixtures commit a simulated class."""

from reports.measures import all_measures
from reports.models import SkillRollup
from reports.operations import operation_of


def remove_simulated(sim) -> None:
    """Leave the database as it was found."""
    owner = sim.classroom.owner
    sim.classroom.delete()
    for student in sim.students:
        student.delete()
    if not owner.owned_classes.exists():
        owner.delete()


def operations_of(student) -> dict[str, tuple[int, int]]:
    """(misses, chances) per operation from the student's all-time roll-ups, summed over the
    per-operation measures (what the reports show as "by operation")."""
    ids = [m.id for m in all_measures() if m.by_operation]
    found: dict[str, tuple[int, int]] = {}
    for row in SkillRollup.objects.filter(student=student, scope="student", week=None, measure__in=ids):
        op = operation_of(row.detail)
        if op:
            misses, chances = found.get(op, (0, 0))
            found[op] = (misses + row.misses, chances + row.chances)
    return found
