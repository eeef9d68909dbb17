"""The Numero selection endpoint: after each tap, the play area as the selection now allows.

`GET /game/<id>/numero/selection/?card=7g&picked=3b,4g|7o` (htmx). Only the player of a seat
may ask, and only about their own cards: the answer is computed from their own view, so it
can never show another hand or the deck. It changes nothing; the move itself goes over the
WebSocket through the move service like every other move.
"""

from django.http import Http404, HttpResponseForbidden
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import numero_table
from .selectors import game_access


@never_cache
@require_GET
def numero_selection(request, game_id: int):
    access = game_access(user=request.user, game_id=game_id) if request.user.is_authenticated else None
    if access is None or access.game.key not in numero_table.KEYS:
        raise Http404("No such game here.")
    if access.seat is None:
        return HttpResponseForbidden("You are watching this game, so you can't pick cards here.")
    game, seat = access.game, access.seat
    try:
        card, picked = numero_table.parse_query(request.GET)
        status = 200
    except numero_table.BadSelection as exc:
        # Nothing is picked; the play area comes back as it was, with the reason on top.
        card, picked, status, message = None, [], 400, str(exc)
    else:
        message = ""
    context = numero_table.selection_context(game=game, seat=seat, card=card, picked=picked)
    if message:
        context["nt"]["message"] = message
    return render(request, "games/boards/_numero_play.html", context, status=status)
