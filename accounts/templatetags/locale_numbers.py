"""{% load locale_numbers %}: {{ share|percent }} ("12.5%" / "12,5 %"), {{ x|number:1 }}.
See accounts/numbers.py."""

from django import template

from accounts.numbers import format_number, format_percent

register = template.Library()


@register.filter
def percent(value, digits=0):
    """A fraction shown as a percentage in the reader's convention; "" for no value."""
    if value is None or value == "":
        return ""
    return format_percent(float(value), digits=int(digits))


@register.filter
def number(value, digits=0):
    if value is None or value == "":
        return ""
    return format_number(float(value), digits=int(digits))
