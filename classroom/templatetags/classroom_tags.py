"""Plain-words descriptions of assignments, shared by teacher and student pages."""

from django import template
from django.utils.formats import date_format
from django.utils.timesince import timesince

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


@register.filter
def game_name(key: str) -> str:
    spec = registry.get(key)
    return spec.name if spec else key


@register.filter
def level_label(assignment: Assignment) -> str:
    return presets.preset_label(assignment.game, assignment.preset)


@register.filter
def opponents_text(assignment: Assignment) -> str:
    spec = registry.get(assignment.game)  # None for a game no longer offered: say what we can
    if spec is not None and spec.is_solo:
        return "Played alone"
    bots = (f"{assignment.bot_count} computer player{'s' if assignment.bot_count != 1 else ''} "
            f"({presets.BOT_LEVELS.get(assignment.bot_level, assignment.bot_level).split(' (')[0]})")
    if assignment.opponents == Assignment.Opponents.CLASSMATES:
        return "Against classmates"
    if assignment.opponents == Assignment.Opponents.EITHER:
        return f"Against classmates or {bots}"
    return f"Against {bots}"


@register.filter
def bot_level_words(assignment: Assignment) -> str:
    """The computer players' level as a student's start page says it: "beginner", ...,
    "just right for you" (never a number)."""
    if assignment.bot_level == JUST_RIGHT:
        return "just right for you"
    return assignment.bot_level


@register.filter
def goal_text(assignment: Assignment) -> str:
    count = assignment.goal_count
    if assignment.goal == Assignment.Goal.PLAY:
        return f"Play {count} game{'s' if count != 1 else ''}"
    if assignment.goal == Assignment.Goal.WIN:
        return f"Win {count} game{'s' if count != 1 else ''}"
    until = date_format(assignment.goal_until, "D j M") if assignment.goal_until else "the end date"
    return f"Play as much as you like until {until}"


@register.filter
def seen_ago(moment) -> str:
    """"5 minutes ago", one unit only: a teacher scanning the class needs no more."""
    return f"{timesince(moment, depth=1)} ago" if moment else ""
