"""Game pages. The table itself lives on the WebSocket; these views open it and start games."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.permissions import student_required
from games import engine as engines

from .catalogue import GAMES_BY_KEY
from .rendering import table_context
from .selectors import game_access
from .services import SeatSpec, game_create

# How many computer opponents a free-play game gets, by game (the engine's player counts).
FREE_PLAY_BOTS = {"smooth_operator": 2, "add_or_multiply": 2, "numero": 1,
                  "numero_solitaire": 0, "multiplication": 1}
BOT_NAMES = ["Robo", "Zip", "Bolt", "Pixel", "Nova"]


def game_page(request, game_id: int):
    access = game_access(user=request.user, game_id=game_id) if request.user.is_authenticated else None
    if access is None:
        raise Http404("No such game here.")
    context = table_context(game=access.game, seat=access.seat, coach=access.coach)
    context["game_info"] = GAMES_BY_KEY.get(access.game.key)
    return render(request, "games/table.html", context)


@student_required
@require_POST
def free_play_start(request, key: str):
    info = GAMES_BY_KEY.get(key)
    classroom = request.user.classroom
    if info is None or classroom is None or not classroom.free_play:
        raise Http404("That game is not open for free play.")
    level = request.POST.get("level", "player")
    if level not in engines.BOT_LEVELS:
        level = "player"
    me = request.user.display_name
    bot_names = [n for n in BOT_NAMES if n != me][: FREE_PLAY_BOTS[key]]
    seats = [SeatSpec(me, user=request.user)] + [SeatSpec(n, bot_level=level) for n in bot_names]
    game = game_create(key=key, classroom=classroom, seats=seats, created_by=request.user)
    return redirect("games:table", game_id=game.pk)
