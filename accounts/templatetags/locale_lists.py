"""{% load locale_lists %}{{ names|and_list }}: "A, B and C" in the reader's language
("A, B y C", "A، B وC"), for lists inside sentences (docs/i18n.md); `{{ games|and_list:"name" }}`
lists each item's `name`.

A list is not glued from a bare ", " and " and ": translators lose a word's spacing at the ends
of a string, and Arabic joins "و" to the next word. Each step is a whole pattern instead.
"""

from django import template
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def and_list(items, attribute: str = "") -> str:
    names = [str(getattr(item, attribute) if attribute else item) for item in items]
    if not names:
        return ""
    joined = names[0]
    for name in names[1:-1]:
        # Translators: adds one more item to a list (not the last): "Numero, Smooth Operator".
        joined = pgettext("a list of names", "%(list)s, %(item)s") % {"list": joined, "item": name}
    if len(names) > 1:
        # Translators: adds the last item to a list: "Numero, Smooth Operator and Numero Solitaire".
        joined = pgettext("a list of names", "%(list)s and %(last)s") % {"list": joined, "last": names[-1]}
    return joined
