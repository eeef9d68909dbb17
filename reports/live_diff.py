"""Send a live page only what changed since the last push.

The dashboard's live fragment (templates/reports/_dashboard_live.html) is made of named parts
(its partials, rendered by name: reports/rendering.py), each a top-level element with its own
id and `hx-swap-oob`. A part may hold items (the skill table's cells, `<td id=... hx-swap-oob>`,
written by the `live_item` tag, which also records each one by its id while a push renders).
A push sends the parts whose HTML changed; of a part whose only changes are in some of its
items, only those items. A 30-student class's skill table is ~100 kB, one cell ~300 bytes: a
finished game changes a few.

Items go in a frame of their own: htmx parses a message in a <template>, where `<td>`
elements parse as cells only when nothing but cells comes before them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class LivePart:
    """One named part as rendered for a push, with the items the `live_item` tag recorded
    in it (item id -> its HTML, in page order)."""

    html: str
    items: dict[str, str] = field(default_factory=dict)

    def shell(self) -> str:
        """The part with each item replaced by its id: when only items changed, the shell is
        the same. The items are found in page order, each after the one before."""
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


class LiveDiff:
    """What one socket was last sent; `frames(parts)` gives the frames to send now."""

    def __init__(self):
        self.sent: dict[str, tuple[str, dict[str, str]]] = {}

    def frames(self, parts: dict[str, LivePart]) -> list[str]:
        """`parts`: the fragment's parts by name, in page order."""
        whole: list[str] = []
        items: list[str] = []
        for name, part in parts.items():
            if not part.html:
                continue
            shell = part.shell()
            before = self.sent.get(name)
            if before is None or before[0] != shell:
                whole.append(part.html)
            else:
                items.extend(item for key, item in part.items.items() if before[1].get(key) != item)
            self.sent[name] = (shell, part.items)
        return [frame for frame in ("".join(whole), "".join(items)) if frame]
