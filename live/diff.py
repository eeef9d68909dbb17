"""Send a live page only what changed since the last push (every live page: the game table,
its lobby, the dashboard, the arena's pages).

A page's live fragment is made of named parts (partials rendered by name: live/partials.py),
each a top-level element with its own id and `hx-swap-oob`. A part may hold items (the
dashboard's skill-table cells, `<td id=... hx-swap-oob>`, written by reports' `live_item` tag,
which records each one by its id while a push renders). A push sends the parts whose HTML
changed; of a part whose only changes are in some of its items, only those items. A
30-student class's skill table is ~100 kB, one cell ~300 bytes: a finished game changes a few.

Items go in a frame of their own: htmx parses a message in a <template>, where `<td>`
elements parse as cells only when nothing but cells comes before them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class LivePart:
    """One named part as rendered for a push, with the items recorded in it (item id -> its
    HTML, in page order)."""

    html: str
    items: dict[str, str] = field(default_factory=dict)

    def shell(self) -> str:
        """The part with each item replaced by its id: when only items changed, the shell is
        the same. The items are found in page order, each after the one before."""
        if not self.items:
            return self.html
        pieces: list[str] = []
        at = 0
        for key, item in self.items.items():
            start = self.html.find(item, at)
            if start < 0:  # not where the tag put it: compare the whole part instead
                return self.html
            pieces += [self.html[at:start], f"<!--{key}-->"]
            at = start + len(item)
        pieces.append(self.html[at:])
        return "".join(pieces)


@dataclass(frozen=True)
class Changes:
    """What a push sends: whole parts (name -> HTML, in page order), and single items of
    parts whose shell did not change (item id -> HTML)."""

    parts: dict[str, str] = field(default_factory=dict)
    items: dict[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.parts or self.items)


def as_parts(parts: dict[str, str | LivePart]) -> dict[str, LivePart]:
    return {name: part if isinstance(part, LivePart) else LivePart(part) for name, part in parts.items()}


class Sent:
    """What one socket last sent: the version its parts show and each part (its shell and
    items), so the next push sends only what differs.

    The version is what the page says it shows when it asks to resync: the game's version for
    a table (`page_version`: the one the page was loaded at, `?v=`), else this socket's own
    count of pushes (`count=True`)."""

    def __init__(self, page_version: int | None = None, *, count: bool = False):
        self.page_version = page_version
        self.count = count
        self.version: int | None = 0 if count else None
        self.sent: dict[str, tuple[str, dict[str, str]]] = {}

    def page_shows(self, version: int) -> bool:
        """On connect: the page already shows this version (it was rendered at it), so
        sending the same parts again would only wipe what the child has started to choose."""
        return self.version is None and not self.sent and self.page_version == version

    def page_has(self, version: int | None) -> bool:
        """The page was loaded at this version and nothing was sent since: it shows it."""
        return not self.sent and version is not None and self.version == version

    def newer_than(self, version: int | None) -> bool:
        """This socket already sent something newer than `version` (renders in threads can
        finish out of order). The same version may still bring changes."""
        return (not self.count and version is not None and self.version is not None
                and version < self.version)

    def stale(self, version) -> bool:
        """A page that says it shows `version` lacks something this socket sent."""
        return version != self.version

    def forget(self) -> None:
        """The page does not show what this socket sent: the next push is sent whole."""
        self.sent = {}
        if not self.count:
            self.version = None

    def remember(self, version: int | None, parts: dict[str, LivePart]) -> None:
        for name, part in parts.items():
            self.sent[name] = (part.shell(), dict(part.items))
        if not self.count:
            self.version = version

    def changes(self, version: int | None, parts: dict[str, LivePart],
                always: tuple[str, ...] = ()) -> Changes:
        """The parts (and items) that changed since the last push, plus the parts in
        `always`, and remember them. `parts` in page order."""
        whole: dict[str, str] = {}
        items: dict[str, str] = {}
        for name, part in parts.items():
            if not part.html:
                continue
            shell = part.shell()
            before = self.sent.get(name)
            if name in always or before is None or before[0] != shell:
                whole[name] = part.html
            else:
                items.update((key, item) for key, item in part.items.items() if before[1].get(key) != item)
            self.sent[name] = (shell, dict(part.items))
        if not self.count:
            self.version = version
        changes = Changes(whole, items)
        if changes and self.count:
            self.version += 1
        return changes
