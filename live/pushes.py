"""Every kind of push a live page can receive, declared in one place with its shape.

A push is one WebSocket frame: an envelope (live/envelope.py) naming its type, the version
the page shows once it is swapped in, and its parts, followed by the parts themselves, each a
top-level element whose id is the part's (htmx's ws extension swaps each by id,
`hx-swap-oob`). A type declares the parts it may carry (name -> element id) and, for a page
whose parts hold items sent on their own (the dashboard's cells), the pattern of those items'
ids. `envelope()` refuses an undeclared type; tests/live/test_push_schema.py produces every
type through the consumers and checks each frame against its declaration, and that no
player's frame holds another player's hidden cards.

`version`: what the envelope's version counts. "game": the game's version (a table page
sends it back with `{"sync": version}`); "socket": this socket's own count of pushes.
`per_viewer`: rendered for one person (a seat's own view, a child's own box), as opposed to
one render shared by every viewer (the projector).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Push:
    type: str
    parts: dict[str, str]  # part name -> the id of the element it is
    version: str = "socket"  # "game" or "socket" (see the module's doc)
    per_viewer: bool = True
    items: str = ""  # a regular expression every item id matches ("": no items)
    about: str = field(default="", compare=False)


PUSHES: dict[str, Push] = {push.type: push for push in (
    Push("table", {"status": "table-status", "notice": "table-notice", "board": "table-board",
                   "scores": "table-scores", "log": "table-log", "leave": "table-leave"},
         version="game",
         about="A game table, for one seat (or a teacher watching): games/rendering.py PARTS."),
    Push("lobby", {"lobby": "lobby"},
         about="A table still gathering players: who has joined, for one viewer."),
    Push("dashboard", {"connection": "dash-connection", "summary": "dash-summary", "now": "dash-now",
                       "alerts": "dash-alerts", "skills": "dash-skills",
                       "skills_updated": "dash-skills-updated", "operations": "dash-operations",
                       "totals": "dash-totals", "trends": "dash-trends", "games": "dash-games"},
         items=r"dash-[cot]-(\d+|class)-\d+",
         about="A teacher's class dashboard: reports/rendering.py LIVE_PARTS, and single cells."),
    Push("arena-screen", {"live": "arena-screen-live"}, per_viewer=False,
         about="The arena's projector: one render for every projector, in its teacher's language."),
    Push("arena-me", {"live": "arena-me-live"},
         about="A student's own arena box (their status, where their table is)."),
)}
