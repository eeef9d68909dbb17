"""Writes the access log (privacy/access_log.py declares which pages) after a page answered.

Only a page that was actually shown is logged: a GET answered 200 (a refusal, a redirect or a
form post is not a view). Only teachers and administrators are logged as viewers: a child sees
their own work, never another child's reports.
"""
from django.utils import timezone

from accounts.permissions import is_student

from .access_log import LOGGED, record


class AccessLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        logged = LOGGED.get(match.view_name) if match else None
        if (logged is None or request.method != "GET" or response.status_code != 200
                or not request.user.is_authenticated or is_student(request.user)):
            return response
        subjects = logged.find(request, match.kwargs)
        if subjects is not None:
            record(viewer=request.user, logged=logged, subjects=subjects,
                   path=request.get_full_path(), now=timezone.now())
        return response
