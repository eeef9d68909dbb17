"""Writes the access log (privacy/access_log.py declares which pages) after a page answered,
and when a teacher opened a game's socket to watch it.

Only a page that was actually shown is logged: a GET answered 200 (a refusal, a redirect or a
form post is not a view). A socket is logged when the game accepted it (a refused socket sends
no signal), once per opening, never per message. Only teachers and administrators are logged
as viewers: a child sees their own work, never another child's reports.
"""
from django.utils import timezone

from accounts.permissions import is_student

from .access_log import LOGGED, record


def _viewer_logged(user) -> bool:
    return bool(user is not None and user.is_authenticated and not is_student(user))


def game_socket_opened(sender, *, game_id: int, user, path: str, **kwargs) -> None:
    """games.signals.table_watched: a game's socket is a view of its page (`games:game`)."""
    if not _viewer_logged(user):
        return
    logged = LOGGED["games:game"]
    subjects = logged.find(None, {"game_id": game_id})
    if subjects is not None:
        record(viewer=user, logged=logged, subjects=subjects, path=path, now=timezone.now())


class AccessLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        logged = LOGGED.get(match.view_name) if match else None
        if (logged is None or request.method != "GET" or response.status_code != 200
                or not _viewer_logged(request.user)):
            return response
        subjects = logged.find(request, match.kwargs)
        if subjects is not None:
            record(viewer=request.user, logged=logged, subjects=subjects,
                   path=request.get_full_path(), now=timezone.now())
        return response
