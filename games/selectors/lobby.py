"""Reads for tables with classmates: who may see a lobby, which tables are open to a student.

Who may see what (declared once, used by views and the lobby consumer alike):
- a student sees lobbies of their own class: to join one, or, when seated, to wait in it;
- a teacher sees every table of the classes they teach (to watch, never to play);
- nobody else finds it (404 / socket closed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q

from accounts.models import User
from accounts.permissions import is_student, is_teacher
from accounts.student_classes import active_class_ids, active_students_of_class
from games import registry
from games.models import Game, Seat, TableInvite


@dataclass(frozen=True)
class LobbyAccess:
    game: Game
    seat: Seat | None  # the viewer's seat, if they sit at the table
    teacher: bool

    @property
    def is_host(self) -> bool:
        return self.seat is not None and self.game.created_by_id == self.seat.user_id


def lobby_access(*, user, game_id: int) -> LobbyAccess | None:
    if is_student(user):
        game = Game.objects.filter(pk=game_id, classroom_id__in=active_class_ids(student=user)).first()
        if game is None:
            return None
        return LobbyAccess(game, game.seats.filter(user=user).first(), teacher=False)
    if is_teacher(user):
        game = Game.objects.filter(pk=game_id, classroom__teachers=user).first()
        return LobbyAccess(game, None, teacher=True) if game else None
    return None


@dataclass
class Lobby:
    game: Game
    name: str
    seats: list
    min_players: int
    max_players: int
    host_name: str
    can_invite: list = field(default_factory=list)  # classmates not at the table yet
    invited_ids: set = field(default_factory=set)

    @property
    def empty_seats(self) -> int:
        return self.max_players - len(self.seats)

    @property
    def needed(self) -> int:
        return max(0, self.min_players - len(self.seats))

    @property
    def humans(self) -> int:
        return sum(1 for s in self.seats if s.user_id)


def lobby(*, game: Game, for_seat: Seat | None = None) -> Lobby:
    spec = registry.spec_for(game.key)
    seats = list(game.seats.select_related("user"))
    host = next((s.name for s in seats if s.user_id and s.user_id == game.created_by_id), "")
    result = Lobby(game=game, name=spec.name, seats=seats,
                   min_players=spec.min_players, max_players=spec.max_players, host_name=host)
    if for_seat is not None and game.status == Game.Status.LOBBY and result.empty_seats:
        seated = {s.user_id for s in seats if s.user_id}
        result.can_invite = list(active_students_of_class(classroom_id=game.classroom_id)
                                 .exclude(pk__in=seated).order_by("display_name"))
        result.invited_ids = set(TableInvite.objects.filter(game=game).values_list("student_id", flat=True))
    return result


def open_tables_for_student(*, student: User) -> list[Game]:
    """Tables of the student's classes still gathering players, newest first, with `players`
    (seats taken), `mine` (the student sits there), `spec` (the game) and `max_players`."""
    class_ids = active_class_ids(student=student)
    if not class_ids:
        return []
    games = list(Game.objects.filter(classroom_id__in=class_ids, status=Game.Status.LOBBY)
                 .annotate(players=Count("seats"),
                           mine=Count("seats", filter=Q(seats__user=student)))
                 .select_related("created_by").order_by("-created_at")[:20])
    for game in games:
        game.spec = registry.spec_for(game.key)
        game.max_players = game.spec.max_players
    return games


def invites_for_student(*, student: User) -> list[TableInvite]:
    return list(TableInvite.objects.filter(student=student, game__status=Game.Status.LOBBY,
                                           game__classroom_id__in=active_class_ids(student=student))
                .select_related("game", "invited_by").order_by("-created_at"))


def tables_of_class(*, classroom) -> list[Game]:
    """Tables gathering players or being played in a class, for the teacher's tables page,
    each with `spec` (the game)."""
    games = list(Game.objects.filter(classroom=classroom,
                                     status__in=[Game.Status.LOBBY, Game.Status.ACTIVE])
                 .prefetch_related("seats").order_by("-created_at")[:60])
    for game in games:
        game.spec = registry.spec_for(game.key)
    return games
