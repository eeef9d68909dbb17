"""Tables with classmates: open a table, share its code, gather players, start.

A table is a Game in status LOBBY: seats are added as classmates join (or computer players are
added), and `table_start` deals the cards and makes it ACTIVE. Every write here takes
`select_for_update` on the game row first, so two classmates joining at once can never take
the same seat or overfill the table, and nobody joins a table that is being started. The lobby
is told on commit (the same `game.<id>` group the table uses), so nobody hears of a change
that was rolled back.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from classroom import codes
from games import engine as engines

from .catalogue import GAMES_BY_KEY
from .models import Game, Seat, TableInvite
from .services import SeatSpec, after_change, bot_seats, class_games_changed, game_create


class TableError(Exception):
    """Something a child or teacher asked for that cannot happen; the message says why."""


def multiplayer_games() -> list:
    """Games that can be played with classmates (Solitaire is for one)."""
    return [info for info in GAMES_BY_KEY.values()
            if info.playable and engines.get(info.key).max_players >= 2]


def _new_table_code() -> str:
    # Unique among tables still gathering players; a finished table's code may come back.
    while True:
        code = codes.new_join_code()
        if not Game.objects.filter(table_code=code, status=Game.Status.LOBBY).exists():
            return code


def _locked(game_id: int) -> Game:
    return Game.objects.select_for_update().get(pk=game_id)


def _changed(game: Game) -> None:
    game_id = game.pk
    transaction.on_commit(lambda: after_change(game_id=game_id, schedule_bots=False))


def table_open(*, student: User, key: str, assignment=None) -> Game:
    """A new table hosted by `student`, who takes the first seat."""
    info = GAMES_BY_KEY.get(key)
    if info is None or info not in multiplayer_games():
        raise TableError("That game can't be played with classmates.")
    classroom = student.classroom
    if classroom is None:
        raise TableError("You need to be in a class to open a table.")
    if assignment is None and not (classroom.free_play and not classroom.is_archived):
        raise TableError("Free play is switched off for your class. Open a table from one of "
                         "your assignments instead.")
    if assignment is not None and (assignment.game != key or assignment.classroom_id != classroom.pk):
        raise TableError("That assignment is for another game.")
    with transaction.atomic():
        game = Game.objects.create(
            key=key, options=assignment.options if assignment else {}, status=Game.Status.LOBBY,
            classroom=classroom, assignment=assignment, table_code=_new_table_code(),
            created_by=student, seed=secrets.randbelow(2**31))
        Seat.objects.create(game=game, position=0, user=student, name=student.display_name)
        _changed(game)
    return game


def open_table_by_code(*, student: User, raw_code: str) -> Game:
    """The lobby table a typed code names, in the student's own class (else a kind message;
    a table of another class is never revealed)."""
    code = codes.normalise(raw_code)
    if not codes.is_well_formed(code):
        raise TableError("A table code has 6 letters and numbers, like KMT4QX. "
                         "Check the code and try again.")
    game = (Game.objects.filter(table_code=code, classroom=student.classroom)
            .exclude(status=Game.Status.ABANDONED).order_by("-created_at").first())
    if game is None:
        raise TableError("There is no table with that code in your class. Check the code with "
                         "the classmate who opened it.")
    return game


def table_join(*, student: User, game_id: int) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if game.classroom_id != student.classroom_id:
            raise TableError("There is no table with that code in your class.")
        seats = list(game.seats.all())
        if any(s.user_id == student.pk for s in seats):
            return game  # already sitting here: just go back to the table
        if game.status != Game.Status.LOBBY:
            raise TableError("That game has already started. Ask to join the next one!"
                             if game.status == Game.Status.ACTIVE else "That table is closed.")
        engine = engines.get(game.key)
        if len(seats) >= engine.max_players:
            raise TableError(f"That table is full ({engine.max_players} players).")
        name = student.display_name
        if any(s.name == name for s in seats):
            # Names are unique in a class, so only a computer player can carry it: rename it.
            raise TableError("Someone at that table already has your name. Ask the host to "
                             "remove the computer player first.")
        Seat.objects.create(game=game, position=_free_position(seats), user=student, name=name)
        TableInvite.objects.filter(game=game, student=student).delete()
        _changed(game)
    return game


def _free_position(seats: Sequence[Seat]) -> int:
    taken = {s.position for s in seats}
    return next(i for i in range(len(seats) + 1) if i not in taken)


def _require_host(game: Game, user: User) -> None:
    if game.created_by_id != user.pk:
        raise TableError("Only the player who opened the table can do that.")


def _require_lobby(game: Game) -> None:
    if game.status != Game.Status.LOBBY:
        raise TableError("The game has already started." if game.status == Game.Status.ACTIVE
                         else "That table is closed.")


def table_leave(*, student: User, game_id: int) -> None:
    """Leave a table before it starts. The host's role passes to the next classmate; a table
    with no classmates left is closed."""
    with transaction.atomic():
        game = _locked(game_id)
        _require_lobby(game)
        game.seats.filter(user=student).delete()
        humans = [s for s in game.seats.all() if s.user_id]
        if not humans:
            game.status = Game.Status.ABANDONED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at", "updated_at"])
            class_games_changed(game=game)
        elif game.created_by_id == student.pk:
            game.created_by_id = humans[0].user_id
            game.save(update_fields=["created_by", "updated_at"])
        _changed(game)


def table_add_bot(*, host: User, game_id: int, level: str) -> Seat:
    if level not in engines.BOT_LEVELS:
        raise TableError("Choose how strong the computer player should be.")
    with transaction.atomic():
        game = _locked(game_id)
        _require_host(game, host)
        _require_lobby(game)
        seats = list(game.seats.all())
        if len(seats) >= engines.get(game.key).max_players:
            raise TableError("The table is full.")
        spec = bot_seats(count=1, level=level, avoid={s.name for s in seats})
        if not spec:
            raise TableError("There are no more computer players to add.")
        seat = Seat.objects.create(game=game, position=_free_position(seats), bot_level=level,
                                   name=spec[0].name)
        _changed(game)
    return seat


def table_remove_bot(*, host: User, game_id: int, seat_id: int) -> None:
    with transaction.atomic():
        game = _locked(game_id)
        _require_host(game, host)
        _require_lobby(game)
        deleted, _ = game.seats.filter(pk=seat_id, user__isnull=True).exclude(bot_level="").delete()
        if not deleted:
            raise TableError("That computer player is not at this table any more.")
        _changed(game)


def table_invite(*, host: User, game_id: int, student_id: int) -> User:
    with transaction.atomic():
        game = _locked(game_id)
        _require_lobby(game)
        if not game.seats.filter(user=host).exists():
            raise TableError("Only players at the table can invite.")
        invited = User.objects.filter(pk=student_id, classroom_id=game.classroom_id,
                                      role=User.Role.STUDENT, is_active=True).first()
        if invited is None:
            raise TableError("That classmate isn't in your class.")
        if game.seats.filter(user=invited).exists():
            raise TableError(f"{invited.display_name} is already at the table.")
        try:
            with transaction.atomic():
                TableInvite.objects.create(game=game, student=invited, invited_by=host)
        except IntegrityError:
            pass  # invited already: asking twice changes nothing
    return invited


def table_start(*, host: User, game_id: int, fill_level: str = "") -> Game:
    """Deal the cards. With `fill_level`, empty seats up to the fewest players the game needs
    go to computer players of that level."""
    with transaction.atomic():
        game = _locked(game_id)
        _require_host(game, host)
        _require_lobby(game)
        engine = engines.get(game.key)
        seats = list(game.seats.all())
        missing = engine.min_players - len(seats)
        if missing > 0 and fill_level in engines.BOT_LEVELS:
            for spec in bot_seats(count=missing, level=fill_level, avoid={s.name for s in seats}):
                seats.append(Seat.objects.create(game=game, position=_free_position(seats),
                                                 bot_level=spec.bot_level, name=spec.name))
        if len(seats) < engine.min_players:
            raise TableError(f"{engine.title or game.key} needs at least {engine.min_players} "
                             "players. Wait for classmates or add computer players.")
        seats.sort(key=lambda s: s.position)
        now = timezone.now()
        game.state = engine.new_game([s.name for s in seats], game.options, game.seed)
        game.options = game.state["options"]
        game.status, game.started_at, game.turn_started_at = Game.Status.ACTIVE, now, now
        game.save(update_fields=["state", "options", "status", "started_at", "turn_started_at",
                                 "updated_at"])
        TableInvite.objects.filter(game=game).delete()
        game_id = game.pk
        transaction.on_commit(lambda: after_change(game_id=game_id))
        class_games_changed(game=game)
    return game


def tables_open_for_groups(*, teacher: User, classroom, key: str, groups: list[list[User]],
                           assignment=None, fill_level: str = "") -> list[Game]:
    """A teacher seats chosen pairs or triples: each group gets its own game, dealt at once
    (with computer players up to the game's minimum when `fill_level` is given)."""
    info = GAMES_BY_KEY.get(key)
    if info is None or info not in multiplayer_games():
        raise TableError("Choose a game that classmates can play together.")
    engine = engines.get(key)
    for group in groups:
        size = len(group) + (max(0, engine.min_players - len(group)) if fill_level else 0)
        if not engine.min_players <= size <= engine.max_players:
            names = ", ".join(s.display_name for s in group)
            raise TableError(f"The table with {names} has {len(group)} player"
                             f"{'s' if len(group) != 1 else ''}: {info.name} needs "
                             f"{engine.min_players} to {engine.max_players}.")
    options = assignment.options if assignment is not None else {}
    games = []
    with transaction.atomic():
        for group in groups:
            seats = [SeatSpec(s.display_name, user=s) for s in group]
            missing = max(0, engine.min_players - len(seats)) if fill_level else 0
            seats += bot_seats(count=missing, level=fill_level, avoid={s.name for s in seats})
            games.append(game_create(key=key, classroom=classroom, seats=seats, options=options,
                                     assignment=assignment, created_by=teacher))
    return games

