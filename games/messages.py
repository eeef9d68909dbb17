"""The schema of a WebSocket message from a game page, checked before anything else.

htmx's ws extension sends a form's fields as JSON strings plus a HEADERS object. A move form
carries exactly: `action` (the move as JSON), `expected_version`, `idempotency_key`, and
optionally `answer` (mental math). The page's own script may also ask for the table as it is
now: `{"sync": <the version the page shows>}` (static/js/live.js sends it when it has heard
nothing for a while after a move, or while another player's turn lasts). Anything else, or
anything malformed, is refused with a plain message to that client only, and changes nothing.

Parsing is strict, because the text comes from anyone's browser: NaN and Infinity (which
Python's json accepts), control characters such as NUL, lone surrogates (which cannot be
stored or re-encoded), nesting deeper than a move ever needs, and more than a few kilobytes
are all refused with a notice, never a crash.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from django.utils.translation import gettext_lazy

MAX_MESSAGE_BYTES = 8_192
MAX_DEPTH = 6  # a move form: {action: "{...: [[...]]}"} is at most 4 deep
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
ALLOWED = {"action", "expected_version", "idempotency_key", "answer", "HEADERS"}
REQUIRED = {"action", "expected_version", "idempotency_key"}
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
INT_PATTERN = re.compile(r"^-?\d{1,9}$")


class BadMessage(ValueError):
    """A message that does not follow the schema; `str()` is a plain sentence."""


@dataclass(frozen=True)
class MoveMessage:
    action: object
    expected_version: int
    idempotency_key: str
    answer: int | None


@dataclass(frozen=True)
class SyncRequest:
    """The page asks for the table as it is now (it shows `version`)."""

    version: int


def parse_message(text: str | None) -> MoveMessage | SyncRequest:
    """A move, or a request for the table as it is now."""
    data = _object(text)
    if set(data) - {"HEADERS"} == {"sync"}:
        version = _as_int(data["sync"])
        if version is None or version < 0:
            raise BadMessage(gettext_lazy("That message could not be read."))
        return SyncRequest(version)
    return _move(data)


def parse_move_message(text: str | None) -> MoveMessage:
    return _move(_object(text))


def _object(text: str | None) -> dict:
    if not text or len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        raise BadMessage(gettext_lazy("That message was empty or too long."))
    data = strict_json(text)
    if not isinstance(data, dict):
        raise BadMessage(gettext_lazy("That message could not be read."))
    return data


def _move(data: dict) -> MoveMessage:
    unknown = set(data) - ALLOWED
    missing = REQUIRED - set(data)
    if unknown or missing:
        raise BadMessage(gettext_lazy("That message has parts the game does not know."))
    version = _as_int(data["expected_version"])
    key = data["idempotency_key"]
    if version is None or version < 0 or not isinstance(key, str) or not KEY_PATTERN.match(key):
        raise BadMessage(gettext_lazy("That message could not be read."))
    answer = None
    if data.get("answer") not in (None, ""):
        answer = _as_int(data["answer"])
        if answer is None:
            raise BadMessage(gettext_lazy("Your answer must be a whole number."))
    raw_action = data["action"]
    try:
        action = strict_json(raw_action) if isinstance(raw_action, str) else raw_action
    except BadMessage:
        raise BadMessage(gettext_lazy("That move could not be read.")) from None
    if not isinstance(action, dict):
        raise BadMessage(gettext_lazy("That move could not be read."))
    if answer is not None:
        action = {**action, "answer": answer}
    return MoveMessage(action=action, expected_version=version, idempotency_key=key, answer=answer)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number a move can hold")


def strict_json(text: str):
    """JSON as a browser's JSON.stringify writes it, and nothing more (see the module doc)."""
    if _CONTROL.search(text):
        raise BadMessage(gettext_lazy("That message could not be read."))
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        raise BadMessage(gettext_lazy("That message could not be read.")) from None
    if _depth(data) > MAX_DEPTH or not _clean(data):
        raise BadMessage(gettext_lazy("That message could not be read."))
    return data


def _clean(value) -> bool:
    """No string, key or value holds what an escape like \\u0000 or \\ud800 decodes to
    (PostgreSQL's jsonb refuses both, so such a move could not even be recorded)."""
    if isinstance(value, str):
        return not _CONTROL.search(value)
    if isinstance(value, dict):
        return all(_clean(k) and _clean(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_clean(v) for v in value)
    return True


def _depth(value, limit: int = MAX_DEPTH + 1) -> int:
    """How deeply lists and objects nest (a scalar is 0); stops counting past `limit`."""
    if not isinstance(value, (dict, list)) or limit <= 0:
        return 0
    children = value.values() if isinstance(value, dict) else value
    return 1 + max((_depth(v, limit - 1) for v in children), default=0)


def _as_int(value) -> int | None:
    if type(value) is int:
        return value
    if isinstance(value, str) and INT_PATTERN.match(value.strip()):
        return int(value.strip())
    return None
