"""Tags for the live dashboard's partial updates (live/diff.py)."""

import re

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()

FIRST_TAG = re.compile(r"^\s*<(td|th|tr)\b")


@register.simple_tag(takes_context=True)
def live_item(context, html, *id_parts) -> str:
    """A table cell (or row) given the id "<id_parts joined by ->" and `hx-swap-oob`, so a
    push can send just this cell when only it changed:
    {% live_item cell_html "dash-c" student.pk forloop.counter %}. While a live push renders
    (reports/rendering.py puts a `live_items` dict in the context) the item is also recorded
    there by its id, which is how live/diff.py knows a part's items without cutting
    its HTML."""
    item_id = "-".join(str(p) for p in id_parts)
    tagged = mark_safe(FIRST_TAG.sub(  # noqa: S308 - escaped here
        lambda m: format_html('<{} id="{}" hx-swap-oob="true"', m.group(1), item_id),
        str(conditional_escape(html)), count=1))
    items = context.get("live_items")
    if items is not None:
        items[item_id] = tagged
    return tagged
