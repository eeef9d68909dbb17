"""What is happening in a class now: who is playing, the games finished today, and how
far the open assignments are."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom
from classroom.progress import Progress
from games.models import Game, Seat


@dataclass(frozen=True)
class Completion:
    assignment: Assignment
    done: int
    assigned: int


@dataclass(frozen=True)
class Today:
    games: int
    by_student: list[tuple[User, int]]


def playing_now(*, classroom: Classroom) -> list[Seat]:
    """Students at games with a move in the last PLAYING_NOW_MINUTES (settings). A game's last
    move is `turn_started_at` (set by the deal and by each accepted move, and by nothing else);
    `updated_at` also changes when a seat changes hands or a game is stopped, so a game left
    alone could look busy. A game left for longer is not "now" (issue #15: one child's seven
    idle games were listed); the beat task puts it away after GAME_IDLE_CLOSE_MINUTES."""
    since = timezone.now() - timedelta(minutes=settings.PLAYING_NOW_MINUTES)
    # (a game stored without `turn_started_at`, never dealt by the services: its last change)
    recent = (Q(game__turn_started_at__gte=since)
              | Q(game__turn_started_at__isnull=True, game__updated_at__gte=since))
    return list(Seat.objects.filter(
        recent, game__classroom=classroom, game__status=Game.Status.ACTIVE,
        user__isnull=False, user__is_active=True,
    ).select_related("game", "game__assignment", "user").order_by("user__display_name", "game_id"))


def finished_today(*, classroom: Classroom, students: list[User]) -> Today:
    """Games of the class finished since midnight with a student at the table: one query."""
    start = timezone.make_aware(datetime.combine(timezone.localdate(), time.min))
    pairs = Seat.objects.filter(game__classroom=classroom, game__status=Game.Status.FINISHED,
                                game__finished_at__gte=start, user__isnull=False
                                ).values_list("user_id", "game_id")
    games, per_student = set(), defaultdict(int)
    for user_id, game_id in pairs:
        games.add(game_id)
        per_student[user_id] += 1
    return Today(len(games), [(s, per_student[s.pk]) for s in students if per_student.get(s.pk)])


def assignment_completion(*, classroom: Classroom, students: list[User]) -> list[Completion]:
    """Open assignments with how many of their students reached the goal: three queries.
    (The class page's `class_progress` also counts every game ever played per student,
    which the dashboard does not show and which is its slowest query on a big class.)"""
    assignments = [a for a in classroom_selectors.assignments_of_class(classroom=classroom)
                   if not a.is_closed]
    counts = classroom_selectors.finished_counts(Seat.objects.filter(
        user__in=[s.pk for s in students], game__assignment__in=[a.pk for a in assignments]))
    completion = []
    for a in assignments:
        chosen = {s.pk for s in a.students.all()}
        audience = [s for s in students if not chosen or s.pk in chosen]
        done = sum(1 for s in audience
                   if Progress(a, *counts.get((s.pk, a.pk), (0, 0))).complete)
        completion.append(Completion(a, done, len(audience)))
    return completion
