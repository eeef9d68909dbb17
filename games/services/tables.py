"""Tables with classmates: open a table, share its code, gather players, start.

A table is a Game in status LOBBY: seats are added as classmates join (or computer players are
added), and `table_start` deals the cards and makes it ACTIVE. Every write here takes
`select_for_update` on the game row first, so two classmates joining at once can never take
the same seat or overfill the table, and nobody joins a table that is being started. The lobby
is told on commit (the same `game.<id>` group the table uses), so nobody hears of a change
that was rolled back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from accounts import codes
from games import registry
from games.models import Game, Seat, TableInvite
from accounts.membership import membership_changed
from accounts.student_classes import active_class_ids, active_students_of_class, is_in_class, working_class
from games.services.after_commit import announce_on_commit, class_games_changed_on_commit
from games.services.moves import SeatSpec, bot_seats, deal, game_create, new_seed
from games.spec import GameSpec


class TableError(Exception):
    """Something a child or teacher asked for that cannot happen; the message says why."""


def multiplayer_games() -> list[GameSpec]:
    """Games that can be played with classmates (not one-player games such as Solitaire)."""
    return [spec for spec in registry.all_games() if spec.multiplayer]


def _new_table_code() -> str:
    # Unique among tables still gathering players; a finished table's code may come back.
    while True:
        code = codes.new_join_code()
        if not Game.objects.filter(table_code=code, status=Game.Status.LOBBY).exists():
            return code


def _locked(game_id: int) -> Game:
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:  # the views answer 404 before this; a service caller gets a plain refusal
        raise TableError(_("That table is not here any more."))
    return game


def _changed(game: Game) -> None:
    announce_on_commit(game_id=game.pk, schedule_bots=False)


def table_open(*, student: User, key: str, classroom=None, assignment=None) -> Game:
    """A new table hosted by `student`, who takes the first seat: in the assignment's class,
    else in `classroom` (the class they are working in: accounts/student_classes.py; None:
    their first class); always one of their own classes."""
    spec = registry.get(key)
    if spec is None or not spec.multiplayer:
        raise TableError(_("That game can't be played with classmates."))
    if assignment is not None:
        classroom = assignment.classroom
    elif classroom is None:
        classroom = working_class(student=student)
    if classroom is None or not is_in_class(student=student, classroom_id=classroom.pk):
        raise TableError(_("You need to be in a class to open a table."))
    if assignment is None and not (classroom.free_play and not classroom.is_archived):
        raise TableError(_("Free play is switched off for your class. Open a table from one of "
                         "your assignments instead."))
    if assignment is not None and (assignment.game != key or assignment.classroom_id != classroom.pk):
        raise TableError(_("That assignment is for another game."))
    with transaction.atomic():
        game = Game.objects.create(
            key=key, options=assignment.options if assignment else dict(spec.free_play_options),
            status=Game.Status.LOBBY,
            classroom=classroom, assignment=assignment, table_code=_new_table_code(),
            created_by=student, seed=new_seed())
        Seat.objects.create(game=game, position=0, user=student, name=student.display_name)
        _changed(game)
    return game


def open_table_by_code(*, student: User, raw_code: str) -> Game:
    """The lobby table a typed code names, in one of the student's own classes (else a kind
    message; a table of another class is never revealed)."""
    code = codes.normalise(raw_code)
    if not codes.is_well_formed(code):
        raise TableError(_("A table code has 6 letters and numbers, like KMT4QX. "
                         "Check the code and try again."))
    game = (Game.objects.filter(table_code=code, classroom_id__in=active_class_ids(student=student))
            .exclude(status=Game.Status.ABANDONED).order_by("-created_at").first())
    if game is None:
        raise TableError(_("There is no table with that code in your class. Check the code with "
                         "the classmate who opened it."))
    return game


def table_join(*, student: User, game_id: int) -> Game:
    with transaction.atomic():
        game = _locked(game_id)
        if not is_in_class(student=student, classroom_id=game.classroom_id):
            raise TableError(_("There is no table with that code in your class."))
        seats = list(game.seats.all())
        if any(s.user_id == student.pk for s in seats):
            return game  # already sitting here: just go back to the table
        if game.status != Game.Status.LOBBY:
            raise TableError(_("That game has already started. Ask to join the next one!") if game.status == Game.Status.ACTIVE else _("That table is closed."))
        spec = registry.spec_for(game.key)
        if len(seats) >= spec.max_players:
            raise TableError(_("That table is full (%(n)s players).") % {"n": spec.max_players})
        name = student.display_name
        if any(s.name == name for s in seats):
            # Names are unique in a class, so only a computer player can carry it: rename it.
            raise TableError(_("Someone at that table already has your name. Ask the host to "
                             "remove the computer player first."))
        Seat.objects.create(game=game, position=_free_position(seats), user=student, name=name)
        TableInvite.objects.filter(game=game, student=student).delete()
        _changed(game)
    return game


def _free_position(seats: Sequence[Seat]) -> int:
    taken = {s.position for s in seats}
    return next(i for i in range(len(seats) + 1) if i not in taken)


def _require_host(game: Game, user: User) -> None:
    if game.created_by_id != user.pk:
        raise TableError(_("Only the player who opened the table can do that."))


def _require_lobby(game: Game) -> None:
    if game.status != Game.Status.LOBBY:
        raise TableError(_("The game has already started.") if game.status == Game.Status.ACTIVE
                         else _("That table is closed."))


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
            class_games_changed_on_commit(game=game)
        elif game.created_by_id == student.pk:
            game.created_by_id = humans[0].user_id
            game.save(update_fields=["created_by", "updated_at"])
        _changed(game)


def table_add_bot(*, host: User, game_id: int, level: str) -> Seat:
    with transaction.atomic():
        game = _locked(game_id)
        _require_host(game, host)
        _require_lobby(game)
        spec = registry.spec_for(game.key)
        if level not in spec.bots:
            raise TableError(_("Choose how strong the computer player should be."))
        seats = list(game.seats.all())
        if len(seats) >= spec.max_players:
            raise TableError(_("The table is full."))
        new = bot_seats(count=1, level=level, avoid={s.name for s in seats})
        if not new:
            raise TableError(_("There are no more computer players to add."))
        seat = Seat.objects.create(game=game, position=_free_position(seats), bot_level=level,
                                   name=new[0].name)
        _changed(game)
    return seat


def table_remove_bot(*, host: User, game_id: int, seat_id: int) -> None:
    with transaction.atomic():
        game = _locked(game_id)
        _require_host(game, host)
        _require_lobby(game)
        deleted, _kinds = game.seats.filter(pk=seat_id, user__isnull=True).exclude(bot_level="").delete()
        if not deleted:
            raise TableError(_("That computer player is not at this table any more."))
        _changed(game)


def table_invite(*, host: User, game_id: int, student_id: int) -> User:
    with transaction.atomic():
        game = _locked(game_id)
        _require_lobby(game)
        if not game.seats.filter(user=host).exists():
            raise TableError(_("Only players at the table can invite."))
        invited = active_students_of_class(classroom_id=game.classroom_id).filter(pk=student_id).first()
        if invited is None:
            raise TableError(_("That classmate isn't in your class."))
        if game.seats.filter(user=invited).exists():
            raise TableError(_("%(name)s is already at the table.") % {"name": invited.display_name})
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
        spec = registry.spec_for(game.key)
        engine = spec.engine
        seats = list(game.seats.all())
        missing = spec.min_players - len(seats)
        if missing > 0 and fill_level in spec.bots:
            for bot in bot_seats(count=missing, level=fill_level, avoid={s.name for s in seats}):
                seats.append(Seat.objects.create(game=game, position=_free_position(seats),
                                                 bot_level=bot.bot_level, name=bot.name))
        if len(seats) < spec.min_players:
            raise TableError(_("%(game)s needs at least %(n)s players. Wait for classmates or add "
                               "computer players.") % {"game": spec.name, "n": spec.min_players})
        seats.sort(key=lambda s: s.position)
        now = timezone.now()
        game.state, game.seed = deal(engine, [s.name for s in seats], game.options, game.seed)
        game.options = game.state["options"]
        game.status, game.started_at, game.turn_started_at = Game.Status.ACTIVE, now, now
        game.save(update_fields=["state", "options", "seed", "status", "started_at",
                                 "turn_started_at", "updated_at"])
        TableInvite.objects.filter(game=game).delete()
        announce_on_commit(game_id=game.pk)
        class_games_changed_on_commit(game=game)
    return game


def tables_open_for_groups(*, teacher: User, classroom, key: str, groups: list[list[User]],
                           assignment=None, fill_level: str = "") -> list[Game]:
    """A teacher seats chosen pairs or triples: each group gets its own game, dealt at once
    (with computer players up to the game's minimum when `fill_level` is given)."""
    spec = registry.get(key)
    if spec is None or not spec.multiplayer:
        raise TableError(_("Choose a game that classmates can play together."))
    if fill_level and fill_level not in spec.bots:
        raise TableError(_("Choose how strong the computer players should be."))
    for group in groups:
        size = len(group) + (max(0, spec.min_players - len(group)) if fill_level else 0)
        if not spec.min_players <= size <= spec.max_players:
            names = ", ".join(s.display_name for s in group)
            raise TableError(ngettext("The table with %(names)s has %(count)s player: %(game)s needs "
                                      "%(low)s to %(high)s.",
                                      "The table with %(names)s has %(count)s players: %(game)s needs "
                                      "%(low)s to %(high)s.", len(group))
                             % {"names": names, "count": len(group), "game": spec.name,
                                "low": spec.min_players, "high": spec.max_players})
    options = assignment.options if assignment is not None else dict(spec.free_play_options)
    games = []
    with transaction.atomic():
        for group in groups:
            seats = [SeatSpec(s.display_name, user=s) for s in group]
            missing = max(0, spec.min_players - len(seats)) if fill_level else 0
            seats += bot_seats(count=missing, level=fill_level, avoid={s.name for s in seats})
            games.append(game_create(key=key, classroom=classroom, seats=seats, options=options,
                                     assignment=assignment, created_by=teacher))
    return games


# ----- stopping a game (docs/play.md, "Stopping a game, and games left alone") -------------
# A dealt game a student walks away from used to stay "Playing" for ever: on their page, and in
# the teacher's "Playing now". A game is stopped (ABANDONED: it takes no more moves, and counts
# for nobody) when a student stops it, a teacher stops it, or nobody has moved for
# GAME_IDLE_CLOSE_MINUTES. A student who leaves a game classmates are still playing does not
# end it for them: a computer player takes their seat and the game goes on (docs/play.md).


@dataclass(frozen=True)
class Left:
    """What a student's Stop did: `carried_on` names the classmates still playing when a
    computer player took the student's seat; empty when the game was stopped."""

    game: Game
    carried_on: tuple[str, ...] = ()


def _stop(game: Game, now=None) -> None:
    """Mark a locked game stopped and tell its pages and the class's dashboards on commit."""
    game.status = Game.Status.ABANDONED
    game.finished_at = now or timezone.now()
    game.save(update_fields=["status", "finished_at", "updated_at"])
    TableInvite.objects.filter(game=game).delete()
    announce_on_commit(game_id=game.pk, schedule_bots=False)
    class_games_changed_on_commit(game=game)


def _table_level(game: Game, seats: Sequence[Seat]) -> str:
    """The level a replacement computer player gets: that of the table's computer players (the
    most common), else the assignment's, else "player"."""
    spec = registry.spec_for(game.key)
    bots = spec.bots
    levels = [s.bot_level for s in seats if s.bot_level and spec.knows_bot_level(s.bot_level)]
    if levels:
        return max(sorted(set(levels)), key=levels.count)
    if game.assignment_id and game.assignment.bot_level in bots:
        return game.assignment.bot_level
    return "player" if "player" in bots else next(iter(bots))


def game_leave(*, student: User, game_id: int) -> Left:
    """The student stops playing a dealt game. With no classmate left at the table the game is
    stopped; otherwise a computer player of the table's level takes the student's seat (the
    engine knows the seat by its name, so the name stays) and plays on for them."""
    with transaction.atomic():
        game = _locked(game_id)
        seats = list(game.seats.all())
        mine = next((s for s in seats if s.user_id == student.pk), None)
        if mine is None:
            raise TableError(_("You are not playing at this table."))
        if game.status == Game.Status.LOBBY:
            raise TableError(_("The game has not started yet: leave the table instead."))
        if game.status != Game.Status.ACTIVE:
            raise TableError(_("This game is over already.") if game.status == Game.Status.FINISHED
                             else _("This game was stopped already."))
        others = [s for s in seats if s.user_id and s.pk != mine.pk]
        if game.forfeit_on_leave:
            # One of a series (an arena): walking away loses the game, so it stops here for
            # everyone; the series counts it from `left_at` (a loss for the leaver, a win for
            # the classmates), and they are seated again at once.
            mine.left_at = timezone.now()
            mine.save(update_fields=["left_at"])
            _stop(game, mine.left_at)
            return Left(game)
        if not others:
            _stop(game)
            return Left(game)
        mine.user, mine.bot_level = None, _table_level(game, seats)
        mine.save(update_fields=["user", "bot_level"])
        game.save(update_fields=["updated_at"])
        # The seat is no longer the student's: their sockets still open on this table re-check
        # access (accounts/membership.py) before the push below, and cannot move for it.
        membership_changed(game.classroom_id)
        announce_on_commit(game_id=game.pk)  # the new computer player may be the one waited for
        class_games_changed_on_commit(game=game)  # "playing now" no longer lists the student
    return Left(game, tuple(s.name for s in others))


def game_abandon(*, game_id: int) -> bool:
    """Stop a game for everyone at the table (a teacher's Stop); True if it was stopped now,
    False if it had already finished or been stopped (asking twice changes nothing)."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status not in (Game.Status.LOBBY, Game.Status.ACTIVE):
            return False
        _stop(game)
    return True


def games_close_idle(*, minutes: int | None = None, now=None) -> int:
    """Stop every game nobody has moved in for `minutes` (GAME_IDLE_CLOSE_MINUTES): games in
    play by their last move (`turn_started_at`: the deal or the last accepted move), tables
    still gathering players by their last change. Each game is locked and checked again before
    it is stopped, so a move made meanwhile keeps it open, and running this twice (or in two
    workers at once) stops each game once. Returns how many it stopped."""
    minutes = settings.GAME_IDLE_CLOSE_MINUTES if minutes is None else minutes
    now = now or timezone.now()
    cutoff = now - timedelta(minutes=minutes)
    idle = (Q(status=Game.Status.ACTIVE, turn_started_at__lt=cutoff)
            | Q(status=Game.Status.ACTIVE, turn_started_at__isnull=True, updated_at__lt=cutoff)
            | Q(status=Game.Status.LOBBY, updated_at__lt=cutoff))
    stopped = 0
    for game_id in list(Game.objects.filter(idle).values_list("pk", flat=True)[:5000]):
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(idle, pk=game_id).first()
            if game is not None:
                _stop(game, now)
                stopped += 1
    return stopped
