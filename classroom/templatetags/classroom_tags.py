"""Plain-words descriptions of assignments, shared by teacher and student pages."""

from django import template
from django.conf import settings
from django.utils.formats import date_format
from django.utils.timesince import timesince
from django.utils.translation import gettext as _, ngettext, pgettext, pgettext_lazy

from accounts.permissions import is_class_owner
from games import registry
from games.ratings import JUST_RIGHT

from .. import presets
from ..models import Assignment

register = template.Library()


@register.filter
def owned_by(classroom, user) -> bool:
    """`{% if classroom|owned_by:user %}`: archive, restore and delete buttons are the owner's."""
    return is_class_owner(user, classroom)


register.filter("game_name", registry.game_name)


@register.filter
def level_label(assignment: Assignment) -> str:
    return presets.preset_label(assignment.game, assignment.preset)


@register.filter
def opponents_text(assignment: Assignment) -> str:
    spec = registry.get(assignment.game)  # None for a game no longer offered: say what we can
    if spec is not None and spec.is_solo:
        return _("Played alone")
    if assignment.opponents == Assignment.Opponents.CLASSMATES:
        return _("Against classmates")
    # The level's menu label without its bracket: "Player (medium)" -> "Player" (games/ratings.py).
    level = str(presets.BOT_LEVELS.get(assignment.bot_level, assignment.bot_level)).split(" (")[0]
    values = {"count": assignment.bot_count, "level": level}
    if assignment.opponents == Assignment.Opponents.EITHER:
        # Translators: %(level)s is the computer players' level: "Beginner", "Player".
        return ngettext("Against classmates or %(count)s computer player (%(level)s)",
                        "Against classmates or %(count)s computer players (%(level)s)",
                        assignment.bot_count) % values
    return ngettext("Against %(count)s computer player (%(level)s)",
                    "Against %(count)s computer players (%(level)s)", assignment.bot_count) % values


# The computer players' levels in a sentence, in words a child knows (games/ratings.py names
# them for menus, with their difficulty in brackets).
LEVEL_WORDS = {
    "starter": pgettext_lazy("computer players' level", "starter"),
    "beginner": pgettext_lazy("computer players' level", "beginner"),
    "player": pgettext_lazy("computer players' level", "player"),
    "expert": pgettext_lazy("computer players' level", "expert"),
    JUST_RIGHT: pgettext_lazy("computer players' level", "just right for you"),
}


@register.filter
def bot_level_words(assignment: Assignment) -> str:
    """The computer players' level as a student's start page says it: "beginner", ...,
    "just right for you" (never a number)."""
    return str(LEVEL_WORDS.get(assignment.bot_level, assignment.bot_level))


@register.filter
def goal_text(assignment: Assignment) -> str:
    count = assignment.goal_count
    if assignment.goal == Assignment.Goal.PLAY:
        return ngettext("Play %(count)s game", "Play %(count)s games", count) % {"count": count}
    if assignment.goal == Assignment.Goal.WIN:
        return ngettext("Win %(count)s game", "Win %(count)s games", count) % {"count": count}
    if assignment.goal_until:
        return _("Play as much as you like until %(date)s") % {
            "date": date_format(assignment.goal_until, "D j M")}
    return _("Play as much as you like until the end date")


@register.filter
def seen_ago(moment) -> str:
    """"5 minutes ago", one unit only: a teacher scanning the class needs no more."""
    # Translators: %(time)s is a length of time, "5 minutes".
    return pgettext("time in the past", "%(time)s ago") % {"time": timesince(moment, depth=1)} if moment else ""


@register.filter
def class_language_name(code: str) -> str:
    """A class's language named in itself ("Español", "العربية"), as the choice on the class's
    form names it; the code itself for a language the site no longer offers."""
    return dict(settings.LANGUAGES).get(code, code)
