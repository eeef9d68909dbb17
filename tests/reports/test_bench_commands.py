"""The two report benchmarks run end to end on a small scale, print their figures and leave
the database as they found it."""

import re
from io import StringIO

import pytest
from django.core.management import call_command

from accounts.models import User
from classroom.models import Classroom
from reports.models import SkillEvidence, SkillRollup
from games.models import Game, Move

pytestmark = pytest.mark.django_db(transaction=True)


def _counts():
    return [m.objects.count() for m in (User, Classroom, Game, Move, SkillEvidence, SkillRollup)]


def test_bench_dashboard_prints_render_times_and_cleans_up():
    before = _counts()
    out = StringIO()
    call_command("bench_dashboard", students=3, games=4, renders=2, stdout=out)
    text = out.getvalue()
    assert re.search(r"Built 3 students, 12 games, \d+ evidence rows", text)
    assert re.search(r"median [\d.]+ ms, p90 [\d.]+ ms, max [\d.]+ ms; \d+ queries", text)
    assert _counts() == before


def test_bench_reports_prints_decisions_per_second_and_cleans_up():
    before = _counts()
    out = StringIO()
    call_command("bench_reports", decisions=400, workers=1, stdout=out)
    text = out.getvalue()
    decisions = int(re.search(r"Set-up: \d+ finished games, (\d+) decisions", text).group(1))
    assert decisions >= 400
    assert re.search(rf"Analysis: {decisions} decisions -> \d+ evidence rows in [\d.]+ s = [\d,]+ decisions/s", text)
    assert re.search(r"Roll-up: \d+ decisions in [\d.]+ s = [\d,]+ decisions/s", text)
    assert _counts() == before
