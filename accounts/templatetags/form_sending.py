"""{% load form_sending %}<form method="post" action="..." {% sends_once %}>: a form that htmx
sends (boosted), so that the page says it is working and the form cannot be sent twice, with
no code of ours in the browser:

- `hx-disabled-elt` disables the submit button while the request is on its way (htmx puts it
  back if the request fails; static/js/app.js loads afresh a page that the browser's Back
  button brings from its back-forward cache after one of its forms sent the browser on);
- `hx-indicator` shows the page's "Working…" note (base.html, #sending);
- htmx sends the page's CSRF token as a header (the `hx-headers` on <body>), so a form that
  arrived over a WebSocket, rendered with no request and so with no token of its own (a
  lobby's buttons, a finished game's "Play again"), is accepted too;
- `hx-push-url="false"`: a form's page with its errors (the same page, drawn again) stays at
  the form's own address, so reloading it shows the form, not a POST-only URL.

A redirect answer becomes a whole-page visit (config/boosted_forms.py), so the next page
arrives with its own <head>; an answer that is a page (a form with errors, a 400) replaces
the <body>, which is why only forms whose errors come back on the page they were sent from
use this. docs/live.md, "Forms", says more."""

from django import template
from django.utils.safestring import mark_safe

register = template.Library()

# hx-target and hx-swap are spelled out because htmx attributes are inherited: a form inside a
# polled part (the arena's control panel, hx-swap="outerHTML") would otherwise swap a page with
# errors in place of the whole <body> element.
SENDS_ONCE = ('hx-boost="true" hx-target="body" hx-swap="innerHTML" hx-push-url="false" '
              'hx-disabled-elt="find button[type=submit]" hx-indicator="#sending"')


@register.simple_tag
def sends_once() -> str:
    return mark_safe(SENDS_ONCE)
