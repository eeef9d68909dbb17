"""The projector's live part: rendered once per change for every projector of the arena, and
sent only when it differs from what was sent last (`Arena.screen_digest`). Rounds run at most
every ARENA_ROUND_SECONDS, so pushes come at most about once a second or two, and each is small
(a test and the bench measure it: at most 2 KB, in Arabic too). The clock counts down in the
browser from the end time the fragment carries, so it needs no push each second.

Each projector reads the screen in the language of the teacher who opened it (read once when
its socket connects: arena/consumers/screen.py). The arena is read once per change
(screen_context) and the part is rendered from that in every language the site offers, so a
push costs no query per language or per projector; each socket sends its own language's part.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from arena import realtime
from arena.models import Arena

from . import screen_context

TEMPLATE = "arena/_screen_live.html"


def render(*, arena: Arena) -> str:
    """The live part in the active language (the projector page's first render)."""
    return render_to_string(TEMPLATE, screen_context.for_screen(arena=arena))


def render_languages(*, arena: Arena) -> dict[str, str]:
    """The live part in each offered language, from one read of the arena."""
    context = screen_context.for_screen(arena=arena)
    rendered = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            rendered[code] = render_to_string(TEMPLATE, context)
    return rendered


def push_if_changed(*, arena_id: int) -> bool:
    """Render the projector's part and send it if it changed (True if sent)."""
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return False
    parts = render_languages(arena=arena)
    digest = hashlib.sha256("".join(parts[code] for code in sorted(parts)).encode()).hexdigest()
    # Compare-and-set: of two processes rendering the same change, one sends it.
    updated = Arena.objects.filter(pk=arena_id).exclude(screen_digest=digest).update(screen_digest=digest)
    if not updated:
        return False

    def forget() -> None:
        """Not sent (Redis away): the next change, even to this same screen, sends again."""
        Arena.objects.filter(pk=arena_id, screen_digest=digest).update(screen_digest="")

    return realtime.push_screen(arena_id=arena_id, parts=parts, on_failure=forget)
