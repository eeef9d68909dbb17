"""Render a game table for one viewer: a player's own view, or the coach's view; and a
table's lobby (`lobby_context`, `render_lobby`: the lobby page and its WebSocket share them).

The same fragment serves the first HTTP render and every WebSocket push. It is made of
named parts (status, notice, board, scores, log, leave: partials of games/_table.html, rendered by
name for a push, live/partials.py), each carrying `hx-swap-oob` so htmx's ws
extension swaps each by id; the board is morphed (idiomorph), so what a child has half-chosen
survives (static/js/app.js). A push sends a socket only the parts that differ from what it
sent that socket before (`TablePush`, games/consumers/table.py).

After a committed change the views are rendered once, by whoever made the change
(`table_push`): one per human seat (the seat's own view), from one read of the game and its
seats. They travel to the sockets in the channel-layer message (server-side only, never to a
browser as a whole), and each socket sends on only its own seat's view, so no page ever gets
another player's hidden cards. Watchers (the coach view) render their own.

What differs between games comes from the game's GameSpec hooks (games/registry.py); this
module is what every game shares.
"""

from __future__ import annotations

import os
import random
import secrets
from dataclasses import dataclass, field

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.language import CATALOGUE_SETTINGS, user_language
from accounts.membership import membership_version
from games import registry
from games.models import Game, Seat
from live.partials import render_partials
from games.results import how_you_played
from games.selectors import lobby as lobby_selectors
from games.selectors.play import recent_events, seat_moves
from games.engine.words import names_in_words as _names_in_words
from games.spec import GameSpec
from games.words import say


# Form keys only tell one render's forms from another's (a duplicate is the same key sent
# twice by the same seat); they guard nothing, so they need not come from the operating
# system. A private generator, seeded from it once per process: `secrets` asks the kernel at
# every render, and each ask lets go of the GIL, a switch point for every other thread in the
# middle of a push (py-spy: devtools/bench/README.md, "Where a move's CPU goes").
_form_keys = random.Random(secrets.randbits(128))
os.register_at_fork(after_in_child=lambda: _form_keys.seed(secrets.randbits(128)))  # Celery's forked workers


def new_form_key() -> str:
    return f"{_form_keys.getrandbits(64):016x}"


def names_in_words(names: list[str]) -> str:
    """"Ann", "Ann and Ben", "Ann, Ben and Cal", in the reader's language."""
    return say(_names_in_words(names))


STOPPED = gettext_lazy("This game was stopped, so no more moves can be made. It is put away.")


def status_line(*, spec: GameSpec, view: dict, coach: bool) -> str:
    if view.get("finished"):
        winners = view.get("winners") or []
        if not coach and view.get("me") in winners:
            return _("You won! Well played.") if len(winners) == 1 else _("You share the win!")
        return (_("Game over: %(winners)s won.") % {"winners": names_in_words(winners)} if winners
                else _("Game over."))
    waiting = view.get("waiting_for") or []
    me = view.get("me")
    if coach or me not in waiting:
        return (_("Waiting for %(names)s.") % {"names": names_in_words(waiting)} if waiting
                else _("Waiting…"))
    return spec.your_turn(view)


def mental_math_on(*, spec: GameSpec, game: Game) -> bool:
    return spec.mental_math is not None and game.assignment_id is not None and game.assignment.mental_math


def board_context(*, spec: GameSpec, game: Game, view: dict, seat: Seat | None) -> dict:
    """The game's extra values for its board template (and mental maths when it is on)."""
    context = {"board_template": spec.board_template, "mental_math": False, **spec.board_context(view)}
    if seat is not None and view.get("me") and mental_math_on(spec=spec, game=game):
        last = seat_moves(game=game, seat=seat, accepted_only=True, last_only=True)
        context.update(spec.mental_math.context(view, last[0] if last else None))
    return context


def stopped_line(game: Game, seats: list[Seat], seat: Seat | None) -> str:
    """What a stopped table says: who walked away from a game that forfeits on leave (an
    arena's: the classmates win it), else that it was stopped."""
    leavers = [s.name for s in seats if s.left_at is not None]
    if not (game.forfeit_on_leave and leavers):
        return str(STOPPED)
    if seat is not None and seat.left_at is not None:
        return _("You left this game, so it counts as a loss for you.")
    who = names_in_words(leavers)
    return (_("%(names)s left the game, so you win it!") % {"names": who} if seat is not None
            else _("%(names)s left the game, so it was stopped.") % {"names": who})


# The "What just happened" lines, said once per process and language. An event's line does
# not depend on who reads it (it names the players), a table's log is the last few moves' lines
# (all but the newest already said at the move before), and saying one is a sentence and its
# values looked up in the reader's catalogue: for every viewer of every push, that was most of
# a table's context (devtools/bench/README.md, "Where a move's CPU goes"). Keyed by the event's repr (events
# are small JSON dicts; one read back from PostgreSQL may order its keys differently, which
# only costs a second entry).
_EVENT_LINES: dict[tuple[str, str, str], str | None] = {}
_EVENT_LINES_KEPT = 20_000
_UNSAID = object()


def event_line(game_key: str, engine, event: dict) -> str | None:
    """`event` said in the active language (None or "" when the game says nothing of it)."""
    key = (translation.get_language(), game_key, repr(event))
    line = _EVENT_LINES.get(key, _UNSAID)
    if line is _UNSAID:
        if len(_EVENT_LINES) >= _EVENT_LINES_KEPT:
            _EVENT_LINES.clear()  # a whole school's morning of lines; start again rather than track age
        line = _EVENT_LINES[key] = say(engine.describe_event(event))
    return line


@receiver(setting_changed)
def _forget_event_lines(*, setting: str, **kwargs) -> None:
    # The catalogues changed (a test's languages): lines said before may read otherwise now.
    if setting in CATALOGUE_SETTINGS:
        _EVENT_LINES.clear()
        _LEAVE_PARTS.clear()


def table_context(*, game: Game, seat: Seat | None, coach: bool, notice: str = "",
                  seats: list[Seat] | None = None, fresh_choices: bool = False) -> dict:
    spec = registry.spec_for(game.key)
    engine = spec.engine
    view = engine.coach_view(game.state) if coach else engine.view(game.state, seat.name)
    seats = list(game.seats.all()) if seats is None else seats
    finished = bool(view.get("finished"))
    # A game stopped by a player, a teacher or the idle sweep takes no more moves: its open
    # tables say so at once (the push that follows the stop), instead of waiting for a move.
    stopped = game.status == Game.Status.ABANDONED and not finished
    return {
        "game": game,
        "spec": spec,
        "seats": seats,
        "seat": seat,
        "coach": coach,
        "view": view,
        "notice": say(notice) if notice else notice,
        "status_line": (stopped_line(game, seats, seat) if stopped
                        else status_line(spec=spec, view=view, coach=coach)),
        "log": [text for move_events in recent_events(game=game)
                for text in (event_line(spec.key, engine, e) for e in move_events) if text],
        # This viewer's own move was just applied: the page starts the next decision afresh
        # instead of keeping the choices that made the last one (static/js/app.js).
        "fresh_choices": fresh_choices,
        "interactive": seat is not None and not finished and not stopped,
        # The same figures and words as "My progress" (games/results.py).
        "how_you_played": (how_you_played(spec=spec, game=game, seat=seat)
                           if finished and seat is not None else []),
        # Who would carry on if this student left (the Leave question names them: _leave.html).
        "classmates": names_in_words([s.name for s in seats if s.user_id and seat is not None and s.pk != seat.pk]),
        # A fresh key per render: re-sending the same form (a double tap, a resend after a
        # reconnect) repeats its key and is recognised as a duplicate by the move service.
        "form_key": new_form_key(),
        **board_context(spec=spec, game=game, view=view, seat=seat),
    }


# The table fragment's parts, in order: the named partials of games/_table.html.
PARTS = ("status", "notice", "board", "scores", "log", "leave")


# The Stop / Leave question (games/_leave.html) reads only what `_leave_key` holds, so it stays
# the same for every push of a game until the game's status, the viewer's right to move or the
# classmates it names change; its two URL reversals made it a fifth of a table's render. Said
# once per process and key instead, as the log's lines are. (A pushed part has no CSRF token in
# any case: the page adds its own to a form without one, static/js/app.js.)
_LEAVE_PARTS: dict[tuple, str] = {}
_LEAVE_PARTS_KEPT = 20_000
_ALL_BUT_LEAVE = tuple(name for name in PARTS if name != "leave")


def _leave_key(context: dict) -> tuple:
    game = context["game"]
    return (translation.get_language(), game.pk, game.status, game.forfeit_on_leave,
            context["interactive"], context["coach"], context["classmates"])


def render_parts(**context_kwargs) -> dict[str, str]:
    """One viewer's table, as its parts (`table_context`'s keyword arguments)."""
    context = table_context(**context_kwargs)
    key = _leave_key(context)
    leave = _LEAVE_PARTS.get(key)
    parts = render_partials(template_name="games/_table.html",
                            names=PARTS if leave is None else _ALL_BUT_LEAVE, context=context, localize=False)
    if leave is None:
        if len(_LEAVE_PARTS) >= _LEAVE_PARTS_KEPT:
            _LEAVE_PARTS.clear()
        _LEAVE_PARTS[key] = parts["leave"]
    else:
        parts["leave"] = leave
    return parts


def _game_and_seats(game_id: int) -> tuple[Game, list[Seat]]:
    # The game and its seats in one query (a game always has seats; the fallback keeps
    # Game.DoesNotExist for a vanished game).
    seats = list(Seat.objects.select_related("game", "user").filter(game_id=game_id)
                 .order_by("position"))
    game = seats[0].game if seats else Game.objects.get(pk=game_id)
    for seat in seats:
        seat.game = game  # one Game object: its assignment is read once, not per seat
    return game, seats


def render_table(*, game_id: int, seat: Seat | None, coach: bool, notice: str = "") -> TableView:
    """One viewer's table as it is now (a connect, a watcher's push, a refused move)."""
    game, seats = _game_and_seats(game_id)
    return TableView(game.version, render_parts(game=game, seat=seat, coach=coach, notice=notice,
                                                seats=seats))


@dataclass(frozen=True)
class TableView:
    """A table for one viewer: the game's version it shows, and its parts."""

    version: int
    parts: dict[str, str]

    @property
    def html(self) -> str:
        """The whole table: every part, in order."""
        return "".join(self.parts[name] for name in PARTS if name in self.parts)


@dataclass(frozen=True)
class TablePush:
    """What a committed change tells the table's sockets (the channel-layer message's body).

    `views` holds, per human seat (its pk, as a string: the message is msgpack/JSON), that
    seat's own view; a socket of another viewer (a watcher) renders its own. `membership` is
    the class's membership version the views were rendered at: a socket that checked access
    at the same version sends its view as it is, any other re-checks first. `has_bots` saves
    the bot scheduler a query."""

    game_id: int
    version: int | None
    membership: int | None = None
    views: dict[str, dict[str, str]] = field(default_factory=dict)
    has_bots: bool = False
    languages: dict[str, str] = field(default_factory=dict)  # per seat: the language of its view

    def message(self) -> dict:
        return {"type": "game.changed", "game_id": self.game_id, "version": self.version,
                "membership": self.membership, "views": self.views, "languages": self.languages}


def seat_language(seat: Seat) -> str:
    """The language a seat's person reads, from what was read with the seat: the move
    service's statement (`reader_language`), or the seat's user joined by the ORM."""
    code = getattr(seat, "reader_language", None)
    if code is None:
        code = user_language(user=seat.user) if seat.user_id else ""
    return code or settings.LANGUAGE_CODE


def table_push(*, game_id: int, by_seat_id: int | None = None, game: Game | None = None,
               seats: list[Seat] | None = None) -> TablePush:
    """Render every human seat's view once, after a committed change (see the module's doc).
    `by_seat_id`: the seat whose move caused the change (its page starts afresh). `game` and
    `seats`: the game and its seats as the change committed them, when the caller holds both
    (the move service does), so nothing is read back from the database; otherwise both are
    read."""
    if game is None or seats is None:
        game, seats = _game_and_seats(game_id)
    has_bots = any(s.bot_level for s in seats)
    if game.state is None:  # a lobby: its pages render their own
        return TablePush(game_id, None, has_bots=has_bots)
    views, languages = {}, {}
    for s in seats:
        if s.user_id is None:
            continue
        languages[str(s.pk)] = language = seat_language(s)
        with translation.override(language):  # each seat's view in its reader's language
            views[str(s.pk)] = render_parts(game=game, seat=s, coach=False, seats=seats,
                                            fresh_choices=s.pk == by_seat_id)
    return TablePush(game_id, game.version, membership_version(game.classroom_id), views, has_bots,
                     languages)


def lobby_context(access: lobby_selectors.LobbyAccess) -> dict:
    return {"access": access, "game": access.game,
            "bot_levels": list(registry.spec_for(access.game.key).bots),
            "lobby": lobby_selectors.lobby(game=access.game, for_seat=access.seat)}


def render_lobby(*, user, game_id: int) -> str:
    """The lobby fragment pushed to one viewer ("" when they may no longer see it)."""
    access = lobby_selectors.lobby_access(user=user, game_id=game_id)
    if access is None:
        return ""
    return render_to_string("games/_lobby.html", {**lobby_context(access), "user": user, "oob": True})
