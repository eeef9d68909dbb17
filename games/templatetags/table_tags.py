import json

from django import template
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.engine.bots import mix_share
from games.ratings import LEVEL_WORDS, level_label

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


MOVE_FIELDS = ('<input type="hidden" name="expected_version" value="{}">'
               '<input type="hidden" name="idempotency_key" value="{}">')
ACTION_FIELD = '<input type="hidden" name="action" value="{}">'


@register.simple_tag(takes_context=True)
def move_fields(context, *key_parts, action: dict | None = None) -> SafeString:
    """The hidden fields every move form sends besides what the child chose, written once
    for every board: `{% move_fields "take" action=nt.take.action %}`. The action, when the
    form is one fixed move (a form that composes its action, data-compose, leaves it out);
    the version the move is made at; the idempotency key, the render's `form_key` and
    `key_parts` (unique among the board's forms). A tag, not a template: an included
    template measured 7-13 µs more per form, a tenth of a busy board's push."""
    key = "-".join(str(part) for part in (context["form_key"], *key_parts))
    if action:
        return format_html(ACTION_FIELD + MOVE_FIELDS, as_json(action), context["game"].version, key)
    return format_html(MOVE_FIELDS, context["game"].version, key)


@register.filter
def level_menu_label(level: str) -> str:
    """A computer player's level as a menu offers it: "Starter (easiest)", ..."""
    return level_label(level)


@register.filter
def bot_level_label(level: str) -> str:
    """A computer player's level as the table shows it: a "just right" mixed bot ("mix:0.42")
    is "just right", never its number."""
    word = "just right" if mix_share(level) is not None else level
    return LEVEL_WORDS.get(word, word)


@register.filter
def finished_within(game, seconds) -> bool:
    """`{% if game|finished_within:60 %}`: the game ended less than `seconds` ago (a page that
    just saw the end may move on by itself; one opened later, to look back, stays put)."""
    ended = getattr(game, "finished_at", None)
    return ended is not None and (timezone.now() - ended).total_seconds() < float(seconds)


@register.filter
def bidi(value):
    """A name or an equation inside a sentence, isolated in a right-to-left page (`<bdi>`), so
    "Ann" or "18 − 9 = 9" keeps its own direction among Arabic words; elsewhere as it is (the
    translated sentences never hold the markup: `{% blocktranslate with x=y|bidi %}`)."""
    if translation.get_language_bidi():
        return format_html("<bdi>{}</bdi>", value)
    return value
