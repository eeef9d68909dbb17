"""What is happening in a class now: who is playing, the games finished today and this week
(beside last week's), and how far the open assignments are."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import User
from classroom import selectors as classroom_selectors
from classroom.models import Assignment, Classroom
from classroom.progress import Progress
from games.models import Game, Move, Seat


@dataclass(frozen=True)
class Completion:
    assignment: Assignment
    done: int
    assigned: int


@dataclass(frozen=True)
class Today:
    games: int
    by_student: list[tuple[User, int]]


@dataclass(frozen=True)
class Activity:
    """Games finished with a student of the class at the table: today (and by whom), this week
    (Monday to now) and the whole of last week, for "is the class moving forward"."""

    today: Today
    week_games: int
    week_players: int  # students of the class who finished a game this week
    last_week_games: int


@dataclass(frozen=True)
class PlayingGroup:
    """The students playing one game (of one assignment, or free play) now."""

    key: str
    assignment_title: str
    seats: list[Seat]


def playing_now(*, classroom: Classroom) -> list[Seat]:
    """Students playing a game now, as a child would say it: "I'm playing" while they are
    making moves, and from the moment they press Play (they are reading their cards), but not
    for a game they were dealt and walked away from. So a seat counts when its student made a
    move (tried one: a refused move is playing too) in the last PLAYING_NOW_MINUTES, or the
    game was dealt in the last PLAYING_NOW_FIRST_MOVE_MINUTES (settings). The game's own
    clocks cannot tell: `turn_started_at` moves with the computer players' moves too, and
    `updated_at` with any change of the row, so a game nobody touched looked busy for ten
    minutes, and a child who left seven games idle was listed for all seven. The beat task
    puts an idle game away after GAME_IDLE_CLOSE_MINUTES."""
    now = timezone.now()
    since = now - timedelta(minutes=settings.PLAYING_NOW_MINUTES)
    dealt_since = now - timedelta(minutes=settings.PLAYING_NOW_FIRST_MOVE_MINUTES)
    moved = Exists(Move.objects.filter(seat=OuterRef("pk"), created_at__gte=since))
    return list(Seat.objects.filter(
        Q(moved) | Q(game__started_at__gte=dealt_since),
        game__classroom=classroom, game__status=Game.Status.ACTIVE,
        user__isnull=False, user__is_active=True,
    ).select_related("game", "game__assignment", "user").order_by("user__display_name", "game_id"))


def playing_groups(seats: list[Seat]) -> list[PlayingGroup]:
    """`playing_now`'s seats grouped by game and assignment, in the order each first appears
    (its students keep their name order): one line per game a teacher can read at a glance."""
    groups: dict[tuple[str, int | None], PlayingGroup] = {}
    for seat in seats:
        game = seat.game
        group = groups.get((game.key, game.assignment_id))
        if group is None:
            group = groups[(game.key, game.assignment_id)] = PlayingGroup(
                game.key, game.assignment.title if game.assignment_id else "", [])
        group.seats.append(seat)
    return list(groups.values())


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def recent_games(*, classroom: Classroom, students: list[User]) -> Activity:
    """Games of the class finished since last Monday with a student at the table: one query."""
    today = timezone.localdate()
    this_monday = today - timedelta(days=today.weekday())
    starts = {"today": _midnight(today), "week": _midnight(this_monday),
              "last_week": _midnight(this_monday - timedelta(weeks=1))}
    rows = Seat.objects.filter(game__classroom=classroom, game__status=Game.Status.FINISHED,
                               game__finished_at__gte=starts["last_week"], user__isnull=False
                               ).values_list("user_id", "game_id", "game__finished_at")
    games: dict[str, set[int]] = {"today": set(), "week": set(), "last_week": set()}
    per_student: dict[int, int] = defaultdict(int)
    week_players: set[int] = set()
    for user_id, game_id, finished_at in rows:
        if finished_at < starts["week"]:
            games["last_week"].add(game_id)
            continue
        games["week"].add(game_id)
        week_players.add(user_id)
        if finished_at >= starts["today"]:
            games["today"].add(game_id)
            per_student[user_id] += 1
    today_by = [(s, per_student[s.pk]) for s in students if per_student.get(s.pk)]
    return Activity(today=Today(len(games["today"]), today_by), week_games=len(games["week"]),
                    week_players=sum(1 for s in students if s.pk in week_players),
                    last_week_games=len(games["last_week"]))


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
