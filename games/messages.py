"""The schema of a WebSocket message from a game page, checked before anything else.

htmx's ws extension sends a form's fields as JSON strings plus a HEADERS object. A move form
carries exactly: `action` (the move as JSON), `expected_version`, `idempotency_key`, and
optionally `answer` (mental math). Anything else, or anything malformed, is refused with a
plain message to that client only, and changes nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

MAX_MESSAGE_BYTES = 8_192
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


def parse_move_message(text: str | None) -> MoveMessage:
    if not text or len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
        raise BadMessage("That message was empty or too long.")
    try:
        data = json.loads(text)
    except ValueError:
        raise BadMessage("That message could not be read.") from None
    if not isinstance(data, dict):
        raise BadMessage("That message could not be read.")
    unknown = set(data) - ALLOWED
    missing = REQUIRED - set(data)
    if unknown or missing:
        raise BadMessage("That message has parts the game does not know.")
    version = _as_int(data["expected_version"])
    key = data["idempotency_key"]
    if version is None or version < 0 or not isinstance(key, str) or not KEY_PATTERN.match(key):
        raise BadMessage("That message could not be read.")
    answer = None
    if data.get("answer") not in (None, ""):
        answer = _as_int(data["answer"])
        if answer is None:
            raise BadMessage("Your answer must be a whole number.")
    raw_action = data["action"]
    try:
        action = json.loads(raw_action) if isinstance(raw_action, str) else raw_action
    except ValueError:
        raise BadMessage("That move could not be read.") from None
    if not isinstance(action, dict):
        raise BadMessage("That move could not be read.")
    if answer is not None:
        action = {**action, "answer": answer}
    return MoveMessage(action=action, expected_version=version, idempotency_key=key, answer=answer)


def _as_int(value) -> int | None:
    if type(value) is int:
        return value
    if isinstance(value, str) and INT_PATTERN.match(value.strip()):
        return int(value.strip())
    return None
