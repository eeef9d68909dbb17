"""Game pages. The table itself lives on the WebSocket; these views open it and start games."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.permissions import student_required
from games import engine as engines

from .catalogue import GAMES_BY_KEY
from .rendering import table_context
from . import presenters
from .selectors import accepted_moves, game_access, game_state_at
from .services import BOT_NAMES, SeatSpec, bot_seats, game_create

# How many computer opponents a free-play game gets, by game (the engine's player counts).
FREE_PLAY_BOTS = {"smooth_operator": 2, "add_or_multiply": 2, "numero": 1,
                  "numero_solitaire": 0, "multiplication": 1}


def game_page(request, game_id: int):
    access = game_access(user=request.user, game_id=game_id) if request.user.is_authenticated else None
    if access is None:
        raise Http404("No such game here.")
    if access.game.status in (access.game.Status.LOBBY, access.game.Status.ABANDONED):
        return redirect("games:lobby", game_id=game_id)  # no cards dealt: the table's lobby
    context = table_context(game=access.game, seat=access.seat, coach=access.coach)
    context["game_info"] = GAMES_BY_KEY.get(access.game.key)
    return render(request, "games/table.html", context)


@student_required
@require_POST
def free_play_start(request, key: str):
    info = GAMES_BY_KEY.get(key)
    classroom = request.user.classroom
    if info is None or not info.playable or classroom is None or not classroom.free_play:
        raise Http404("That game is not open for free play.")
    level = request.POST.get("level", "player")
    if level not in engines.BOT_LEVELS:
        level = "player"
    me = request.user.display_name
    seats = [SeatSpec(me, user=request.user)] + bot_seats(count=FREE_PLAY_BOTS[key], level=level, avoid={me})
    game = game_create(key=key, classroom=classroom, seats=seats, created_by=request.user)
    return redirect("games:table", game_id=game.pk)


def game_replay(request, game_id: int):
    """Step through a finished game. `?turn=N` shows the table after N moves; teachers see
    every hand, a student sees only what they saw while playing."""
    access = game_access(user=request.user, game_id=game_id) if request.user.is_authenticated else None
    if access is None:
        raise Http404("No such game here.")
    game = access.game
    if game.status != game.Status.FINISHED:
        return redirect("games:table", game_id=game.pk)
    moves = accepted_moves(game=game)
    try:
        turn = int(request.GET.get("turn", len(moves)))
    except ValueError:
        turn = len(moves)
    turn = max(0, min(turn, len(moves)))
    engine = engines.get(game.key)
    state = game_state_at(game=game, turn=turn, moves=moves)
    view = engine.coach_view(state) if access.coach else engine.view(state, access.seat.name)
    move = moves[turn - 1] if turn else None
    return render(request, "games/replay.html", {
        "game": game, "game_info": GAMES_BY_KEY.get(game.key), "view": view, "coach": access.coach,
        "seat": access.seat, "seats": list(game.seats.all()), "turn": turn, "last_turn": len(moves),
        "move": move, "interactive": False,
        "said": [engine.describe_event(e) for e in move.events] if move else [],
        "board_template": f"games/boards/{game.key}.html",
        **presenters.board_context(game=game, view=view),
    })


@student_required
@require_POST
def play_again(request, game_id: int):
    """The same game, options and assignment again; classmates' seats go to computer players
    (a new classmates' table is opened from the lobby instead)."""
    access = game_access(user=request.user, game_id=game_id)
    if access is None or access.seat is None:
        raise Http404("No such game here.")
    old = access.game
    seats = []
    for s in old.seats.all():
        if s.pk == access.seat.pk:
            seats.append(SeatSpec(s.name, user=request.user))
        else:
            taken = {seat.name for seat in old.seats.all()} | {seat.name for seat in seats}
            seats.append(SeatSpec(s.name if s.bot_level else _free_bot_name(taken, s.name),
                                  bot_level=s.bot_level or "player"))
    game = game_create(key=old.key, classroom=old.classroom, seats=seats, options=old.options,
                       assignment=old.assignment, created_by=request.user)
    return redirect("games:table", game_id=game.pk)


def _free_bot_name(taken: set, fallback: str) -> str:
    return next((n for n in BOT_NAMES if n not in taken), f"Bot {fallback}")
