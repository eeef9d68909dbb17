"""How the LTI app hears of finished games (connected by LtiConfig.ready())."""

from games.signals import game_finished

from games.models import Game

from .tasks import post_grades


def queue_grades(sender, *, game_id: int, **kwargs) -> None:
    """A game's finish was committed (the signal is sent after the commit): its students'
    scores for the courses its assignment is placed in, in a worker."""
    if Game.objects.filter(pk=game_id, assignment__lti_placements__isnull=False).exists():
        post_grades.delay(game_id)


def connect() -> None:
    game_finished.connect(queue_grades, dispatch_uid="lti.queue_grades")
