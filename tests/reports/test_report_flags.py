"""'Needs help': clearly worse than the rest of the class with enough chances, or 4+ rule
errors in one game, or a fact or operation whose own band says so (judged with all the
student's rows together: tests/reports/test_detail_flags.py); each flag carries the numbers
behind it."""

import re

import pytest
from django.urls import reverse

from reports import flags, services
from reports.flags import miss_rate_verdict
from reports.models import NeedsHelpFlag, SkillEvidence, SkillRollup
from devtools.planted import PlantedPlayer, parse_plant
from devtools.simulation import play_game

from .showing import rollup

pytestmark = pytest.mark.django_db


def test_the_miss_rate_rule():
    assert flags.miss_rate_verdict(12, 30, 10, 120) is not None  # 40% against 8%
    assert flags.miss_rate_verdict(3, 8, 10, 120) is None        # too few chances of their own
    assert flags.miss_rate_verdict(5, 30, 10, 120) is None       # 17% against 8%: not clearly worse
    assert flags.miss_rate_verdict(0, 50, 0, 200) is None        # nothing missed
    assert flags.miss_rate_verdict(12, 30, 3, 15) is None        # too few chances in the class
    verdict = flags.miss_rate_verdict(12, 30, 10, 120)
    assert verdict["student"] == {"misses": 12, "chances": 30, "rate": 0.4}
    assert verdict["class"]["misses"] == 10 and verdict["class"]["chances"] == 120
    assert verdict["z"] >= flags.Z_CRITICAL and "z-test" in verdict["test"]


def test_a_student_much_worse_than_the_class_is_flagged_with_the_numbers(classroom, make_student):
    weak = make_student(classroom, "Ann")
    others = [make_student(classroom, name, ("boat", "star", "apple")) for name in ("Ben", "Cal")]
    with services.deferred_class_refresh():
        for seed in (1, 2):
            play_game(key="multiplication", classroom=classroom, student=weak, seed=seed,
                      player=PlantedPlayer([parse_plant("mg.missed_play=0.6")]))
            for n, other in enumerate(others):
                play_game(key="multiplication", classroom=classroom, student=other, seed=10 * seed + n,
                          player=PlantedPlayer([]))
    flag = NeedsHelpFlag.objects.get(classroom=classroom, measure="mg.missed_play")
    assert flag.student == weak and flag.reason == NeedsHelpFlag.Reason.MISS_RATE
    mine = SkillEvidence.objects.filter(student=weak, measure="mg.missed_play")
    assert flag.evidence["student"]["chances"] == mine.count()
    assert flag.evidence["student"]["misses"] == mine.filter(missed=True).count()
    rest = SkillEvidence.objects.filter(measure="mg.missed_play", student__in=others)
    assert flag.evidence["class"]["chances"] == rest.count()
    assert not NeedsHelpFlag.objects.filter(student__in=others).exists()
    created = flag.created_at
    services.class_flags_refresh(classroom_id=classroom.pk)  # still true: the same flag stays
    assert NeedsHelpFlag.objects.get(pk=flag.pk).created_at == created


def test_four_rule_errors_in_one_game_flag_that_game(classroom, student):
    game = play_game(key="smooth_operator", classroom=classroom, student=student, seed=4,
                     player=PlantedPlayer([parse_plant("all.rule_errors=0.2")]))
    refused = SkillEvidence.objects.filter(game=game, measure="all.rule_errors", missed=True)
    assert refused.count() >= 4
    flag = NeedsHelpFlag.objects.get(student=student, reason=NeedsHelpFlag.Reason.RULE_ERRORS)
    assert flag.game == game
    assert flag.evidence["errors"] == refused.count()
    assert flag.evidence["codes"] == {"not_in_hand": refused.count()}
    assert sorted(flag.evidence["turns"]) == sorted(refused.values_list("turn", flat=True))


def test_three_rule_errors_are_not_a_flag(classroom, student):
    game = play_game(key="multiplication", classroom=classroom, student=student, seed=4,
                     player=PlantedPlayer([]))
    assert not SkillEvidence.objects.filter(game=game, measure="all.rule_errors", missed=True).exists()
    assert not NeedsHelpFlag.objects.filter(student=student).exists()


def test_no_flag_while_the_students_own_interval_reaches_strong():
    """2 misses in 10 against a class that missed nothing passes the z-test (z ≈ 6.4), but 2 of
    10 could still be a strong student's luck (90 % interval about 7-46 %): no flag. 4 of 10
    (interval about 20-63 %) is one."""
    assert miss_rate_verdict(2, 10, 0, 200) is None
    assert miss_rate_verdict(4, 10, 0, 200) is not None


FACTS = [f"{a}x{b}" for a in range(1, 11) for b in range(a, 11)]


def _student_rows(classroom, student, rows):
    """A student's all-time roll-ups: detail rows and each measure's whole row."""
    whole: dict[str, list[int]] = {}
    for measure, detail, chances, misses in rows:
        rollup(classroom, measure, student=student, detail=detail, chances=chances, misses=misses)
        found = whole.setdefault(measure, [0, 0])
        found[0] += chances
        found[1] += misses
    for measure, (chances, misses) in whole.items():
        rollup(classroom, measure, student=student, chances=chances, misses=misses)


def test_a_weak_fact_and_operation_are_flagged_where_teachers_look(client, teacher, classroom, make_student):
    ann = make_student(classroom, "Ann")
    ben = make_student(classroom, "Ben", ("boat", "star", "apple"))
    facts = [("mg.facts", f, 16, 12 if f == "7x8" else 1) for f in FACTS]
    ops = [("so.mental_math", "÷", 20, 11), ("so.even_division", "÷", 10, 4), ("so.mental_math", "+", 40, 1),
           ("so.mental_math", "×", 30, 2)]
    _student_rows(classroom, ann, facts + ops)
    _student_rows(classroom, ben, [(m, d, n, 1) for m, d, n, _ in facts + ops])
    flags.refresh(classroom_id=classroom.pk)
    found = NeedsHelpFlag.objects.filter(classroom=classroom)
    assert sorted((f.student.display_name, f.reason, f.measure, f.detail) for f in found) == [
        ("Ann", "fact", "mg.facts", "7x8"), ("Ann", "operation", "so.mental_math", "÷")]
    fact = found.get(detail="7x8")
    assert fact.evidence["words"] == "7 × 8: 12 of 16 wrong" and fact.evidence["band"] == "help"
    # The facts, three operations of Mental maths (Exact division is all ÷: its whole row) and
    # the Arithmetic family.
    assert fact.evidence["rows"] == 55 + 3 + 1

    client.force_login(teacher)
    moves = reverse("reports:moves", args=[classroom.pk])
    pages = [client.get(reverse("reports:dashboard", args=[classroom.pk])).content.decode(),
             client.get(reverse("reports:student", args=[classroom.pk, ann.pk])).content.decode()]
    for html in pages:
        # The band's word and symbol beside the numbers (never colour alone).
        assert re.search(r'band-help"><span aria-hidden="true">!</span> Needs help</span>\s*'
                         r'<strong>7 × 8: 12 of 16 wrong</strong>', html)
        assert re.search(r'band-help"><span aria-hidden="true">!</span> Needs help</span>\s*'
                         r'<strong>÷ \(dividing\) in Mental maths: 11 of 20 wrong</strong>', html)
        for link in (f"{moves}?measure=mg.facts&amp;detail=7x8&amp;student={ann.pk}&amp;missed=1",
                     f"{moves}?measure=so.mental_math&amp;detail=%C3%B7&amp;student={ann.pk}&amp;missed=1"):
            assert re.search(rf'href="{re.escape(link)}">See the 1[12] misses<', html), link
    # The student page's own numbers open the moves page too (not "?measure=…" on this page).
    assert f'href="{moves}?measure=mg.facts&amp;student={ann.pk}&amp;missed=1"' in pages[1]
    ben_page = client.get(reverse("reports:student", args=[classroom.pk, ben.pk])).content.decode()
    assert "wrong</strong>" not in ben_page
    assert client.get(f"{moves}?measure=so.mental_math&detail=÷&student={ann.pk}&missed=1").status_code == 200

    # Still true: the same flags stay (flagged since); no longer true: gone.
    created = fact.created_at
    flags.refresh(classroom_id=classroom.pk)
    assert NeedsHelpFlag.objects.get(pk=fact.pk).created_at == created
    SkillRollup.objects.filter(student=ann, measure="mg.facts", detail="7x8").update(misses=1)
    flags.refresh(classroom_id=classroom.pk)
    assert not NeedsHelpFlag.objects.filter(detail="7x8").exists()
