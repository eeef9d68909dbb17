"""A live dashboard update sends what changed, not the whole page: for a class of 30 with a
full skill table, one student's new numbers cost a few kilobytes (the target is 5 KB)."""

import pytest
from channels.db import database_sync_to_async

from live.envelope import read
from reports.measures import all_measures
from reports.models import SkillRollup
from reports.realtime import broadcast_dashboard_changed

from .showing import rollup
from .test_dashboard_consumer import connect_dashboard

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_debounce")]

STUDENTS = 30


def full_class(classroom, make_student):
    """30 students, each with numbers on every measure, and the class's numbers."""
    students = [make_student(classroom, f"Kid {i:02d}", ("boat", "star", "apple")) for i in range(STUDENTS)]
    measures = [m for m in all_measures() if m.has_misses]
    for n, student in enumerate(students):
        for m in measures:
            rollup(classroom, m.id, student=student, chances=20 + n, misses=n % 7)
    for m in measures:
        rollup(classroom, m.id, chances=900, misses=90)
    return students


def add_a_game(classroom, student):
    """One more finished game's worth of numbers for one student, and for the class."""
    measure = next(m for m in all_measures() if m.has_misses)
    SkillRollup.objects.filter(classroom=classroom, student=student, measure=measure.id).update(
        chances=99, misses=33)
    SkillRollup.objects.filter(classroom=classroom, student=None, measure=measure.id).update(
        chances=979, misses=123)


@pytest.mark.asyncio
async def test_one_students_new_numbers_send_only_their_row(teacher, classroom, make_student):
    students = await database_sync_to_async(full_class)(classroom, make_student)
    comm = connect_dashboard(teacher, classroom.pk)
    assert (await comm.connect(timeout=10))[0]
    first = await comm.receive_from(timeout=5)
    assert len(first.encode()) > 20_000  # the whole skill table, on connect
    changed = students[7]
    await database_sync_to_async(add_a_game)(classroom, changed)
    await database_sync_to_async(broadcast_dashboard_changed)(classroom_id=classroom.pk)
    frames = [await comm.receive_from(timeout=5)]
    while not await comm.receive_nothing(timeout=0.3):
        frames.append(await comm.receive_from(timeout=1))
    sent = "".join(frames)
    print(f"update: {len(sent.encode())} bytes after {len(first.encode())} on connect")
    assert len(sent.encode()) <= 5_000, len(sent.encode())
    assert f'id="dash-c-{changed.pk}-' in sent and ">33</a>" in sent and ">99</a>" in sent
    assert 'id="dash-c-class-' in sent and ">123</a>" in sent
    others = [s for s in students if s.pk != changed.pk]
    assert not any(f'id="dash-c-{s.pk}-' in sent for s in others)
    # Cells travel in a frame of their own, which htmx parses as table cells once the page
    # took the envelope off (static/js/live.js).
    row_frames = [read(f)[3] for f in frames if "id=\"dash-c-" in f]
    assert row_frames and all(f.lstrip().startswith(("<td", "<th")) for f in row_frames)
    await comm.disconnect()
