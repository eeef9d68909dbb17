"""Arena reads, and who may see which arena (one place: every view and consumer fetches
through these, so an arena out of a user's reach is simply not found).

| who                                   | projector, controls, standings, CSV | own arena page |
| ------------------------------------- | ----------------------------------- | -------------- |
| a teacher of the host class           | yes                                 | -              |
| a teacher of another class, or none   | no (404)                            | -              |
| a student who joined                  | no (404)                            | yes            |
| a student of an invited class         | no                                  | join page      |
| anyone else                           | no                                  | no             |

The projector is read by the whole room: it names students by first name and initial only,
never shows a rating, a hidden card or a mistake, and with "no points" no ranking at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.utils import timezone

from accounts.models import User
from accounts.student_classes import active_class_ids
from arena.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from arena.scoring import on_fire
from classroom.models import Classroom
from games.models import Game, PlayerRating, Seat

LIVE = (Arena.Status.OPEN, Arena.Status.RUNNING, Arena.Status.PAUSED, Arena.Status.FINISHING)


# ----- who may see what ----------------------------------------------------------------------

def arena_for_teacher(*, teacher: User, arena_id: int) -> Arena | None:
    """An arena the teacher runs: one started from a class they teach."""
    if not teacher.is_authenticated or not teacher.is_teacher:
        return None
    return (Arena.objects.filter(pk=arena_id, classroom__teachers=teacher)
            .select_related("classroom").first())


def arenas_for_teacher(*, teacher: User) -> QuerySet[Arena]:
    return Arena.objects.filter(classroom__teachers=teacher).select_related("classroom")


def arenas_of_class(*, classroom: Classroom) -> QuerySet[Arena]:
    return Arena.objects.filter(classroom=classroom).order_by("-created_at", "id")


def player_for_student(*, student: User, arena_id: int) -> ArenaPlayer | None:
    """The student's own place in an arena they joined."""
    if not student.is_authenticated or not student.is_student:
        return None
    return (ArenaPlayer.objects.filter(arena_id=arena_id, user=student)
            .select_related("arena", "game").first())


def arenas_open_to_student(*, student: User) -> list[Arena]:
    """Live arenas the student may join or is in (their home page shows them)."""
    class_ids = active_class_ids(student=student)
    if not class_ids:
        return []
    arenas = (Arena.objects.filter(status__in=LIVE, classes__in=class_ids)
              .filter(Q(joining=Arena.Joining.EVERYONE) | Q(students=student)
                      | Q(players__user=student)).distinct().order_by("-created_at"))
    return list(arenas)


# ----- when a student's new table opens --------------------------------------------------------

def back_on_arena_page_key(arena_id: int, user_id: int) -> str:
    """The cache key of when the student last opened their arena page (a Unix time):
    arena.services.arena_page_opened writes it."""
    return f"arena:{int(arena_id)}:back:{int(user_id)}"


def table_hold_seconds() -> float:
    """The longest a student is held for a classmate who does not come back from their result
    (a closed tab, a phone asleep): the result's own moment, and as long again."""
    return 2.0 * Game.SERIES_RESULT_SECONDS


def seconds_until_table_opens(*, player: ArenaPlayer, now=None) -> float:
    """How long a student just seated waits before their page goes to the new table: until
    every classmate seated with them whose last game of this arena has just ended is back on
    the arena page (their result page comes back there by itself after
    `Game.SERIES_RESULT_SECONDS`, or they pressed "Back to the arena"; that page then goes
    straight on to the table, and this student's page is told at that moment:
    arena.services.arena_page_opened), and at most `table_hold_seconds()` after that game
    ended. 0 when nobody at the table is still looking at a result.

    A round seats whoever is waiting, and a student whose game has just ended is waiting at
    once, while their page still shows the result. A classmate already on the arena page, sent
    to the table at once, would sit down alone and play; those first moves would reach the
    other screen only when its page came, seconds later (devtools/bench/README.md, "First moves
    at a new arena table"). Held until then, both pages sit down together."""
    if player.game_id is None:
        return 0.0
    now = now or timezone.now()
    hold = timedelta(seconds=table_hold_seconds())
    classmates = (Seat.objects.filter(game_id=player.game_id, user__isnull=False)
                  .exclude(user_id=player.user_id).values("user_id"))
    # Each classmate's last game of this arena that ended within the hold, seen to its end on
    # its page (one who walked away from it went to the arena page at once).
    ended = dict(Seat.objects.filter(user_id__in=classmates, left_at__isnull=True,
                                     game__arena_table__arena_id=player.arena_id,
                                     game__finished_at__gt=now - hold)
                 .exclude(game_id=player.game_id).values_list("user_id")
                 .annotate(last=Max("game__finished_at")))
    if not ended:
        return 0.0
    keys = {user_id: back_on_arena_page_key(player.arena_id, user_id) for user_id in ended}
    try:
        back = cache.get_many(list(keys.values()))
    except Exception:  # noqa: BLE001 - the cache away: held for the longest, never stuck
        back = {}
    still_reading = [last for user_id, last in ended.items()
                     if back.get(keys[user_id], 0.0) < last.timestamp()]
    if not still_reading:
        return 0.0
    return max(0.0, (max(still_reading) + hold - now).total_seconds())


# ----- names the whole room may read -------------------------------------------------------

def public_name(display_name: str) -> str:
    """First name and initial ("Ann Baker" -> "Ann B."): what the projector shows."""
    parts = display_name.split()
    if not parts:
        return "?"
    if len(parts) == 1:
        return parts[0]
    return f"{parts[0]} {parts[-1][0].upper()}."


# ----- standings ---------------------------------------------------------------------------

def player_class(*, arena: Arena, student: User) -> Classroom:
    """The class a child plays an arena for: the first of the arena's classes they are in now
    (a child may be in several), else the arena's own class. Their arena games belong to it."""
    return (arena.classes.filter(pk__in=active_class_ids(student=student)).order_by("pk").first()
            or arena.classroom)


def standings(*, arena: Arena, limit: int | None = None) -> list[ArenaPlayer]:
    """Every player (or the first `limit`), best first (points, then wins, then who joined
    first), with `place` (players level on points and wins share a place; a place depends only
    on the players ahead, so the first rows alone place themselves as the whole list would)."""
    players = arena.players.select_related("user").order_by("-points", "-wins", "joined_at", "id")
    players = list(players if limit is None else players[:limit])
    place, previous = 0, None
    for index, player in enumerate(players, start=1):
        key = (player.points, player.wins)
        if key != previous:
            place, previous = index, key
        player.place = place
        player.public_name = public_name(player.user.display_name)
        player.on_fire = on_fire(player.streak)
    return players


# The podium's places: the first three players' places, with everyone who shares them.
PODIUM_PLACES = 3


@dataclass(frozen=True)
class PodiumStep:
    place: int
    points: int
    names: list[str]  # first name and initial, in the order they joined
    more: int = 0  # players on this place whose names are not shown (the projector's limit)


def podium(*, arena: Arena, names_shown: int | None = None) -> list[PodiumStep]:
    """The end's podium (points mode): the places of the first three players who played a game
    and were not taken out, each with every such player who shares it, however many (four
    level in 1st: one place, four names, and no 2nd or 3rd). A place is the standings' own
    (1 + the players ahead, a taken-out one too), so the podium, the standings and the CSV
    agree. `names_shown`: at most this many names a place (the rest counted in `more`).
    Reads the podium's rows only, never the whole standings."""
    eligible = arena.players.filter(games__gt=0).exclude(status=ArenaPlayer.Status.OUT)
    levels = eligible.order_by("-points", "-wins", "joined_at", "id").values_list("points", "wins")
    steps = []
    for points, wins in dict.fromkeys(levels[:PODIUM_PLACES]):
        level = eligible.filter(points=points, wins=wins).select_related("user").order_by("joined_at", "id")
        shown = list(level if names_shown is None else level[:names_shown])
        on_it = len(shown) if names_shown is None or len(shown) < names_shown else level.count()
        ahead = arena.players.filter(Q(points__gt=points) | Q(points=points, wins__gt=wins)).count()
        steps.append(PodiumStep(place=ahead + 1, points=points, more=on_it - len(shown),
                                names=[public_name(p.user.display_name) for p in shown]))
    return steps


def on_a_streak(*, arena: Arena, limit: int) -> tuple[list[ArenaPlayer], int]:
    """The players on the longest winning streaks (two or more wins in a row; taken-out
    students left out), longest first, and how many are on one."""
    hot = (arena.players.exclude(status=ArenaPlayer.Status.OUT).filter(streak__gte=2)
           .select_related("user"))
    players = list(hot.order_by("-streak", "user__display_name", "id")[:limit])
    for player in players:
        player.public_name = public_name(player.user.display_name)
    return players, hot.count()


def joined_names(*, arena: Arena, limit: int) -> list[str]:
    """First names and initials of the players who joined (taken-out ones left out), the
    latest first, at most `limit` (the projector's lobby: a child sees their name come up)."""
    players = (arena.players.exclude(status=ArenaPlayer.Status.OUT)
               .order_by("-joined_at", "-id").values_list("user__display_name", flat=True))
    return [public_name(name) for name in players[:limit]]


def rating_gains(*, arena: Arena) -> dict[int, float]:
    """Each player's rating now minus at the start (the "most improved" in no-points mode)."""
    players = list(arena.players.values_list("pk", "user_id", "rating_at_start"))
    now = dict(PlayerRating.objects.filter(key=arena.key, user_id__in=[u for _, u, _ in players])
               .values_list("user_id", "rating"))
    return {pk: now.get(user_id, start) - start for pk, user_id, start in players}


@dataclass(frozen=True)
class Counts:
    playing: int
    waiting: int
    resting: int
    late: int
    joined: int


def counts(*, arena: Arena) -> Counts:
    by_status = dict(arena.players.values_list("status").annotate(n=Count("id")).values_list("status", "n"))
    return Counts(playing=by_status.get(ArenaPlayer.Status.PLAYING, 0),
                  waiting=by_status.get(ArenaPlayer.Status.WAITING, 0),
                  resting=by_status.get(ArenaPlayer.Status.RESTING, 0),
                  late=by_status.get(ArenaPlayer.Status.LATE, 0),
                  joined=sum(n for s, n in by_status.items() if s != ArenaPlayer.Status.OUT))


@dataclass(frozen=True)
class ClassTotals:
    games: int
    wins: int
    draws: int
    best_streak: int


def class_totals(*, arena: Arena) -> ClassTotals:
    totals = arena.players.aggregate(wins=Sum("wins"), draws=Sum("draws"), best=Sum("best_streak"))
    games = ArenaGame.objects.filter(arena=arena, counted_at__isnull=False,
                                     results__isnull=False).distinct().count()
    best = arena.players.order_by("-best_streak").values_list("best_streak", flat=True).first() or 0
    return ClassTotals(games=games, wins=totals["wins"] or 0, draws=totals["draws"] or 0,
                       best_streak=best)


def last_result(*, player: ArenaPlayer) -> ArenaResult | None:
    return (ArenaResult.objects.filter(player=player).select_related("table")
            .order_by("-created_at", "-id").first())


def results_of(*, player: ArenaPlayer) -> list[ArenaResult]:
    return list(ArenaResult.objects.filter(player=player).order_by("created_at", "id"))
