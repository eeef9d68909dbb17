"""One pairing round of an arena: count what ended, run the clock, seat who is waiting.

Exactly one round of an arena runs at a time, however many web processes run the ticker
(arena/ticker.py): a round holds the arena row's lock (`select_for_update(skip_locked=True)`)
from its first read to its commit, and a runner that finds the row locked skips the arena (the
other runner is doing the round). Under the lock a round re-reads `last_round_at`, so two
runners arriving together do one round, not two. Seating only takes players in WAITING and
moves them to PLAYING in the same transaction, so pairing twice by accident seats nobody twice.

Everything a round needs is in the database (arena/models.py): a restarted process's first
round picks up where the last one stopped, counting games that ended while nobody was looking.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from arena import realtime, screen
from arena.models import Arena, ArenaGame, ArenaPlayer, ArenaResult
from arena.pairing import Waiting, pair
from arena.selectors import player_class
from games.models import PlayerRating
from games.ratings import default_rating
from games.services.moves import SeatSpec, bot_seats, game_create
from games.services.ratings import just_right_level

from .counting import count_table, uncounted_tables
from .lifecycle import arena_url, finish_if_done, tell_everyone_on_commit

log = logging.getLogger(__name__)


def round_seconds() -> float:
    return float(getattr(settings, "ARENA_ROUND_SECONDS", 2.0))


def bot_after_seconds() -> float:
    return float(getattr(settings, "ARENA_BOT_AFTER_SECONDS", 10.0))


@dataclass
class RoundReport:
    """What one round did (the bench prints it; tests read it)."""

    arena_id: int
    counted: int = 0
    tables: list[int] = field(default_factory=list)  # game ids dealt this round
    with_bots: int = 0
    waiting: int = 0
    pairing_cpu_ms: float = 0.0   # the matching alone
    round_cpu_ms: float = 0.0     # the whole round in this process (queries, deals, writes)
    status: str = ""


def arena_round(*, arena_id: int, now=None, force: bool = False) -> RoundReport | None:
    """Run one round now if it is due (`force`: even if not), or None when another runner
    holds the arena or it is not due or not live."""
    started = time.process_time()
    with transaction.atomic():
        # NO KEY: the arena's key never changes, and a plain FOR UPDATE would also block the
        # key-share lock PostgreSQL takes on the arena to check the players' and tables' foreign
        # key when a finish signal's count writes them: that count waits behind the round
        # while holding the table the round wants to count, and the two deadlock.
        arena = (Arena.objects.select_for_update(skip_locked=True, no_key=True)
                 .filter(pk=arena_id).first())
        if arena is None or not arena.is_live:
            return None
        now = now or timezone.now()
        if not force and arena.last_round_at is not None and \
                now - arena.last_round_at < timedelta(seconds=round_seconds() * 0.9):
            return None
        report = RoundReport(arena.pk)
        for table_id in uncounted_tables(arena):
            report.counted += count_table(table_id=table_id)
        if arena.status == Arena.Status.RUNNING and arena.ends_at and now >= arena.ends_at:
            arena.status = Arena.Status.FINISHING  # the clock ran out: games in play finish
            arena.save(update_fields=["status"])
            tell_everyone_on_commit(arena)
        if arena.status == Arena.Status.RUNNING:
            _seat_waiting(arena, now, report)
        finish_if_done(arena, now)
        arena.last_round_at, arena.rounds = now, arena.rounds + 1
        arena.save(update_fields=["last_round_at", "rounds"])
        report.status = arena.status
        transaction.on_commit(lambda: screen.push_if_changed(arena_id=arena_id), robust=True)
    report.round_cpu_ms = (time.process_time() - started) * 1000
    return report


def _seat_waiting(arena: Arena, now, report: RoundReport) -> None:
    # Row locks on the waiting players: a take-out or a break pressed meanwhile waits for the
    # round, and is then applied to a player already seated (it handles PLAYING).
    waiting = list(arena.players.select_for_update(of=("self",)).select_related("user")
                   .filter(status=ArenaPlayer.Status.WAITING).order_by("waiting_since", "id"))
    report.waiting = len(waiting)
    if not waiting:
        return
    by_id = {p.pk: p for p in waiting}
    cpu = time.process_time()
    pairing = pair(_as_waiting(arena, waiting), table_size=arena.table_size)
    report.pairing_cpu_ms = (time.process_time() - cpu) * 1000
    for group in pairing.tables:
        _deal(arena, [by_id[pk] for pk in group], now, report)
    # The odd ones out who have waited long enough get "just right" computer players (nobody
    # waits more than about 10 seconds: docs/arena.md), together when there are several.
    due = now - timedelta(seconds=bot_after_seconds())
    long_waiting = [by_id[pk] for pk in pairing.left_over if by_id[pk].waiting_since <= due]
    if long_waiting:  # fewer than a table: one table, the empty seats for computer players
        _deal(arena, long_waiting, now, report, bots=arena.table_size - len(long_waiting))


def _as_waiting(arena: Arena, players: list[ArenaPlayer]) -> list[Waiting]:
    """The pairing's view of the waiting players: rating now, and whom each met in this arena."""
    user_ids = [p.user_id for p in players]
    ratings = dict(PlayerRating.objects.filter(key=arena.key, user_id__in=user_ids)
                   .values_list("user_id", "rating"))
    default = default_rating(arena.key)
    met: dict[int, set[int]] = {p.pk: set() for p in players}
    last: dict[int, tuple] = {}  # player -> (table created_at, table id)
    rows = list(ArenaResult.objects.filter(table__arena=arena, table__results__player__in=players)
                .values_list("table_id", "player_id", "table__created_at").distinct())
    at_table: dict[int, set[int]] = {}
    for table_id, player_id, created in rows:
        at_table.setdefault(table_id, set()).add(player_id)
        if player_id in met and (player_id not in last or last[player_id] < (created, table_id)):
            last[player_id] = (created, table_id)
    for table_id, ids in at_table.items():
        for pid in ids & met.keys():
            met[pid] |= ids - {pid}
    return [Waiting(player_id=p.pk, rating=float(ratings.get(p.user_id, default)),
                    met=frozenset(met[p.pk]),
                    last_met=frozenset(at_table[last[p.pk][1]] - {p.pk}) if p.pk in last else frozenset())
            for p in players]


def _deal(arena: Arena, players: list[ArenaPlayer], now, report: RoundReport, bots: int = 0) -> None:
    seats = [SeatSpec(p.user.display_name, user=p.user) for p in players]
    if bots:
        level = just_right_level(student=players[0].user, key=arena.key, bots=bots)
        seats += bot_seats(count=bots, level=level, avoid={s.name for s in seats})
    game = game_create(key=arena.key, classroom=player_class(arena=arena, student=players[0].user),
                       seats=seats, options=arena.options, series_url=arena_url(arena),
                       forfeit_on_leave=True, announce=False)
    ArenaGame.objects.create(arena=arena, game=game, round=arena.rounds + 1, with_bots=bool(bots))
    for player in players:
        player.status, player.game, player.waiting_since = ArenaPlayer.Status.PLAYING, game, None
        player.save(update_fields=["status", "game", "waiting_since"])
    report.tables.append(game.pk)
    report.with_bots += bool(bots)
    realtime.tell_players_on_commit(arena_id=arena.pk, user_ids=[p.user_id for p in players])


def live_arena_ids(*, due_before=None) -> list[int]:
    """Arenas a ticker should run a round of now (live, and no round since `due_before`)."""
    live = Arena.objects.filter(status__in=[Arena.Status.RUNNING, Arena.Status.PAUSED,
                                            Arena.Status.FINISHING])
    if due_before is not None:
        live = live.filter(Q(last_round_at__isnull=True) | Q(last_round_at__lt=due_before))
    return list(live.values_list("pk", flat=True))
