"""Removing a benchmark's class and everything in it (used by bench_reports and
bench_dashboard). Plain deletes: a cascade over a million moves through the ORM would take
longer than the benchmark itself."""

from django.db import connection, transaction

REPORT_TABLES = ("reports_skillevidence", "reports_gamereport", "reports_needshelpflag",
                 "reports_skillrollup", "reports_recomputejob")


def delete_bench_class(classroom, *, teacher=None) -> None:
    game_ids = "SELECT id FROM games_game WHERE classroom_id = %s"
    with transaction.atomic(), connection.cursor() as cursor:
        for table in REPORT_TABLES:
            cursor.execute(f"DELETE FROM {table} WHERE classroom_id = %s", [classroom.pk])
        cursor.execute(f"DELETE FROM games_move WHERE game_id IN ({game_ids})", [classroom.pk])
        cursor.execute(f"DELETE FROM games_seat WHERE game_id IN ({game_ids})", [classroom.pk])
        cursor.execute("DELETE FROM games_game WHERE classroom_id = %s", [classroom.pk])
    students = list(classroom.students.all())
    classroom.delete()
    for student in students:
        student.delete()
    if teacher is not None:
        teacher.delete()
