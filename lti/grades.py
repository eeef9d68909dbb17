"""Scores to the platform's grade book (LTI Assignment and Grade Services; docs/lti.md,
"Grades"), through PyLTI1p3's `ServiceConnector` (the OAuth2 token, by a JWT signed with
Numberdeck's key) and `AssignmentsGradesService` (line items, scores).

Each placed assignment's score is posted for each of the course's students who came through the
platform, when a game of the assignment finishes. A `GradePost` row keeps the last score sent
for each: the same score already posted is not sent again (so running twice posts once per
change); a failure is recorded in plain words, retried by the task, and can be sent again from
the assignment's LTI page."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone as dt_timezone

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from lti_tool.lti_core.constants import AgsScope
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.service_connector import ServiceConnector
from requests import RequestException

from games.models import Game

from .deep_linking import SCORE_MAXIMUM, grade_column_tag
from .launch import TimedSession
from .models import GradePost, PlacedAssignment
from .selectors import (lti_assignment_players, lti_gradable_students, lti_placements_of_assignment,
                        lti_placements_of_class, lti_score)

log = logging.getLogger(__name__)

# A score marked as sending for longer than this was lost with its worker (each request to the
# platform times out after PLATFORM_TIMEOUT_SECONDS): another run may send it again.
SENDING_SECONDS = 120


class GradesUnavailable(Exception):
    """The course offers no grade book to Numberdeck; `message` says so in plain words."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _service(placement: PlacedAssignment) -> AssignmentsGradesService:
    context = placement.context
    scope = [s for s, allowed in ((AgsScope.PUBLISH_SCORES, context.can_publish_scores),
                                  (AgsScope.QUERY_LINEITEMS, context.can_query_lineitems),
                                  (AgsScope.MANAGE_LINEITEMS, context.can_manage_lineitems)) if allowed]
    if AgsScope.PUBLISH_SCORES not in scope or not (placement.lineitem_url or context.lineitems_url):
        raise GradesUnavailable(_("The course does not let Numberdeck send grades."))
    connector = ServiceConnector(context.deployment.registration.to_registration(), requests_session=TimedSession())
    return AssignmentsGradesService(connector, {"scope": [s.value for s in scope],
                                                "lineitems": context.lineitems_url,
                                                "lineitem": placement.lineitem_url})


def _line_item(placement: PlacedAssignment, service: AssignmentsGradesService) -> LineItem:
    """The assignment's grade column: the one the platform made from the deep link, else the one
    tagged for it among the course's, else a new one (platforms such as Brightspace make none)."""
    if placement.lineitem_url:
        return LineItem({"id": placement.lineitem_url})
    found = service.find_or_create_lineitem(
        LineItem().set_tag(grade_column_tag(placement.assignment_id)).set_label(placement.assignment.title)
        .set_score_maximum(SCORE_MAXIMUM).set_resource_id(grade_column_tag(placement.assignment_id)))
    placement.lineitem_url = found.get_id() or ""
    placement.save(update_fields=["lineitem_url"])
    return found


def _failure(error: Exception) -> str:
    if isinstance(error, GradesUnavailable):
        return error.message
    if isinstance(error, LtiServiceException):
        return _("The learning platform refused the grade (HTTP %(status)s).") % {
            "status": getattr(error.response, "status_code", "?")}
    return _("The learning platform could not be reached or did not answer as expected.")


def _send(placement: PlacedAssignment, *, sub: str, score: float, complete: bool, at: datetime) -> None:
    service = _service(placement)
    line_item = _line_item(placement, service)
    grade = (Grade().set_score_given(score).set_score_maximum(SCORE_MAXIMUM).set_user_id(sub)
             .set_timestamp(at.astimezone(dt_timezone.utc).isoformat())
             .set_activity_progress("Completed" if complete else "InProgress")
             .set_grading_progress("FullyGraded" if complete else "Pending"))
    service.put_grade(grade, line_item)


def _claim(*, placement: PlacedAssignment, student_id: int, force: bool) -> tuple[GradePost, tuple | None]:
    """Under the row's lock, briefly: the student's current score, and whether it is to be
    sent. If so, the row is marked as sending it (score and timestamp) and the lock released;
    returns (row, (score, complete, timestamp)), else (row, None)."""
    with transaction.atomic():
        # The row is made race-free (INSERT ... ON CONFLICT DO NOTHING), then locked: two runs
        # for a new student at once both find it, one waits for the other.
        GradePost.objects.bulk_create([GradePost(placement=placement, student_id=student_id, score=0,
                                                 state=GradePost.State.FAILED)], ignore_conflicts=True)
        post = GradePost.objects.select_for_update().get(placement=placement, student_id=student_id)
        # Read under the lock: a run that takes the row later sees newer reports, and its
        # score carries the later timestamp.
        score, complete = lti_score(assignment=placement.assignment, student_id=student_id)
        now = timezone.now()
        in_flight = post.sending_at is not None and post.sending_at > now - timedelta(seconds=SENDING_SECONDS)
        if not force and (post.sending_score == score if in_flight
                          else post.state == GradePost.State.POSTED and post.score == score):
            return post, None
        post.sending_score, post.sending_at = score, now
        post.save(update_fields=["sending_score", "sending_at"])
    return post, (score, complete, now)


def lti_grade_post(*, placement: PlacedAssignment, student_id: int, sub: str, force: bool = False) -> GradePost:
    """Post one student's current score unless that very score is already posted or on its
    way (or `force`). No row lock is held while the platform is asked: the row says which
    score is being sent, and the result is recorded only if the row still wants that one (a
    newer score may have been decided meanwhile; its own run records it)."""
    post, sending = _claim(placement=placement, student_id=student_id, force=force)
    if sending is None:
        return post
    score, complete, at = sending
    try:
        _send(placement, sub=sub, score=score, complete=complete, at=at)
    except (GradesUnavailable, LtiException, LtiServiceException, RequestException, ValueError,
            KeyError) as error:  # KeyError: a token answer without a token
        log.info("LTI grade not posted (placement %s, student %s): %r", placement.pk, student_id, error)
        state, error_text = GradePost.State.FAILED, _failure(error)
    else:
        state, error_text = GradePost.State.POSTED, ""
    with transaction.atomic():
        current = GradePost.objects.select_for_update().filter(pk=post.pk).first()
        if current is None or current.sending_at != at:
            return current or post
        current.state, current.error, current.score = state, error_text, score
        current.sending_score = current.sending_at = None
        current.save()
    return current


def _failed(post: GradePost) -> bool:
    """The post failed (and no other run is sending the student's score meanwhile)."""
    return post.state == GradePost.State.FAILED and post.sending_at is None


def _post_players(placements, players: set[int]) -> list[GradePost]:
    failures = []
    for placement in placements:
        for student_id, sub in lti_gradable_students(placement=placement).items():
            if student_id in players:
                post = lti_grade_post(placement=placement, student_id=student_id, sub=sub)
                if _failed(post):
                    failures.append(post)
    return failures


def lti_grades_post_for_game(*, game_id: int) -> list[GradePost]:
    """A game finished: the scores of its students for each place its assignment has in a course.
    Returns the posts that failed."""
    game = Game.objects.filter(pk=game_id, assignment__isnull=False).first()
    if game is None:
        return []
    players = set(game.seats.filter(user__isnull=False).values_list("user_id", flat=True))
    return _post_players(lti_placements_of_assignment(assignment_id=game.assignment_id), players)


def lti_grades_post_for_class(*, classroom_id: int) -> list[GradePost]:
    """A class's skill reports changed: for each of its placed assignments, the score of each
    student who finished a game of it, where it changed. Returns the posts that failed."""
    failures = []
    for placement in lti_placements_of_class(classroom_id=classroom_id):
        failures += _post_players([placement], lti_assignment_players(assignment_id=placement.assignment_id))
    return failures


def lti_grade_post_again(*, post: GradePost) -> GradePost:
    """The teacher's "post again": the student's current score, sent even if unchanged."""
    sub = lti_gradable_students(placement=post.placement).get(post.student_id)
    if sub is None:
        post.state, post.error = GradePost.State.FAILED, _("This student no longer comes through the course.")
        post.save(update_fields=["state", "error", "updated_at"])
        return post
    return lti_grade_post(placement=post.placement, student_id=post.student_id, sub=sub, force=True)
