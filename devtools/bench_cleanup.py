"""Removing a benchmark's class and everything in it (used by bench_reports and
bench_dashboard). Plain deletes: a cascade over a million moves through the ORM would take
longer than the benchmark itself."""

from django.db import connection, transaction
from django.db.models import SET_NULL

from accounts.models import User
from games.models import Game, Move, Seat

REPORT_TABLES = ("reports_skillevidence", "reports_gamereport", "reports_needshelpflag",
                 "reports_skillrollup", "reports_recomputejob")


def _game_tables() -> list[tuple[str, str, bool]]:
    """(table, column, set null rather than delete) of every model that points at a game,
    moves first (a move points at its seat). Read from the models, so a table added later
    (rating changes were) cannot make the final DELETE of the games fail on its foreign key.
    One level only: a benchmark's games have no arena tables with results under them."""
    rels = [f for f in Game._meta.get_fields(include_hidden=True)  # hidden: related_name "+"
            if f.auto_created and not f.concrete and (f.one_to_many or f.one_to_one)]
    rels.sort(key=lambda r: (r.related_model is not Move, r.related_model is Seat))
    return [(r.related_model._meta.db_table, r.field.column, r.on_delete is SET_NULL) for r in rels]


def delete_bench_class(classroom, *, teacher=None) -> None:
    game_ids = "SELECT id FROM games_game WHERE classroom_id = %s"
    with transaction.atomic(), connection.cursor() as cursor:
        for table in REPORT_TABLES:
            cursor.execute(f"DELETE FROM {table} WHERE classroom_id = %s", [classroom.pk])
        for table, column, set_null in _game_tables():
            change = f"UPDATE {table} SET {column} = NULL" if set_null else f"DELETE FROM {table}"
            cursor.execute(f"{change} WHERE {column} IN ({game_ids})", [classroom.pk])
        cursor.execute("DELETE FROM games_game WHERE classroom_id = %s", [classroom.pk])
    students = list(User.objects.filter(memberships__classroom=classroom))
    classroom.delete()
    for student in students:
        student.delete()
    if teacher is not None:
        teacher.delete()
