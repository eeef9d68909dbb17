"""Arena pieces other apps' templates show: a class page's arenas, a student's arena cards,
and the few words the projector adds. Templates of the classroom app load this library; the
Python apps below arena still never import it.
"""

from django import template

from arena import selectors, words
from games.practice import label_of
from arena.models import Arena

register = template.Library()


@register.filter
def focus_label(stored) -> str:
    """What an arena's "Practise this" focus practises, in the reader's language (it is
    stored in English)."""
    return label_of(stored)


@register.filter
def ordinal(place: int) -> str:
    """12 -> "12th", in the reader's language (arena/words.py)."""
    return words.ordinal(int(place))


# teacher

@register.simple_tag
def class_arenas(classroom, limit: int = 5):
    """The class's latest arenas, newest first (the class page lists them)."""
    return list(selectors.arenas_of_class(classroom=classroom)[:limit])


@register.simple_tag
def most_improved_names(arena: Arena, limit: int = 3) -> list[str]:
    """First names and initials of the players whose rating rose most in the arena (the
    projector's "most improved" with no points: names only, never a rating)."""
    gains = selectors.rating_gains(arena=arena)
    players = [p for p in selectors.standings(arena=arena)
               if p.games and gains.get(p.pk, 0) > 0 and p.status != p.Status.OUT]
    players.sort(key=lambda p: (-gains[p.pk], p.public_name))
    return [p.public_name for p in players[:limit]]


# student

@register.inclusion_tag("arena/_student_card.html", takes_context=True)
def arenas_for_student(context):
    """The student home's arena cards: each live arena they may join or are in."""
    user = context.get("user")
    arenas = selectors.arenas_open_to_student(student=user) if user and user.is_authenticated else []
    joined = set(user.arena_players.filter(arena__in=arenas).values_list("arena_id", flat=True)) \
        if arenas else set()
    return {"arenas": [(arena, arena.pk in joined) for arena in arenas]}
