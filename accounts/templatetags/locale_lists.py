"""{% load locale_lists %}{{ names|and_list }}: "A, B and C" in the reader's language
("A, B y C", "A، B وC"), for lists inside sentences (docs/i18n.md); `{{ games|and_list:"name" }}`
lists each item's `name`.

A list is not glued from a bare ", " and " and ": translators lose a word's spacing at the ends
of a string, and Arabic joins "و" to the next word. Each step is a whole pattern instead. In a
right-to-left language each item is isolated (<bdi>): a name in Latin letters, or one ending in
"?", would otherwise pull the separators around it out of order.
"""

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language_bidi, pgettext

register = template.Library()


@register.filter
def and_list(items, attribute: str = "") -> SafeString:
    isolate = get_language_bidi()
    names = [format_html("<bdi>{}</bdi>", name) if isolate else conditional_escape(name)
             for name in (getattr(item, attribute) if attribute else item for item in items)]
    if not names:
        return mark_safe("")
    joined = names[0]
    for name in names[1:-1]:
        # Translators: adds one more item to a list (not the last): "Numero, Smooth Operator".
        joined = pgettext("a list of names", "%(list)s, %(item)s") % {"list": joined, "item": name}
    if len(names) > 1:
        # Translators: adds the last item to a list: "Numero, Smooth Operator and Numero Solitaire".
        joined = pgettext("a list of names", "%(list)s and %(last)s") % {"list": joined, "last": names[-1]}
    # The items are escaped above; the patterns are ours and hold no markup.
    return mark_safe(joined)
