"""The push envelope: one WebSocket frame is `<template data-live=TYPE data-version=N
data-parts="NAME ...">` followed by the parts' HTML.

The envelope is HTML so the frame stays what htmx's ws extension swaps (each part by its id);
static/js/live.js takes the envelope off before the swap and keeps the version, which the page
sends back when it asks to resync (`{"sync": version}`). Types and their parts are declared in
live/pushes.py.
"""

from __future__ import annotations

import re

from django.utils.html import escape

from .pushes import PUSHES

HEADER = re.compile(r'^<template data-live="([^"]*)" data-version="([^"]*)" data-parts="([^"]*)"></template>')


def envelope(*, type: str, version: int | None, parts: dict[str, str]) -> str:
    """The frame carrying `parts` (name -> HTML, in page order; an item's name is its id)."""
    if type not in PUSHES:
        raise ValueError(f"Undeclared push type {type!r}: declare it in live/pushes.py")
    header = (f'<template data-live="{escape(type)}" data-version="{"" if version is None else int(version)}" '
              f'data-parts="{escape(" ".join(parts))}"></template>')
    return header + "".join(parts.values())


def read(frame: str) -> tuple[str, int | None, list[str], str]:
    """A frame's type, version, part names and the HTML after the envelope (ValueError when
    it has no envelope)."""
    found = HEADER.match(frame)
    if found is None:
        raise ValueError("A frame without an envelope")
    version = int(found.group(2)) if found.group(2) else None
    return found.group(1), version, found.group(3).split(), frame[found.end():]
