"""`{% live_close_codes %}`: the close-code table (live/close_codes.py) as JSON data for
static/js/live.js, in a <script type="application/json"> (data, not code: the
Content-Security-Policy allows it, docs/csp.md)."""

from django import template
from django.utils.html import json_script

from live.close_codes import table

register = template.Library()


@register.simple_tag
def live_close_codes() -> str:
    return json_script(table(), "live-close-codes")
