"""The projector's live part: rendered once per change for every projector of the arena, and
sent only when it differs from what was sent last (`Arena.screen_digest`). Rounds run at most
every ARENA_ROUND_SECONDS, so pushes come at most about once a second or two, and each is small
(a test and the bench measure it: at most 2 KB). The clock counts down in the browser from the
end time the fragment carries, so it needs no push each second.
"""

from __future__ import annotations

import hashlib

from django.template.loader import render_to_string

from arena import realtime
from arena.models import Arena

from . import screen_context


def render(*, arena: Arena) -> str:
    return render_to_string("arena/_screen_live.html", screen_context.for_screen(arena=arena))


def push_if_changed(*, arena_id: int) -> bool:
    """Render the projector's part and send it if it changed (True if sent)."""
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return False
    html = render(arena=arena)
    digest = hashlib.sha256(html.encode()).hexdigest()
    # Compare-and-set: of two processes rendering the same change, one sends it.
    updated = Arena.objects.filter(pk=arena_id).exclude(screen_digest=digest).update(screen_digest=digest)
    if not updated:
        return False
    return realtime.push_screen(arena_id=arena_id, html=html)
