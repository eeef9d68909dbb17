"""A teacher's arena from start to end, and the students who join, rest, come back or are taken
out. Every change locks the arena row (or the player row) first, as the pairing round does
(arena/services/rounds.py), so a control pressed during a round waits for it and never
half-applies; players' pages and the projector hear of it after commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import codes
from accounts.models import User
from accounts.student_classes import active_class_ids
from arena import realtime, screen
from arena.models import Arena, ArenaGame, ArenaPlayer
from classroom.models import Classroom
from games import registry
from games.models import Game
from games.services.ratings import student_rating
from games.services.tables import TableError, game_abandon, game_leave

from .counting import count_table

MIN_MINUTES, MAX_MINUTES = 5, 40


class ArenaError(Exception):
    """Something a teacher or child asked for that cannot happen; the message says why."""


def _locked(arena_id: int) -> Arena:
    # NO KEY, as the round's lock (arena/services/rounds.py says why): a count writing this
    # arena's players must not wait for it.
    arena = Arena.objects.select_for_update(no_key=True).filter(pk=arena_id).first()
    if arena is None:
        raise ArenaError(_("That arena is not here any more."))
    return arena


def _tell_players_on_commit(arena: Arena, user_ids: Iterable[int]) -> None:
    realtime.tell_players_on_commit(arena_id=arena.pk, user_ids=user_ids)


def tell_everyone_on_commit(arena: Arena) -> None:
    """Every player's page re-renders once the change commits (the arena's state changed)."""
    _tell_players_on_commit(arena, arena.players.values_list("user_id", flat=True))


def arena_create(*, teacher: User, classroom: Classroom, title: str, key: str, options: dict,
                 minutes: int, mode: str, table_size: int | None = None,
                 classes: Iterable[Classroom] = (), students: Iterable[User] = (),
                 focus: dict | None = None) -> Arena:
    """A new arena, open for joining (the clock starts with `arena_start`). `classes`: the
    other classes whose students may join (the host class always may); `students`: only these
    may join (empty: everyone in the classes). The caller has checked the teacher teaches
    every class (arena/forms.py reads them from the teacher's own classes)."""
    spec = registry.get(key)
    if spec is None or not spec.multiplayer:
        raise ArenaError(_("Choose a game classmates can play together."))
    if not MIN_MINUTES <= int(minutes) <= MAX_MINUTES:
        raise ArenaError(_("An arena lasts from %(min)s to %(max)s minutes.")
                         % {"min": MIN_MINUTES, "max": MAX_MINUTES})
    size = int(table_size or spec.min_players)
    if not spec.min_players <= size <= spec.max_players:
        raise ArenaError(_("%(game)s is played by %(min)s to %(max)s players at a table.")
                         % {"game": spec.name, "min": spec.min_players, "max": spec.max_players})
    if mode not in Arena.Mode.values:
        raise ArenaError(_("Choose points or no points."))
    students = list(students)
    with transaction.atomic():
        # Translators: a new arena's title when the teacher gives none ("Numero arena"); kept
        # as it is written then, like a title the teacher typed.
        arena = Arena.objects.create(
            title=title.strip() or _("%(game)s arena") % {"game": spec.name}, classroom=classroom, key=key,
            options=dict(options), focus=dict(focus or {}), minutes=int(minutes), mode=mode,
            table_size=size, created_by=teacher, join_code=_new_join_code(),
            joining=Arena.Joining.CHOSEN if students else Arena.Joining.EVERYONE)
        arena.classes.set({classroom, *classes})
        if students:
            arena.students.set(students)
    return arena


def _new_join_code() -> str:
    while True:
        code = codes.new_join_code()
        if not Arena.objects.filter(join_code=code).exists():
            return code


def may_join(*, arena: Arena, student: User) -> bool:
    """Whether this student is one the teacher let into the arena (their class; the chosen)."""
    if not student.is_student or not student.is_active:
        return False
    if not arena.classes.filter(pk__in=active_class_ids(student=student), archived_at__isnull=True).exists():
        return False
    return arena.joining == Arena.Joining.EVERYONE or arena.students.filter(pk=student.pk).exists()


def arena_join(*, student: User, arena_id: int) -> ArenaPlayer:
    """The student joins: waiting before the start; after it, asking to be let in (the teacher
    lets late students in). Joining again returns the student to their place."""
    with transaction.atomic():
        arena = _locked(arena_id)
        if not may_join(arena=arena, student=student):
            raise ArenaError(_("This arena is not for your class. Check the code with your teacher."))
        player = ArenaPlayer.objects.filter(arena=arena, user=student).first()
        if player is not None:
            return player
        if arena.status == Arena.Status.FINISHED or arena.status == Arena.Status.FINISHING:
            raise ArenaError(_("This arena has finished. Ask your teacher about the next one!"))
        now = timezone.now()
        status = (ArenaPlayer.Status.WAITING if arena.status == Arena.Status.OPEN
                  else ArenaPlayer.Status.LATE)
        player = ArenaPlayer.objects.create(
            arena=arena, user=student, status=status, waiting_since=now,
            rating_at_start=student_rating(student=student, key=arena.key))
        _tell_teachers_on_commit(arena)
    return player


def arena_by_code(*, raw_code: str) -> Arena:
    code = codes.normalise(raw_code)
    if not codes.is_well_formed(code):
        raise ArenaError(_("An arena code has 6 letters and numbers, like %(example)s. Check it and "
                           "try again.") % {"example": "K7M4Q2"})
    arena = Arena.objects.filter(join_code=code).first()
    if arena is None:
        raise ArenaError(_("There is no arena with that code. Check the code on the big screen."))
    return arena


def _tell_teachers_on_commit(arena: Arena) -> None:
    """The projector shows who joined, or was taken out (before the start there are no rounds
    to send it)."""
    arena_id = arena.pk
    transaction.on_commit(lambda: screen.push_if_changed(arena_id=arena_id), robust=True)


def arena_start(*, arena_id: int) -> Arena:
    with transaction.atomic():
        arena = _locked(arena_id)
        if arena.status != Arena.Status.OPEN:
            raise ArenaError(_("This arena has already started."))
        if not arena.players.exists():
            raise ArenaError(_("Nobody has joined yet. Put the join code on the screen and wait "
                               "for the class to join."))
        now = timezone.now()
        arena.status, arena.started_at = Arena.Status.RUNNING, now
        arena.ends_at = now + arena.length()
        arena.save(update_fields=["status", "started_at", "ends_at"])
        arena.players.filter(status=ArenaPlayer.Status.WAITING).update(waiting_since=now)
        tell_everyone_on_commit(arena)
    return arena


def arena_pause(*, arena_id: int) -> Arena:
    """The clock stops and nobody new is seated; games in play go on."""
    with transaction.atomic():
        arena = _locked(arena_id)
        if arena.status != Arena.Status.RUNNING:
            raise ArenaError(_("Only a running arena can be paused."))
        arena.remaining_seconds = arena.seconds_left()
        arena.status = Arena.Status.PAUSED
        arena.save(update_fields=["status", "remaining_seconds"])
        tell_everyone_on_commit(arena)
    return arena


def arena_resume(*, arena_id: int) -> Arena:
    with transaction.atomic():
        arena = _locked(arena_id)
        if arena.status != Arena.Status.PAUSED:
            raise ArenaError(_("The arena is not paused."))
        now = timezone.now()
        arena.status = Arena.Status.RUNNING
        arena.ends_at = now + timedelta(seconds=arena.remaining_seconds or 0)
        arena.remaining_seconds = None
        arena.save(update_fields=["status", "ends_at", "remaining_seconds"])
        # Time on pause is not time spent waiting: nobody gets a computer player for it.
        arena.players.filter(status=ArenaPlayer.Status.WAITING).update(waiting_since=now)
        tell_everyone_on_commit(arena)
    return arena


def arena_end(*, arena_id: int, stop_games: bool = False) -> Arena:
    """End early: nobody new is seated, and games in play finish and count (the arena is over
    when the last one ends, at a round). With `stop_games` the games still in play are
    stopped now and count for nobody, and the arena is over at once."""
    with transaction.atomic():
        arena = _locked(arena_id)
        if arena.status == Arena.Status.FINISHED:
            raise ArenaError(_("This arena has already finished."))
        now = timezone.now()
        if arena.status == Arena.Status.OPEN:
            arena.started_at = arena.started_at or now
        # The pages say the teacher ended it, not that time ran out (stopping the last games
        # once the time is up ends nothing early).
        arena.ended_early = arena.ended_early or arena.status != Arena.Status.FINISHING
        arena.status, arena.ends_at, arena.remaining_seconds = Arena.Status.FINISHING, now, None
        arena.save(update_fields=["status", "ends_at", "remaining_seconds", "started_at", "ended_early"])
        if stop_games:
            for table in ArenaGame.objects.filter(arena=arena, counted_at__isnull=True,
                                                  game__status=Game.Status.ACTIVE):
                game_abandon(game_id=table.game_id)  # stopped for everyone, counts for nobody
                count_table(table_id=table.pk)
        finish_if_done(arena, now)
        tell_everyone_on_commit(arena)
        # The projector too: an arena over at once (stopped games, or ended before its start)
        # has no round after this one to push its podium.
        _tell_teachers_on_commit(arena)
    return arena


def finish_if_done(arena: Arena, now) -> bool:
    """A finishing arena with no game left in play is over (called with the arena locked)."""
    if arena.status != Arena.Status.FINISHING:
        return False
    if arena.players.filter(status=ArenaPlayer.Status.PLAYING).exists():
        return False
    arena.status, arena.finished_at = Arena.Status.FINISHED, now
    arena.save(update_fields=["status", "finished_at"])
    arena.players.filter(status__in=[ArenaPlayer.Status.WAITING, ArenaPlayer.Status.LATE]).update(
        status=ArenaPlayer.Status.RESTING)
    tell_everyone_on_commit(arena)
    return True


def arena_let_in(*, arena_id: int, player_ids: Iterable[int]) -> int:
    """Late students asking to join wait for a table from now. Returns how many were let in."""
    with transaction.atomic():
        arena = _locked(arena_id)
        players = list(arena.players.select_for_update().filter(
            pk__in=list(player_ids), status=ArenaPlayer.Status.LATE))
        now = timezone.now()
        for player in players:
            player.status, player.waiting_since = ArenaPlayer.Status.WAITING, now
            player.save(update_fields=["status", "waiting_since"])
        _tell_players_on_commit(arena, [p.user_id for p in players])
    return len(players)


def arena_take_out(*, arena_id: int, player_id: int) -> ArenaPlayer:
    """The teacher takes a student out: they are not seated again, and a game they are playing
    ends fairly: it stops, the student loses it and their classmates at the table win it."""
    with transaction.atomic():
        arena = _locked(arena_id)
        # The table first, then the player: count_table's lock order. The count of the game the
        # student is at, finishing right now (its finish signal), locks the table and then its
        # players; locking the player first would deadlock with it (PostgreSQL cancels one).
        game_id = arena.players.filter(pk=player_id).values_list("game_id", flat=True).first()
        if game_id is not None:
            ArenaGame.objects.select_for_update().filter(game_id=game_id).first()
        player = (arena.players.select_for_update(of=("self",)).select_related("user")
                  .filter(pk=player_id).first())
        if player is None:
            raise ArenaError(_("That student is not in this arena."))
        if player.status == ArenaPlayer.Status.OUT:
            return player
        playing = player.status == ArenaPlayer.Status.PLAYING and player.game_id
        player.status = ArenaPlayer.Status.OUT
        player.save(update_fields=["status"])
        if playing:
            _forfeit(player)
        _tell_players_on_commit(arena, [player.user_id])
        _tell_teachers_on_commit(arena)  # the lobby names them no more (no round before Start)
    return player


def arena_let_back(*, arena_id: int, player_id: int) -> ArenaPlayer:
    """Undo a take-out: the student waits for a table again."""
    with transaction.atomic():
        arena = _locked(arena_id)
        player = arena.players.select_for_update().filter(pk=player_id, status=ArenaPlayer.Status.OUT).first()
        if player is None:
            raise ArenaError(_("That student is not taken out."))
        player.status, player.waiting_since = ArenaPlayer.Status.WAITING, timezone.now()
        player.save(update_fields=["status", "waiting_since"])
        _tell_players_on_commit(arena, [player.user_id])
        _tell_teachers_on_commit(arena)
    return player


def _forfeit(player: ArenaPlayer) -> None:
    """The player's running game stops and counts as their loss (Game.forfeit_on_leave)."""
    try:
        game_leave(student=player.user, game_id=player.game_id)
    except TableError:
        pass  # the game ended meanwhile: it is counted as it ended
    table = ArenaGame.objects.filter(game_id=player.game_id).first()
    if table is not None:
        count_table(table_id=table.pk)


def arena_rest(*, student: User, arena_id: int) -> ArenaPlayer:
    """A student takes a break: not seated again until they say they are back."""
    with transaction.atomic():
        player = _own_player(student, arena_id)
        if player.status == ArenaPlayer.Status.WAITING:
            player.status = ArenaPlayer.Status.RESTING
            player.save(update_fields=["status"])
    return player


def arena_back(*, student: User, arena_id: int) -> ArenaPlayer:
    with transaction.atomic():
        player = _own_player(student, arena_id)
        if player.status == ArenaPlayer.Status.RESTING and player.arena.status != Arena.Status.FINISHED:
            player.status, player.waiting_since = ArenaPlayer.Status.WAITING, timezone.now()
            player.save(update_fields=["status", "waiting_since"])
    return player


def _own_player(student: User, arena_id: int) -> ArenaPlayer:
    player = (ArenaPlayer.objects.select_for_update(of=("self",)).select_related("arena")
              .filter(arena_id=arena_id, user=student).first())
    if player is None:
        raise ArenaError(_("You are not in this arena. Join it with its code first."))
    return player


def arena_url(arena: Arena) -> str:
    return reverse("arena:play", args=[arena.pk])
