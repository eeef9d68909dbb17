"""Tags for the live dashboard's partial updates (reports/live_diff.py)."""

import re

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()

FIRST_TAG = re.compile(r"^\s*<(td|th|tr)\b")


@register.simple_tag
def live_item(html, *id_parts) -> str:
    """A table cell (or row) given the id "<id_parts joined by ->" and `hx-swap-oob`, and
    marked as an item of its part, so a push can send just this cell when only it changed:
    {% live_item cell_html "dash-c" student.pk forloop.counter %}."""
    item_id = "-".join(str(p) for p in id_parts)
    tagged = FIRST_TAG.sub(lambda m: format_html('<{} id="{}" hx-swap-oob="true"', m.group(1), item_id),
                           str(conditional_escape(html)), count=1)
    return mark_safe(f"<!--item-->{tagged}<!--/item-->")  # noqa: S308 - escaped above
