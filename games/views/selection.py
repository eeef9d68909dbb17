"""A game's step-by-step selection (an optional hook: Numero's hand card, then centre cards):
after each tap, the play area as the selection now allows.

`GET /game/<id>/selection/?...` (htmx). Only the player of a seat may ask, and only about
their own cards: the answer is computed from their own view, so it can never show another
hand or the deck. It changes nothing; the move itself goes over the WebSocket through the
move service like every other move.
"""

from django.http import Http404, HttpResponseForbidden
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django.utils.translation import gettext as _

from games import registry
from games.rendering import new_form_key
from games.selectors.play import game_access
from games.spec import BadSelection


@never_cache
@require_GET
def game_selection(request, game_id: int):
    access = game_access(user=request.user, game_id=game_id) if request.user.is_authenticated else None
    spec = registry.get(access.game.key) if access is not None else None
    if spec is None or spec.selection is None:
        raise Http404("No such game here.")
    if access.seat is None:
        return HttpResponseForbidden(_("You are watching this game, so you can't pick cards here."))
    game, seat, hook = access.game, access.seat, spec.selection
    try:
        parsed, status, message = hook.parse(request.GET), 200, ""
    except BadSelection as exc:
        # Nothing is picked; the play area comes back as it was, with the reason on top.
        parsed, status, message = hook.empty, 400, str(exc)
    view = spec.engine.view(game.state, seat.name)
    context = {"game": game, "seat": seat, "view": view, "coach": False,
               "interactive": not view.get("finished"), "form_key": new_form_key(),
               "selection_notice": message, **hook.context(view, parsed)}
    return render(request, hook.template, context, status=status)
