"""Arena pieces other apps' templates show (classroom's Python never imports arena: the
templates load this library instead)."""

from django import template

from arena import selectors

register = template.Library()


# student
@register.inclusion_tag("arena/_student_card.html", takes_context=True)
def arenas_for_student(context):
    """The student home's arena cards: each live arena they may join or are in."""
    user = context.get("user")
    arenas = selectors.arenas_open_to_student(student=user) if user and user.is_authenticated else []
    joined = set(user.arena_players.filter(arena__in=arenas).values_list("arena_id", flat=True)) \
        if arenas else set()
    return {"arenas": [(arena, arena.pk in joined) for arena in arenas]}
