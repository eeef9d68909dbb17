"""Closing a user's open sockets when their sessions end (a password reset, new pictures for a
child, "Sign out everywhere": accounts/services.py `user_end_sessions`).

A socket checks its session once, when it connects; one left open would go on receiving
every hand after its session was ended. So every socket of a signed-in user also joins that
user's group, and `sessions_ended` sends the group a message that closes each of them with
4401 (the page says the game is not open to it) unless it belongs to the session that was
kept. From then on the socket sends nothing and reads nothing; a reconnect is refused, since
its session no longer checks out.

Every consumer of the site takes `ClosesWhenSignedOut` first among its bases.
"""

from __future__ import annotations

import logging

from accounts.signals import sessions_ended

from .close_codes import CLOSE_SIGNED_OUT
from .dispatch import DispatchWithoutSweep
from .groups import send_to_group

log = logging.getLogger(__name__)

def user_group(user_id: int) -> str:
    return f"user.{int(user_id)}"


class ClosesWhenSignedOut(DispatchWithoutSweep):
    """A mixin for AsyncWebsocketConsumer (listed before it). Its messages are dispatched
    without Channels' per-message connection sweep (live/dispatch.py)."""

    signed_out = False
    _user_group: str | None = None
    _session_key = ""

    async def websocket_connect(self, message):
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            session = self.scope.get("session")
            self._session_key = (session.session_key if session is not None else None) or ""
            group = user_group(user.pk)
            try:
                # Joined before the consumer's own connect, so no ending is missed between
                # its access check and its first push.
                await self.channel_layer.group_add(group, self.channel_name)
                self._user_group = group
            except Exception:  # noqa: BLE001 - the consumer's own join reports an unreachable layer
                log.info("Could not join %s (the channel layer is unreachable)", group)
        await super().websocket_connect(message)

    async def websocket_receive(self, message):
        if not self.signed_out:
            await super().websocket_receive(message)

    async def websocket_disconnect(self, message):
        if self._user_group:
            try:
                await self.channel_layer.group_discard(self._user_group, self.channel_name)
            except Exception:  # noqa: BLE001 - the entry expires in the layer by itself
                log.info("Could not leave %s (the channel layer is unreachable)", self._user_group)
        await super().websocket_disconnect(message)

    async def sessions_ended(self, event):
        if self.signed_out or (self._session_key and event.get("keep") == self._session_key):
            return
        self.signed_out = True
        await self.close(code=CLOSE_SIGNED_OUT)

    async def send(self, *args, **kwargs):
        # Nothing more after the close: a push already on its way is dropped, not sent.
        if not self.signed_out:
            await super().send(*args, **kwargs)


def close_sockets_of(sender, *, user_id: int, keep_session_key: str = "", **kwargs) -> None:
    """`accounts.signals.sessions_ended`'s receiver (connected in live/apps.py)."""
    send_to_group(user_group(user_id), {"type": "sessions.ended", "keep": keep_session_key})


def connect() -> None:
    sessions_ended.connect(close_sockets_of, dispatch_uid="live.close_sockets_of")
