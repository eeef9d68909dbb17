"""One WebSocket per game page (`/ws/game/<id>/?v=<version the page shows>`).

Session-authenticated and origin-checked by config/asgi.py. On connect (and so on every
reconnect) the consumer sends its viewer's table only if the game moved on from the version
the page shows: a page just loaded already has the board, and a push of the same board would
only race the child's first taps. After every committed change the group `game.<id>` gets the
players' views rendered once by whoever made the change (games/rendering.py `TablePush`);
each consumer sends on only its own seat's view (a watcher renders its own), so no fragment
ever holds another player's hidden cards. A socket is sent only the parts (status, notice,
board, scores, log, leave) that differ from what it sent before, and never an older version
than it already sent (the live base, live/consumer.py, in its envelope: type "table"). Moves go through the same service as everything else; errors go to the sender
only.

Access is checked at connect and again later (live/guard.py): before every move and
every push, in the database when the class's membership version has changed (one cache read
otherwise; every change of who may play here bumps it). A viewer who lost access (a student removed, a co-teacher taken off the
class) is told so in one sentence and closed with 4403; nothing is applied for them.

Each socket may send about SOCKET_MAX_MESSAGES_PER_SECOND messages a second after a burst of
SOCKET_BURST; one that floods is told so and closed with 4429. Messages are counted as they
arrive (the moves themselves wait in a short queue and are handled one at a time, in order),
so a flood is recognised however slowly the server answers it. A person's moves are also
counted across all their sockets, and only SOCKETS_PER_GAME of their sockets may be open on one
game (live/limits.py): a move over that limit is refused unread (4429), and a fifth
window is told so and closed (4409).

A page that has heard nothing for a while after a move, or during another player's turn,
sends `{"sync": version}`: it gets the parts of the table that changed since this socket last
sent it (nothing when none did), after a computer player whose turn stalled is woken. So a
push or a bot's wake-up lost after a move's commit (the database or Redis restarting just
then) is noticed within seconds instead of leaving the table silent.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext_lazy

from accounts.membership import membership_version
from games.messages import BadMessage, SyncRequest, parse_message
from games.models import Game
from games.realtime import game_group
from games.rendering import TableView, render_table
from games.selectors.play import game_access
from games.signals import table_watched
from games.services.moves import game_apply_move
from games.tasks import schedule_bot_moves, wake_bots_if_stalled

from accounts.language import socket_language
from games.services.moves import moves_set_aside_flood
from live import limits
from live.close_codes import (CLOSE_FAILED, CLOSE_NOT_ALLOWED, CLOSE_TOO_MANY, CLOSE_TOO_MANY_SOCKETS,
                              CLOSE_TRY_AGAIN)
from live.consumer import LiveConsumer
from live.diff import Sent, as_parts
from live.guard import Checked, current_user, recheck_if_changed

from .notices import NO_LONGER_IN_CLASS, TOO_MANY_MESSAGES, TOO_MANY_WINDOWS, table_notice

log = logging.getLogger(__name__)

WATCHING = gettext_lazy("You are watching this game, so you can't make moves here.")


def _db(func):
    """Run database work in the thread pool. Channels' default runs every consumer of a process
    in one thread, so one table's queries (or a move waiting for its broadcast) would stall
    every other table; each consumer still handles its own messages one at a time, in order."""
    return database_sync_to_async(func, thread_sensitive=False)


class LostAccess(Exception):
    """The viewer may no longer see this table."""


class Flooding(Exception):
    """The viewer's moves, over all their sockets, went over the limit (live/limits.py)."""


@dataclass(frozen=True)
class Reply:
    """What to send back for one message: the table, as the answer to a move (its notice is
    sent even when the same words were sent before), or to a sync (`sync`: the version the page
    says it shows; only what the page does not have is sent)."""

    view: TableView
    sync: int | None = None


class Viewer:
    """One socket's viewer and what they were last allowed. Its methods run in the database
    thread, one at a time (the consumer holds its lock around each call)."""

    def __init__(self, *, user_id: int, game_id: int):
        self.user_id = user_id
        self.game_id = game_id
        self.checked = Checked(classroom_id=None, version=None, access=None)
        self.language = settings.LANGUAGE_CODE  # read once at connect (`connect`)

    @property
    def access(self):
        return self.checked.access

    def connect(self, user):
        """The first check, with the user the socket was opened by; and the language
        everything this socket sends is rendered in (`scope`: the socket's handshake)."""
        self.language = socket_language(scope=getattr(self, "scope", None) or {}, user=user)
        self.checked.classroom_id = (Game.objects.filter(pk=self.game_id)
                                     .values_list("classroom_id", flat=True).first())
        self.checked.version = membership_version(self.checked.classroom_id)
        self.checked.access = game_access(user=user, game_id=self.game_id)
        return self.checked.access

    def version(self) -> int | None:
        return Game.objects.filter(pk=self.game_id).values_list("version", flat=True).first()

    def _check(self):
        user = current_user(self.user_id)
        return game_access(user=user, game_id=self.game_id) if user is not None else None

    def allowed(self, *, force: bool = False):
        access = recheck_if_changed(self.checked, self._check, force=force)
        if access is None:
            raise LostAccess
        return access

    def table(self, notice: str = "") -> TableView:
        """The table for a push: access re-checked only if the class's membership changed."""
        access = self.allowed()
        with translation.override(self.language):
            return render_table(game_id=self.game_id, seat=access.seat, coach=access.coach, notice=notice)

    def view_in(self, event: dict) -> TableView | None:
        """This viewer's view in a push, when it may be sent as it is: the viewer's own seat's,
        rendered at the membership version this socket last checked access at."""
        access = self.checked.access
        views = event.get("views") or {}
        if (access is None or access.seat is None or event.get("version") is None
                or self.checked.version is None or event.get("membership") != self.checked.version):
            return None
        parts = views.get(str(access.seat.pk))
        # Rendered in this seat's language as the push read it; a socket reading another (its
        # person changed language since) renders its own.
        language = (event.get("languages") or {}).get(str(access.seat.pk))
        if language != self.language:
            return None
        return TableView(event["version"], parts) if parts else None

    def answer(self, text: str | None) -> Reply | None:
        """Handle one message from the page: the reply to send, or None (an applied move is
        told to everyone, this socket included, by the broadcast). In the viewer's language."""
        with translation.override(self.language):
            return self._answer(text)

    def _answer(self, text: str | None) -> Reply | None:
        # Never act for someone who lost access: every change of who may play here (a student
        # removed or moved, a seat handed to a computer player) bumps the class's membership
        # version once committed, so one cache read tells whether the database must be asked;
        # and the move service checks the seat is still theirs under the game's lock, which
        # catches a change made behind the services' back too.
        access = self.allowed()
        try:
            message, problem = parse_message(text), ""
        except BadMessage as exc:
            message, problem = None, exc.args[0]  # a lazy sentence: said in the viewer's language
        if isinstance(message, SyncRequest):
            # Heard nothing for a while: a bot whose wake-up was lost plays first; then, if the
            # game moved on from what the page shows, the consumer sends what it lacks (one
            # version read and nothing more while the other player is only thinking).
            wake_bots_if_stalled(game_id=self.game_id)
            if self.version() == message.version:
                return None
            return Reply(self.table(), sync=message.version)
        # Every other message counts as a move against the person's limit, read or not.
        if not limits.move_allowed(user_id=self.user_id, set_aside=moves_set_aside_flood):
            raise Flooding
        if message is None:
            return Reply(self.table(notice=problem))
        if not access.can_move:
            return Reply(self.table(notice=WATCHING))
        result = game_apply_move(
            game_id=self.game_id, seat=access.seat, action=message.action,
            expected_version=message.expected_version, idempotency_key=message.idempotency_key,
            answer=message.answer, player_id=self.user_id,
        )
        if result.applied:
            return None
        if result.status == "rejected" and result.move is not None:
            limits.refused_move_stored(user_id=self.user_id, set_aside=moves_set_aside_flood)
        if result.status == "forbidden":  # access lost behind the services' back (an admin)
            raise LostAccess
        if result.status == "duplicate":
            # The page re-sent a move it had no answer for (its socket dropped): the move was
            # received once, so it gets the table as it is now, and nothing to worry about.
            return Reply(self.table())
        # The broadcast only follows applied moves; the sender alone hears why not.
        return Reply(self.table(notice=result.message))


class GameConsumer(LiveConsumer):
    """The table's socket on the live base (live/consumer.py): its envelope's version is the
    game's, its messages (moves, and syncs, which may wake a computer player) wait in a short
    queue and are handled one at a time, in order, in the database threads."""

    push_type = "table"
    counts_pushes = False

    def new_sent(self) -> Sent:
        values = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("v") or [""]
        return Sent(int(values[0]) if values[0].isdigit() else None)

    async def open(self):
        self.worker = None
        self.busy = False  # the worker is handling a message
        self.lock = asyncio.Lock()
        self.inbox: asyncio.Queue = asyncio.Queue(maxsize=max(1, int(self.bucket.burst)))
        self.slot = None  # this socket's place among its person's sockets on the game
        self.keeper = None  # renews the slot while the socket is open
        self.viewer = None
        user = self.scope.get("user")
        game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.game_id = game_id
        access = None
        if user is not None and user.is_authenticated:
            self.viewer = Viewer(user_id=user.pk, game_id=game_id)
            try:
                self.viewer.scope = self.scope
                access = await _db(self.viewer.connect)(user)
            except DatabaseError:  # PostgreSQL restarting: the page tries again after a pause
                log.warning("game socket %s: the database could not be reached on connect", game_id)
                await self.accept()
                await self.close(code=CLOSE_TRY_AGAIN)
                return None
        if access is None or access.game.state is None:
            # Not theirs to see, or a table still gathering players (its page is the lobby).
            await self.close(code=CLOSE_NOT_ALLOWED)
            return None
        self.access = access
        self.slot = await _db(limits.claim_socket)(user_id=user.pk, game_id=game_id,
                                                   channel=self.channel_name)
        if self.slot is None:
            await self.accept()
            await self.finish(CLOSE_TOO_MANY_SOCKETS)
            return None
        self.keeper = asyncio.ensure_future(self._keep_slot())
        return game_group(game_id)

    async def opened(self):
        self.worker = asyncio.ensure_future(self._work())
        try:
            if self.access.coach:  # watching: every hand shown (the access log, privacy/, hears it)
                await _db(table_watched.send)(sender=Game, game_id=self.game_id, user=self.scope["user"],
                                              path=self.scope.get("path", ""))
            await self._first_table()
        except DatabaseError:  # PostgreSQL restarting: the page reconnects after a pause
            log.warning("game socket %s: the database could not be reached on connect", self.game_id)
            await self._failed()

    async def _first_table(self):
        # A bot whose turn it is may have been interrupted (a server restart): wake it. Its
        # moves are idempotent, so a second wake-up from another viewer changes nothing.
        # Before the first table, so that table already shows a move the bot made at once.
        await _db(schedule_bot_moves)(game_id=self.game_id)
        async with self.lock:
            # Read after joining the group: a move made since reaches this socket as a push.
            if self.sent.page_shows(await _db(self.viewer.version)()):
                # The page shows the game as it is: nothing to send, so nothing to render (a
                # bell's worth of pages connecting at once costs one small read each).
                self.sent.version = self.sent.page_version
                return
            await self._send_table(connecting=True)

    async def _keep_slot(self):
        while True:
            await asyncio.sleep(limits.renew_every())
            await _db(limits.renew_socket)(self.slot)

    async def closed(self):
        if getattr(self, "keeper", None) is not None:
            self.keeper.cancel()
        if getattr(self, "slot", None):
            await _db(limits.free_socket)(self.slot, self.channel_name)
        if getattr(self, "worker", None) is not None:
            if self.busy:  # let the move under way finish (nothing after it is handled)
                try:
                    await asyncio.wait_for(asyncio.shield(self.worker), timeout=10)
                except Exception:  # noqa: BLE001 - already logged by the worker, or too slow
                    pass
            self.worker.cancel()

    async def counted(self, text):
        # Counted as they arrive (live/consumer.py), handled in order by the worker (a sync
        # included: it may wake a computer player and read the database).
        try:
            self.inbox.put_nowait(text)
        except asyncio.QueueFull:  # the server is far behind this one socket: same answer
            await self.finish(CLOSE_TOO_MANY)

    async def _work(self):
        """The socket's moves, one at a time, in the order they came."""
        while not self.finished:
            text = await self.inbox.get()
            if self.finished:
                return
            self.busy = True
            try:
                async with self.lock:
                    if self.finished:
                        return
                    reply = await _db(self.viewer.answer)(text)
                    if reply is not None and not self.finished:
                        await self._reply(reply)
            except LostAccess:
                await self.finish(CLOSE_NOT_ALLOWED)
            except Flooding:
                await self.finish(CLOSE_TOO_MANY)
            except Exception:  # noqa: BLE001 - the page reconnects and sends its move again
                log.exception("game socket %s: a message could not be handled", self.game_id)
                await self._failed()
                return
            finally:
                self.busy = False

    async def _reply(self, reply: Reply):
        view = reply.view
        if reply.sync is None:  # a move's answer: its notice even when the words are the same
            # (sent even if a newer table went out: it answers the page's own message)
            await self.send_changes(view.version, view.parts, always=("notice",))
            return
        if reply.sync != view.version:
            self.sent.forget()  # the page missed a table: send all of it
        if self.sent.page_has(view.version):
            self.sent.remember(view.version, as_parts(view.parts))  # the page has this very board
        else:
            await self.push(view.version, view.parts)

    async def game_changed(self, event):
        if self.finished:
            return
        async with self.lock:
            if self.finished or self.sent.newer_than(event.get("version")):
                return
            view = self.viewer.view_in(event)
            if view is not None:  # rendered for this seat already: no database, no thread
                await self.push(view.version, view.parts)
            else:
                await self._send_table()

    async def current(self):
        try:
            view = await _db(self.viewer.table)()
        except LostAccess:
            return None
        return view.version, view.parts

    async def _send_table(self, connecting: bool = False):
        try:
            view = await _db(self.viewer.table)()
        except LostAccess:
            await self.finish(CLOSE_NOT_ALLOWED)
            return
        except DatabaseError:  # PostgreSQL restarting: the page reconnects and gets the table
            log.warning("game socket %s: the table could not be read for a push", self.game_id)
            await self._failed()
            return
        if connecting and self.sent.page_shows(view.version):
            self.sent.remember(view.version, as_parts(view.parts))  # the page has this board
            return
        await self.push(view.version, view.parts)

    async def _failed(self):
        if not self.finished:
            self.finished = True
            await self.close(code=CLOSE_FAILED)

    async def finish(self, code: int):
        """Say why in one sentence, close, and drop whatever was still waiting."""
        if self.finished:
            return
        inbox = getattr(self, "inbox", None)
        while inbox is not None and not inbox.empty():
            inbox.get_nowait()
        # An idle worker stops now; one handling a move finishes it (it was within the
        # budget, or the access check before it already refused it) and then stops.
        if getattr(self, "worker", None) is not None and not self.busy:
            self.worker.cancel()
        await super().finish(code)

    async def goodbye(self, code):
        words = {CLOSE_NOT_ALLOWED: NO_LONGER_IN_CLASS, CLOSE_TOO_MANY: TOO_MANY_MESSAGES,
                 CLOSE_TOO_MANY_SOCKETS: TOO_MANY_WINDOWS}.get(code)
        if words is None:
            return {}
        with translation.override(self.viewer.language if self.viewer else None):
            return {"notice": table_notice(words)}
