"""`simulate_class --json` lists each student's flags beside their measures: a class played
through the real services (devtools/simulation.py), one student with a planted fact, one with
a planted operation, one with no plant, checked from the command's own output."""

import io
import json
import re
from types import SimpleNamespace

import pytest
from django.core.management import call_command

from classroom.models import Classroom

from .simulated import remove_simulated

pytestmark = pytest.mark.django_db

GAMES = 8  # per student, taking turns: The Multiplication Game, Smooth Operator


@pytest.fixture(scope="module")
def printed(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        out, err = io.StringIO(), io.StringIO()
        call_command("simulate_class", "--students", "3", "--games", str(GAMES), "--seed", "3",
                     "--profile", "mg.facts:7x8=0.9", "--profile", "so.mental_math:/=0.9",
                     "--error-free", "1", "--json", stdout=out, stderr=err)
        classroom = Classroom.objects.get(pk=int(re.search(r"\(id (\d+)\)", err.getvalue()).group(1)))
        yield json.loads(out.getvalue())
        remove_simulated(SimpleNamespace(classroom=classroom, students=list(classroom.students.all())))


def test_each_student_has_their_flags_beside_their_measures(printed):
    fact, division, clean = printed["students"]
    assert fact["measures"]["mg.facts:7x8"]["planted"] == 0.9
    assert division["measures"]["so.mental_math:÷"]["planted"] == 0.9
    assert [(f["reason"], f["detail"]) for f in fact["flags"]] == [("fact", "7x8")]
    assert [(f["reason"], f["detail"]) for f in division["flags"]] == [("operation", "÷")]
    assert clean["flags"] == []
    [flag] = fact["flags"]
    measured = fact["measures"]["mg.facts:7x8"]
    assert flag["words"] == f"7 × 8: {measured['misses']} of {measured['chances']} wrong"
    assert flag["band"] in ("Practise", "Needs help")
    assert flag["evidence"]["p"] <= flag["evidence"]["p_needed"]
    [flag] = division["flags"]
    assert flag["words"].startswith("÷ (dividing): ")
