import json

from django import template

from games.engine.bots import mix_share

register = template.Library()


@register.filter
def get_item(mapping, key):
    """`{{ scores|get_item:name }}`: look up a dict entry whose key is in a variable."""
    if isinstance(mapping, dict):
        return mapping.get(key)
    return None


@register.filter
def as_json(value) -> str:
    """An action as compact JSON for a hidden form field (autoescaped by the template)."""
    return json.dumps(value, separators=(",", ":"))


@register.filter
def bot_level_label(level: str) -> str:
    """A computer player's level as the table shows it: a "just right" mixed bot ("mix:0.42")
    is "just right", never its number."""
    return "just right" if mix_share(level) is not None else level
