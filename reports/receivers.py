"""How the skill reports hear about games and classes (connected by ReportsConfig.ready()).
games and classroom never import reports: they send signals (games/signals.py,
classroom/signals.py) and these receivers act on them."""

from classroom.signals import student_removed
from games.signals import class_games_changed, game_finished, replay_position

from .realtime import broadcast_dashboard_changed
from .selectors.verdicts import replay_verdicts
from .services import student_reports_forget
from .tasks import report_game


def queue_game_report(sender, *, game_id: int, **kwargs) -> None:
    """A game's finish was committed: its evidence, then its class's reports, in a worker."""
    report_game.delay(game_id)


def tell_dashboards(sender, *, classroom_id: int, **kwargs) -> None:
    """A game of the class started, finished or closed: open dashboards re-read "playing now"."""
    broadcast_dashboard_changed(classroom_id=classroom_id)


def forget_student(sender, *, student, **kwargs) -> None:
    """A student was removed from the class list: their report data goes (services)."""
    student_reports_forget(student=student)


def explain_position(sender, *, game, turn: int, student, **kwargs) -> list:
    """The replay asks about one position: the decisions counted there, explained (a student
    only hears of their own)."""
    return replay_verdicts(game=game, turn=turn, student=student)


def connect() -> None:
    game_finished.connect(queue_game_report, dispatch_uid="reports.queue_game_report")
    class_games_changed.connect(tell_dashboards, dispatch_uid="reports.tell_dashboards")
    student_removed.connect(forget_student, dispatch_uid="reports.forget_student")
    replay_position.connect(explain_position, dispatch_uid="reports.explain_position")
