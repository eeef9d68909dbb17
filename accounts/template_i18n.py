"""Django's `i18n` template library, with `{% translate "constant" %}` looked up once per
process and language.

Every page and every socket push is rendered in its reader's language (docs/i18n.md). A `{%
translate "Leave game" %}` node does the same work at every render: it wraps the text in a lazy
translation, looks it up in the active language's catalogues, localizes and escapes it. A game
table has about 18 of them, rendered for every viewer of every move, and they were a fifth of a
table's render (devtools/bench/README.md, "Where a move's CPU goes"). For a constant text with
no filters and no `as` variable, the result depends only on the language, the message context
and the template's escaping and localization switches, and catalogues do not change while the
process runs: so it is kept, keyed by those, and given back as it was made.

Everything else is Django's own library, unchanged: `{% blocktranslate %}` (it has values),
`{% translate variable %}`, `{% translate "x" as y %}`, `noop`, filters. `install()` (from accounts/apps.py, once the
apps are ready and before any template is compiled) puts the two tag names `translate` and
`trans` of Django's own `i18n` library on this node, so every `{% load i18n %}` gets it
(a second library named `i18n` in `TEMPLATES` would be Django's warning templates.W003). The
cache is emptied when a test changes the languages or the catalogues' paths.
"""

from __future__ import annotations

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags import i18n as django_i18n
from django.utils import translation

from accounts.language import CATALOGUE_SETTINGS

_SAID: dict[tuple, str] = {}
_SAID_KEPT = 10_000  # far more than the site's constant texts in all its languages


class ConstantTranslateNode(django_i18n.TranslateNode):
    """A `TranslateNode` whose constant text is said once per language."""

    def _constant_key(self, context) -> tuple | None:
        expression = self.filter_expression
        literal = getattr(expression.var, "literal", None)
        if self.asvar or self.noop or expression.filters or not isinstance(literal, str):
            return None
        message_context = None
        if self.message_context is not None:
            message_context = self.message_context.var
            if self.message_context.filters or not isinstance(message_context, str):
                return None  # a context read from a variable
        return (translation.get_language(), literal, message_context, context.autoescape, context.use_l10n)

    def render(self, context):
        key = self._constant_key(context)
        if key is None:
            return super().render(context)
        said = _SAID.get(key)
        if said is None:
            if len(_SAID) >= _SAID_KEPT:
                _SAID.clear()
            said = _SAID[key] = super().render(context)
        return said


def _constant_translate(parser, token):
    node = django_i18n.do_translate(parser, token)
    node.__class__ = ConstantTranslateNode
    return node


def install() -> None:
    """`{% translate %}` and `{% trans %}` of Django's `i18n` library, from now on."""
    django_i18n.register.tag("translate", _constant_translate)
    django_i18n.register.tag("trans", _constant_translate)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs) -> None:
    if setting in CATALOGUE_SETTINGS:
        _SAID.clear()
