"""A form htmx sends ({% sends_once %}, accounts/templatetags/form_sending.py) and its answer.

Views answer a sent form the usual way: a redirect to the next page, or the form's page again
with its errors. htmx's request would follow a redirect by itself and swap the next page into
the current <body>, keeping the current page's <head> (another page's stylesheets, scripts
and close codes) and history entry. So for a boosted request a redirect becomes htmx's own
`HX-Redirect`: the browser visits the next page as a whole, as it would after a plain form.
The answer keeps its cookies (the session, the message the next page shows)."""

from django.http import HttpRequest, HttpResponse
from django_htmx.http import HttpResponseClientRedirect

REDIRECTS = {301, 302, 303, 307, 308}
KEPT_HEADERS = {"vary", "cache-control", "expires", "content-language"}


class BoostedFormRedirectMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        htmx = getattr(request, "htmx", None)
        if not (htmx and htmx.boosted and response.status_code in REDIRECTS and response.has_header("Location")):
            return response
        visit = HttpResponseClientRedirect(response["Location"])
        visit.cookies = response.cookies
        for header, value in response.items():
            if header.lower() in KEPT_HEADERS:
                visit[header] = value
        return visit
