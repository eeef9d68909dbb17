"""`simulate_class --json` lists each student's flags beside their measures: a class plays real
games through the services (devtools/simulation.py), one student with a planted operation and
one with no plant, and the command's own output says what the teacher is told. (One planted
fact or operation gives that flag and nothing else, and students at the top of Strong are
seldom flagged: tests/reports/test_validity_detail_flags.py, many more games, no database.)"""

import io
import json
import re
from types import SimpleNamespace

import pytest
from django.core.management import call_command

from classroom.models import Classroom
from tests.conftest import members

from .simulated import remove_simulated

pytestmark = pytest.mark.django_db

GAMES = 8  # of Smooth Operator: about two ÷ answers a game


@pytest.fixture(scope="module")
def printed(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        out, err = io.StringIO(), io.StringIO()
        call_command("simulate_class", "--students", "2", "--games", str(GAMES), "--seed", "3",
                     "--plant", "so.mental_math:/=0.8", "--error-free", "1", "--json",
                     stdout=out, stderr=err)
        classroom = Classroom.objects.get(pk=int(re.search(r"\(id (\d+)\)", err.getvalue()).group(1)))
        yield json.loads(out.getvalue())
        remove_simulated(SimpleNamespace(classroom=classroom, students=list(members(classroom))))


def test_each_students_flags_are_beside_their_measures(printed):
    planted, clean = printed["students"]
    division = planted["measures"]["so.mental_math:÷"]
    assert division["planted"] == 0.8 and planted["measures"]["so.mental_math"]["planted"] is None
    assert [(f["reason"], f["measure"], f["detail"]) for f in planted["flags"]] == [
        ("operation", "so.mental_math", "÷")]
    [flag] = planted["flags"]
    assert flag["words"] == f"÷ (dividing) in Mental maths: {division['misses']} of {division['chances']} wrong"
    assert flag["band"] in ("Practise", "Needs help")
    ev = flag["evidence"]
    assert ev["p"] <= ev["p_needed"] and ev["rows"] > 3 and ev["alpha"] == 0.05
    assert clean["flags"] == [] and all(not f["misses"] for f in clean["measures"].values())
