"""The registered games for pages outside the games app (the home page): the menu comes
from the registry, so a new game appears there with no template naming it."""

from django import template

from games import registry
from games.spec import GameSpec

register = template.Library()


@register.simple_tag
def registered_games() -> list[GameSpec]:
    """`{% registered_games as games %}`: every registered game, in menu order."""
    return registry.all_games()
