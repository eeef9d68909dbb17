"""Measure, in process, what one live dashboard render costs (30 students, every measure) and
what its first push weighs. Not collected by default (not test_*.py): run it by path,
  python -m pytest tests/reports/bench_dashboard_render.py -s -q
"""

import time

import pytest

from live.diff import Sent, as_parts
from live.envelope import envelope
from reports.rendering import render_dashboard_live

from .test_dashboard_sends_what_changed import full_class

pytestmark = pytest.mark.django_db

ROUNDS, REPEATS = 5, 10


def test_dashboard_render_cost(teacher, classroom, make_student):
    full_class(classroom, make_student)
    render = lambda: render_dashboard_live(user=teacher, classroom_id=classroom.pk)  # noqa: E731
    changes = Sent(count=True).changes(1, as_parts(render()))
    first = [envelope(type="dashboard", version=1, parts=frame) for frame in (changes.parts, changes.items) if frame]
    rounds = []  # the machine is shared: the quickest of a few rounds is the least disturbed
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(REPEATS):
            render()
        rounds.append((time.process_time() - start) * 1000 / REPEATS)
    print(f"\nDASHBOARD first push {sum(len(f.encode()) for f in first)} B in {len(first)} frames, "
          f"render {min(rounds):.2f} ms")
