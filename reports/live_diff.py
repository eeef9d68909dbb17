"""Send a live page only what changed since the last push.

The dashboard's live fragment (templates/reports/_dashboard_live.html) is made of named parts
(its partials, rendered by name: reports/rendering.py), each a top-level element with its own
id and `hx-swap-oob`. A part may
hold items (the skill table's cells, `<td id=... hx-swap-oob>`, marked by the `live_item`
tag between <!--item--> and <!--/item-->). A push sends the parts whose HTML changed; of a
part whose only changes are in some of its items, only those items. A 30-student class's
skill table is ~100 kB, one cell ~300 bytes: a finished game changes a few.

Items go in a frame of their own: htmx parses a message in a <template>, where `<td>`
elements parse as cells only when nothing but cells comes before them.
"""

from __future__ import annotations

import re

ROW = re.compile(r"<!--item-->(.*?)<!--/item-->", re.S)
ROW_ID = re.compile(r'\bid="([^"]+)"')


def _shell_and_rows(part: str) -> tuple[str, dict[str, str]]:
    """The part with each row replaced by a placeholder naming it, and the rows by id."""
    rows: dict[str, str] = {}

    def keep(match: re.Match) -> str:
        row = match.group(1)
        found = ROW_ID.search(row)
        key = found.group(1) if found else f"row-{len(rows)}"
        rows[key] = row.strip()
        return f"<!--row:{key}-->"

    return ROW.sub(keep, part), rows


class LiveDiff:
    """What one socket was last sent; `frames(html)` gives the frames to send now."""

    def __init__(self):
        self.sent: dict[str, tuple[str, dict[str, str]]] = {}

    def frames(self, parts: dict[str, str]) -> list[str]:
        """`parts`: the fragment's parts by name, in page order."""
        whole: list[str] = []
        rows: list[str] = []
        for name, part in parts.items():
            if not part:
                continue
            shell, part_rows = _shell_and_rows(part)
            before = self.sent.get(name)
            if before is None or before[0] != shell:
                whole.append(ROW.sub(lambda m: m.group(1), part))
            else:
                rows.extend(row for key, row in part_rows.items() if before[1].get(key) != row)
            self.sent[name] = (shell, part_rows)
        return [frame for frame in ("".join(whole), "".join(rows)) if frame]
