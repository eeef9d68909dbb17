"""Arena tags for templates: what a class page lists, and the few words the projector adds.

Templates of the classroom app load this library (told so: the class page links its arenas);
the Python apps below arena still never import it.
"""

from django import template

from arena import selectors
from arena.models import Arena

register = template.Library()


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
