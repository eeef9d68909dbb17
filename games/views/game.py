"""A table's game page (its replay, Stop, Play again) and starting games. The live table is kept
by its WebSocket (games/consumers/table.py); these views open the page and start games."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import student_required
from accounts.student_classes import working_class_of
from games import registry
from games.engine.bots import mix_share
from games.rendering import board_context, names_in_words, table_context
from games.words import say
from games.selectors.play import accepted_moves, game_access, game_state_at, position_verdicts
from games.services import moves as move_services
from games.services.moves import BOT_NAMES, SeatSpec
from games.services.ratings import just_right_level
from games.services.tables import TableError, game_abandon, game_leave

def game_page(request, game_id: int):
    access = game_access(user=request.user, game_id=game_id) if request.user.is_authenticated else None
    if access is None:
        raise Http404("No such game here.")
    game = access.game
    if game.status == game.Status.ABANDONED and game.series_url and access.seat is not None:
        return redirect(game.series_url)  # one game of an arena: the arena deals the next
    if game.status == game.Status.ABANDONED and game.state is not None and not access.coach:
        # A dealt game that was stopped (by a teacher, or left alone too long) is put away.
        messages.info(request, _("That game of %(game)s was stopped, so it is put away. Start a new "
                                 "one whenever you like!") % {"game": registry.spec_for(game.key).name})
        return redirect("classroom:student_home")
    if game.status in (game.Status.LOBBY, game.Status.ABANDONED) and game.state is None:
        return redirect("games:lobby", game_id=game_id)  # no cards dealt: the table's lobby
    context = table_context(game=access.game, seat=access.seat, coach=access.coach)
    return render(request, "games/table.html", context)


@require_POST
def game_stop(request, game_id: int):
    """The table's Stop (after its "Stop this game?" question). A student alone with computer
    players stops the game; with classmates still playing, a computer player takes the
    student's seat so they can finish (games.services.tables.game_leave); back to their page.
    A teacher ("Tables & games now") stops the game for everyone at the table."""
    access = game_access(user=request.user, game_id=game_id) if request.user.is_authenticated else None
    if access is None or (access.seat is None and not access.coach):
        raise Http404("No such game here.")
    name = registry.spec_for(access.game.key).name
    if access.coach:
        if game_abandon(game_id=access.game.pk):
            players = names_in_words([s.name for s in access.game.seats.all() if s.user_id])
            if players:
                messages.success(request, _("%(game)s with %(players)s was stopped. It does not count "
                                            "as finished.") % {"game": name, "players": players})
            else:
                messages.success(request, _("%(game)s with computer players was stopped. It does not "
                                            "count as finished.") % {"game": name})
        else:
            messages.info(request, _("That game of %(game)s had already ended.") % {"game": name})
        return redirect("classroom:teacher_tables", pk=access.game.classroom_id)
    try:
        left = game_leave(student=request.user, game_id=access.game.pk)
    except TableError as exc:
        messages.info(request, str(exc))
    else:
        if access.game.forfeit_on_leave and access.game.series_url:
            messages.info(request, _("You left %(game)s, so it counts as a loss. Take a breath: "
                                     "you're back in the arena when you're ready.") % {"game": name})
            return redirect(access.game.series_url)
        if left.carried_on:
            others = names_in_words(list(left.carried_on))
            messages.success(request, _("You left %(game)s. A computer player took your place, so "
                                        "%(others)s can finish the game. It does not count for you.")
                             % {"game": name, "others": others})
        else:
            messages.success(request, _("You stopped %(game)s. It did not count as finished. "
                                        "Start a new game whenever you like!") % {"game": name})
    return redirect("classroom:student_home")


@student_required
@require_POST
def free_play_start(request, key: str):
    spec = registry.get(key)
    classroom = working_class_of(request)
    if spec is None or classroom is None or not classroom.free_play:
        raise Http404("That game is not open for free play.")
    # Only a level this game's computer players have (each game declares its own).
    level = request.POST.get("level", "player")
    if level not in spec.bots:
        level = "player" if "player" in spec.bots else next(iter(spec.bots))
    started = move_services.free_play_start(student=request.user, classroom=classroom, key=key,
                                            level=level)
    if started.from_before:
        messages.info(request, _("Here is the game you started: %(game)s. Your cards are "
                                 "waiting for you.") % {"game": spec.name})
    return redirect("games:game", game_id=started.game.pk)


def game_replay(request, game_id: int):
    """Step through a finished game. `?turn=N` shows the table after N moves; teachers see
    every hand, a student sees only what they saw while playing."""
    access = game_access(user=request.user, game_id=game_id) if request.user.is_authenticated else None
    if access is None:
        raise Http404("No such game here.")
    game = access.game
    if game.status != game.Status.FINISHED:
        return redirect("games:game", game_id=game.pk)
    moves = accepted_moves(game=game)
    try:
        turn = int(request.GET.get("turn", len(moves)))
    except ValueError:
        turn = len(moves)
    turn = max(0, min(turn, len(moves)))
    spec = registry.spec_for(game.key)
    engine = spec.engine
    state = game_state_at(game=game, turn=turn, moves=moves)
    view = engine.coach_view(state) if access.coach else engine.view(state, access.seat.name)
    move = moves[turn - 1] if turn else None
    return render(request, "games/replay.html", {
        "verdicts": position_verdicts(game=game, turn=turn, student=None if access.coach else request.user),
        "game": game, "spec": spec, "view": view, "coach": access.coach,
        "seat": access.seat, "seats": list(game.seats.all()), "turn": turn, "last_turn": len(moves),
        "move": move, "interactive": False,
        "said": [say(engine.describe_event(e)) for e in move.events] if move else [],
        **board_context(spec=spec, game=game, view=view, seat=None),
    })


@student_required
@require_POST
def play_again(request, game_id: int):
    """The same game, options and assignment again; classmates' seats go to computer players
    (a new classmates' table is opened from the lobby instead). Pressed twice, one game."""
    access = game_access(user=request.user, game_id=game_id)
    if access is None or access.seat is None:
        raise Http404("No such game here.")
    old = access.game
    seats = []
    # "Just right" computer players (mixed bots) are tuned again from the rating as it is now.
    mixed = sum(1 for s in old.seats.all() if s.pk != access.seat.pk and mix_share(s.bot_level) is not None)
    retuned = just_right_level(student=request.user, key=old.key, bots=mixed) if mixed else ""
    for s in old.seats.all():
        if s.pk == access.seat.pk:
            seats.append(SeatSpec(s.name, user=request.user))
        else:
            taken = {seat.name for seat in old.seats.all()} | {seat.name for seat in seats}
            level = retuned if mix_share(s.bot_level) is not None else s.bot_level or "player"
            seats.append(SeatSpec(s.name if s.bot_level else _free_bot_name(taken, s.name),
                                  bot_level=level))
    game = move_services.game_deal_again(student=request.user, old=old, seats=seats)
    return redirect("games:game", game_id=game.pk)


def _free_bot_name(taken: set, fallback: str) -> str:
    return next((n for n in BOT_NAMES if n not in taken), f"Bot {fallback}")
