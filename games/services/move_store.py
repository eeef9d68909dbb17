"""The statements every move runs, with their SQL built once per process.

A move reads the game under a lock (with its last move's number and whether its idempotency key
was seen), reads its seats, inserts the move and updates the game. Built by the ORM, each of
these costs about as much CPU to compile as the database takes to run it, on every move of every
table (devtools/bench/README.md, "Where a move's CPU goes"). Here the SQL is made once from the
models' own metadata, and every value goes through its field's own conversions (`pre_save`,
`get_db_prep_save` on the way in; the backend's and the field's converters on the way out), so
what is stored and read is exactly what `Model.save()` and a queryset store and read. It runs
on Django's connection, inside the caller's transaction, on SQLite and PostgreSQL alike
(`FOR UPDATE` where the database has it).

Only the move service uses this module (games/services/moves.py); everything else keeps the ORM.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model

from accounts.language import language_is_offered
from games.models import Game, Move, Seat


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def reader_language(own: str | None, classroom: str | None) -> str:
    """accounts.language.user_language's rule, on the two columns read with a seat."""
    for code in (own, classroom):
        if code and language_is_offered(code):
            return code
    return ""


def _columns(model: type[Model]) -> tuple:
    return model._meta.concrete_fields


@cache
def _readers(model: type[Model], vendor: str) -> tuple:
    """Per column of `model`: the column and the converters a queryset would apply to it."""
    readers = []
    for field in _columns(model):
        col = field.get_col(model._meta.db_table)
        readers.append((col, connection.ops.get_db_converters(col) + field.get_db_converters(connection)))
    return tuple(readers)


def _instance(model: type[Model], row, vendor: str):
    """A model instance from a row holding every concrete column of `model`, in order."""
    values = []
    for (col, converters), value in zip(_readers(model, vendor), row):
        for convert in converters:
            value = convert(value, col, connection)
        values.append(value)
    return model.from_db(connection.alias, None, values)


@cache
def _lock_sql(vendor: str, for_update: bool) -> str:
    columns = ", ".join(f"g.{_quote(f.column)}" for f in _columns(Game))
    return (f"SELECT {columns} FROM {_quote(Game._meta.db_table)} g WHERE g.{_quote('id')} = %s"
            + (" FOR UPDATE" if for_update else ""))


@cache
def _seats_sql(vendor: str) -> str:
    seat, user = Seat._meta, get_user_model()._meta
    columns = ", ".join(f"s.{_quote(f.column)}" for f in _columns(Seat))
    moves = f"{_quote(Move._meta.db_table)} m WHERE m.{_quote('game_id')} = %s"
    classroom = Game._meta.get_field("classroom").related_model._meta
    membership = user.get_field("memberships").related_model._meta
    # The last two columns: the seat's person's language and their class's (of a child in
    # several classes, the first, by when they joined, that has one: accounts.language's
    # rule), so the push renders each seat's view in its reader's language without another
    # query.
    class_language = (f"(SELECT c.{_quote('language')} FROM {_quote(membership.db_table)} mm "
                      f"JOIN {_quote(classroom.db_table)} c ON c.{_quote(classroom.pk.column)} = mm.{_quote('classroom_id')} "
                      f"WHERE mm.{_quote('student_id')} = u.{_quote(user.pk.column)} "
                      f"AND mm.{_quote('archived_at')} IS NULL AND c.{_quote('archived_at')} IS NULL "
                      f"AND c.{_quote('language')} <> '' "
                      f"ORDER BY mm.{_quote('joined_at')}, mm.{_quote('id')} LIMIT 1)")
    return (f"SELECT {columns}, u.{_quote('is_active')}, "
            f"(SELECT MAX(m.{_quote('sequence')}) FROM {moves}), "
            f"EXISTS(SELECT 1 FROM {moves} AND m.{_quote('idempotency_key')} = %s), "
            f"u.{_quote('language')}, {class_language} "
            f"FROM {_quote(seat.db_table)} s "
            f"LEFT JOIN {_quote(user.db_table)} u ON u.{_quote(user.pk.column)} = s.{_quote('user_id')} "
            f"WHERE s.{_quote('game_id')} = %s ORDER BY s.{_quote('position')}")


def lock_game(*, game_id: int, idempotency_key: str) -> tuple[Game, list[Seat]]:
    """The game, locked until the transaction ends, and its seats (each with `holder_active`:
    its player's account is active). The game carries `last_sequence` (None before the first
    move) and `received` (a move with `idempotency_key` exists; meaningless for an empty key).
    Raises Game.DoesNotExist. Call inside a transaction.

    Two statements, and what is read about the moves is read by the second, once the lock is
    held. On PostgreSQL a statement that waited for a row lock returns the row as it is now,
    but whatever else it reads (a subquery on the moves) it reads as it was when the statement
    began: a move that waited for a refused move, which wrote a move but left the game's row as
    it was, would take that move's number, or miss its idempotency key
    (tests/games/test_move_race.py). A statement begun after the lock was granted sees
    everything committed before it."""
    vendor = connection.vendor
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(vendor, connection.features.has_select_for_update), [game_id])
        row = cursor.fetchone()
        if row is None:
            raise Game.DoesNotExist(f"game {game_id}")
        game = _instance(Game, row, vendor)
        cursor.execute(_seats_sql(vendor), [game_id, game_id, idempotency_key, game_id])
        rows = cursor.fetchall()
    width = len(_columns(Seat))
    seats = []
    for seat_row in rows:
        seat = _instance(Seat, seat_row[:width], vendor)
        seat.holder_active = bool(seat_row[width])
        seat.reader_language = reader_language(seat_row[width + 3], seat_row[width + 4])
        seat.game = game  # one Game object for every seat, as the push renders them
        seats.append(seat)
    # Every row repeats the game's last move number and whether the key was seen.
    game.last_sequence, game.received = (rows[0][width + 1], bool(rows[0][width + 2])) if rows else (None, False)
    return game, seats


def _prepared(obj: Model, fields, *, add: bool) -> list:
    return [f.get_db_prep_save(f.pre_save(obj, add), connection) for f in fields]


@cache
def _insert_sql(model: type[Model], vendor: str, returning: bool) -> tuple[str, tuple]:
    fields = tuple(f for f in _columns(model) if not f.primary_key)
    names = ", ".join(_quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {_quote(model._meta.db_table)} ({names}) VALUES ({marks})"
    return (sql + f" RETURNING {_quote(model._meta.pk.column)}" if returning else sql), fields


def insert(obj: Model) -> None:
    """INSERT `obj` as `obj.save()` would (auto_now_add included) and set its primary key."""
    vendor = connection.vendor
    returning = connection.features.can_return_columns_from_insert
    sql, fields = _insert_sql(type(obj), vendor, returning)
    with connection.cursor() as cursor:
        cursor.execute(sql, _prepared(obj, fields, add=True))
        obj.pk = (cursor.fetchone()[0] if returning
                  else connection.ops.last_insert_id(cursor, obj._meta.db_table, obj._meta.pk.column))
    obj._state.adding, obj._state.db = False, connection.alias


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, tuple]:
    fields = tuple(model._meta.get_field(name) for name in names)
    sets = ", ".join(f"{_quote(f.column)} = %s" for f in fields)
    pk = _quote(model._meta.pk.column)
    return f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE {pk} = %s", fields


def update(obj: Model, names: list[str]) -> None:
    """UPDATE these fields of `obj` as `obj.save(update_fields=names)` would (auto_now
    included: name it)."""
    sql, fields = _update_sql(type(obj), tuple(names), connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, _prepared(obj, fields, add=False) + [obj.pk])
