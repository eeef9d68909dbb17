"""What the morning bench reads in the pages and pushes, as a browser sees them: the socket a
page opens, a push's named parts, the move forms a table offers, the dashboard's "Finished
today". Nothing else here (no sockets), so tests/bench/ checks these readers against the real
pages in a Django test process.
"""

from __future__ import annotations

import re

from morning_http import forms, unescape

from live.pushes import PUSHES

WS_CONNECT = re.compile(r'ws-connect="([^"]+)"')
NOTICE = re.compile(r'<p class="alert alert-error">')
RESULTS = re.compile(r'<section class="results"')
DATA_GO = re.compile(r'data-go="([^"]+)"(?: data-go-after="(\d+)")?')
ARENA_CODE = re.compile(r'control-code-value">((?:<span>.</span>)+)')
TODAY = re.compile(r'id="today-heading".*?<p class="small">(.*?)</p>', re.S)


def socket_path(page: str) -> str | None:
    found = WS_CONNECT.search(page)
    return unescape(found.group(1)) if found else None


def split_parts(push_type: str, text: str) -> dict[str, str]:
    """The named parts found in `text` (a frame's body or a whole page): each from its
    element's start to the next part's (live/pushes.py names their ids)."""
    starts = []
    for name, element_id in PUSHES[push_type].parts.items():
        at = text.find(f' id="{element_id}"')
        if at >= 0:
            starts.append((text.rfind("<", 0, at), name))
    starts.sort()
    return {name: text[start:(starts[i + 1][0] if i + 1 < len(starts) else len(text))]
            for i, (start, name) in enumerate(starts)}


def whole_moves(board: str, version: int) -> list[dict]:
    """The whole moves the board offers at the version it shows (none: not my turn)."""
    found = []
    for form in forms(board):
        if "ws-send" not in form.attrs or form.value("action") is None:
            continue
        if form.value("expected_version") != str(version):
            continue
        found.append({"fields": dict(form.fields()),
                      "button": next((i.get("id", "") for i in form.inputs if i["tag"] == "button"), "")})
    return found
