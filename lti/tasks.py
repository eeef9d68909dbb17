"""Celery tasks of the LTI app (autodiscovered): grades to the platforms (lti/grades.py)."""

from celery import shared_task

from .grades import lti_grades_post_for_game

RETRIES = 5
RETRY_SECONDS = 60


@shared_task(bind=True, acks_late=True, max_retries=RETRIES)
def post_grades(self, game_id: int) -> int:
    """Queued when a game of an assignment finishes. Safe to run twice: a score already posted
    is not sent again. Runs again later while some post failed (the platform was down)."""
    failed = lti_grades_post_for_game(game_id=game_id)
    if failed and self.request.retries < RETRIES:
        raise self.retry(countdown=RETRY_SECONDS * 2 ** self.request.retries)
    return len(failed)
