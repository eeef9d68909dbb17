"""Shared by the validity tests: their module fixtures commit a simulated class."""


def remove_simulated(sim) -> None:
    """Leave the database as it was found."""
    owner = sim.classroom.owner
    sim.classroom.delete()
    for student in sim.students:
        student.delete()
    if not owner.owned_classes.exists():
        owner.delete()
