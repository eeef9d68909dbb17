import json

from django import template

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
