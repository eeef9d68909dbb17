"""Builders for the dashboard / export / progress-page tests: real games, seats and moves,
with SkillEvidence, SkillRollup and NeedsHelpFlag rows created directly (the computing half
is tested on its own)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from reports.models import NeedsHelpFlag, SkillEvidence, SkillRollup
from reports.selectors import monday
from games.models import Game, Move, Seat

STUDENT, CLASS, ASSIGNMENT = "student", "class", "assignment"


def make_game(classroom, student, *, key="smooth_operator", moves=4, assignment=None,
              status=Game.Status.FINISHED, finished_at=None):
    """A game of `student` against a bot, with `moves` accepted moves of the student."""
    now = timezone.now()
    game = Game.objects.create(key=key, classroom=classroom, assignment=assignment, status=status,
                               finished_at=(finished_at or now) if status == Game.Status.FINISHED else None,
                               version=moves)
    seat = Seat.objects.create(game=game, position=0, user=student, name=student.display_name)
    Seat.objects.create(game=game, position=1, bot_level="beginner", name="Computer 1")
    made = [Move.objects.create(game=game, seat=seat, sequence=i, version_before=i,
                                action={"type": "play"}, accepted=True, think_ms=2000 + i)
            for i in range(moves)]
    return game, made


def evidence(move, student, measure, *, missed=False, detail="", amount=None, played_at=None):
    played_at = played_at or timezone.now()
    return SkillEvidence.objects.create(
        game=move.game, move=move, student=student, classroom=move.game.classroom,
        assignment=move.game.assignment, measure=measure, detail=detail, missed=missed,
        amount=amount, turn=move.version_before, played_at=played_at,
        week=monday(timezone.localtime(played_at).date()))


def rollup(classroom, measure, *, chances, misses=0, student=None, scope=None, week=None,
           detail="", assignment=None, median=None):
    scope = scope or (ASSIGNMENT if assignment else STUDENT if student else CLASS)
    return SkillRollup.objects.create(scope=scope, classroom=classroom, student=student,
                                      assignment=assignment, week=week, measure=measure,
                                      detail=detail, chances=chances, misses=misses,
                                      amount_median=median)


def flag(classroom, student, measure="so.lowest_operator", *, misses=12, chances=20):
    return NeedsHelpFlag.objects.create(
        classroom=classroom, student=student, measure=measure, reason=NeedsHelpFlag.Reason.MISS_RATE,
        evidence={"student": {"misses": misses, "chances": chances, "rate": misses / chances},
                  "class": {"misses": 10, "chances": 100, "rate": 0.1}})


def this_monday():
    return monday(timezone.localdate())


def weeks_ago(n):
    return this_monday() - timedelta(weeks=n)
