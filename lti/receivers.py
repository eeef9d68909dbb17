"""How the LTI app hears of finished games and changed skill reports (connected by
LtiConfig.ready())."""

from django.db import transaction

from games.models import Game
from games.signals import game_finished
from reports.signals import class_reports_changed

from .models import PlacedAssignment
from .tasks import post_class_grades, post_grades


def queue_grades(sender, *, game_id: int, **kwargs) -> None:
    """A game's finish was committed (the signal is sent after the commit): its students'
    scores for the courses its assignment is placed in, in a worker."""
    if Game.objects.filter(pk=game_id, assignment__lti_placements__isnull=False).exists():
        post_grades.delay(game_id)


def queue_class_grades(sender, *, classroom_id: int, **kwargs) -> None:
    """A class's skill reports changed (committed): the skill part of its placed assignments'
    scores may have too. A game's grade can be posted before its report is made (the two
    tasks run side by side); this posts it again with its skill counted."""
    if PlacedAssignment.objects.filter(assignment__classroom_id=classroom_id).exists():
        transaction.on_commit(lambda: post_class_grades.delay(classroom_id))


def connect() -> None:
    game_finished.connect(queue_grades, dispatch_uid="lti.queue_grades")
    class_reports_changed.connect(queue_class_grades, dispatch_uid="lti.queue_class_grades")
