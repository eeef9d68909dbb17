"""`{% live_close_codes "game" %}`: the close-code table (live/close_codes.py) with a page
kind's words, as JSON data for static/js/live.js, in a <script type="application/json"> (data,
not code: the Content-Security-Policy allows it, docs/csp.md). Every live page has it in its
head (base.html's `live_codes` block)."""

from django import template
from django.utils.html import json_script

from live.close_codes import table

register = template.Library()


@register.simple_tag
def live_close_codes(page: str) -> str:
    return json_script(table(page), "live-close-codes")
