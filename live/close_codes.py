"""The close codes of every live socket, written once: the consumers close with them, and the
page reads the same table (rendered into every live page by `{% live_close_codes "game" %}`,
live/templatetags/live_protocol.py) to know what to do and what to say.

A server may only send 1000 or a code from 3000-4999 (Daphne's autobahn refuses 1011 and 1013
with "invalid close code", and the socket is then dropped without any code), so "try again"
has codes of its own. What the page does (`then`):
- "reconnect": the page opens its socket again after a growing, random pause, and sends its
  unanswered move again (static/js/live.js);
- "retried": a dropped connection the ws extension itself reconnects;
- "stop": the page says why in plain words and stays closed.
Any code not in the table (a proxy or server closing politely) reloads the page after a
moment: the server sends the whole state on every connect.

Each row's words are what the page's connection line says; a page may have words of its own
(`says`: page kind -> words, "game" being every player's page). A page is sent only its own
kind's words.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

_NOT_OPEN = gettext_lazy("This game is not open to you.")
_NOT_A_TEACHER = gettext_lazy("Live updates stopped: you are no longer a teacher of this class.")
_RECONNECTING = gettext_lazy("Reconnecting… your game is saved.")
_PAUSED = gettext_lazy("Live updates paused: reconnecting… The numbers may be out of date.")
_STOPPED = {"game": _NOT_OPEN, "dashboard": _NOT_A_TEACHER}
_AGAIN = {"game": _RECONNECTING, "dashboard": _PAUSED}


@dataclass(frozen=True)
class CloseCode:
    code: int
    name: str
    then: str  # "reconnect", "retried" or "stop" (see the module's doc)
    says: dict = field(default_factory=dict)

    def as_json(self, page: str) -> dict:
        words = self.says.get(page) or self.says.get("game") or ""
        return {"code": self.code, "name": self.name, "then": self.then, "says": str(words)}


CODES = (
    CloseCode(4401, "signed_out", "stop", _STOPPED),  # the session ended (live/signed_out.py)
    CloseCode(4403, "not_allowed", "stop", _STOPPED),  # not (or no longer) allowed here
    CloseCode(4404, "not_found", "stop", _STOPPED),  # no such socket (an unknown path)
    CloseCode(4409, "too_many_sockets", "stop",  # open in too many windows of one person
              {"game": gettext_lazy("Open in too many windows: close one, then reload this page.")}),
    CloseCode(4429, "too_many_messages", "stop",
              {"game": gettext_lazy("Too many messages at once: reload the page to carry on.")}),
    # Could not handle a message, or the channel layer or the database could not be had
    # (Redis away, PostgreSQL restarting, every database connection busy: config/unavailable.py).
    CloseCode(4011, "failed", "reconnect", _AGAIN),
    CloseCode(4013, "try_again", "reconnect", _AGAIN),
    # A dropped connection (no close frame) and the standard "try again" codes of a proxy:
    # the ws extension reconnects by itself.
    CloseCode(1006, "dropped", "retried", _AGAIN),
    CloseCode(1011, "server_error", "retried", _AGAIN),
    CloseCode(1012, "restarting", "retried", _AGAIN),
    CloseCode(1013, "later", "retried", _AGAIN),
)
_BY_NAME = {row.name: row.code for row in CODES}

CLOSE_SIGNED_OUT = _BY_NAME["signed_out"]
CLOSE_NOT_ALLOWED = _BY_NAME["not_allowed"]
CLOSE_NOT_FOUND = _BY_NAME["not_found"]
CLOSE_TOO_MANY_SOCKETS = _BY_NAME["too_many_sockets"]
CLOSE_TOO_MANY = _BY_NAME["too_many_messages"]
CLOSE_FAILED = _BY_NAME["failed"]
CLOSE_TRY_AGAIN = _BY_NAME["try_again"]


PAGES = ("game", "dashboard")  # the kinds of page with words of their own


def table(page: str) -> list[dict]:
    """The table as a page of kind `page` reads it: its own words, in the active language."""
    if page not in PAGES:
        raise ValueError(f"No page kind {page!r}: one of {PAGES}")
    return [row.as_json(page) for row in CODES]
