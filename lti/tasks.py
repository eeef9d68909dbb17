"""Celery tasks of the LTI app (autodiscovered): grades to the platforms (lti/grades.py), and
class lists from them (lti/roster_sync.py)."""

from celery import shared_task

from .grades import lti_grades_post_for_class, lti_grades_post_for_game
from .roster_sync import lti_roster_sync

RETRIES = 5
RETRY_SECONDS = 60


def _retried_while_failing(task, failed: list) -> int:
    if failed and task.request.retries < RETRIES:
        raise task.retry(countdown=RETRY_SECONDS * 2 ** task.request.retries)
    return len(failed)


@shared_task(bind=True, acks_late=True, max_retries=RETRIES)
def post_grades(self, game_id: int) -> int:
    """Queued when a game of an assignment finishes. Safe to run twice, and two at once: a
    score already posted, or on its way, is not sent again. Runs again later while some post
    failed (the platform was down)."""
    return _retried_while_failing(self, lti_grades_post_for_game(game_id=game_id))


@shared_task(bind=True, acks_late=True, max_retries=RETRIES)
def post_class_grades(self, classroom_id: int) -> int:
    """Queued when a class's skill reports changed (a game's report came after its grade was
    posted, flags changed): the changed scores of its placed assignments. Safe to run twice,
    retried as `post_grades` is."""
    return _retried_while_failing(self, lti_grades_post_for_class(classroom_id=classroom_id))


@shared_task(acks_late=True)
def sync_roster(course_class_id: int) -> bool:
    """Queued when a teacher launches from a course that shares its members. Safe to run twice
    (a second run with the same list changes nothing; two at once take turns). A failure is
    kept for the teacher's page, not retried: the next launch or the teacher's button syncs."""
    sync = lti_roster_sync(course_class_id=course_class_id)
    return bool(sync and sync.succeeded)
