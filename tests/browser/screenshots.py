"""Screenshots of the pages the browser tests review, taken when somebody will look at them.

With SCREENSHOT_DIR set, every page a test reviews is saved there (`<name>.png`), so a person
can look through all of them at every width. Without it (as in `make test` and CI), a page is
saved only when its review found a problem, in `numberdeck-screenshots` in the system's
temporary folder, and the failure names the file. A full-page screenshot is the costliest step
of reviewing a page (Chromium paints and encodes the whole page as PNG), and nothing a test
asserts reads it.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path


def screenshot_folder(*, wanted: bool) -> Path | None:
    """Where a screenshot goes: SCREENSHOT_DIR for every page, else the temporary folder for a
    page with problems (`wanted`), else nowhere."""
    if os.environ.get("SCREENSHOT_DIR"):
        folder = Path(os.environ["SCREENSHOT_DIR"])
    elif wanted:
        folder = Path(tempfile.gettempdir()) / "numberdeck-screenshots"
    else:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def keep_screenshot(page, name: str, *, problems=(), full_page: bool = True) -> Path | None:
    """Save what `page` shows as `<name>.png` when SCREENSHOT_DIR is set or the page has
    `problems`; returns the file, or None when nobody will look."""
    folder = screenshot_folder(wanted=bool(problems))
    if folder is None:
        return None
    path = folder / (re.sub(r"[^\w.-]+", "-", name).strip("-") + ".png")
    page.screenshot(path=str(path), full_page=full_page)
    return path


def naming(path: Path | None) -> str:
    """`(screenshot: …)` for a failure message, or nothing when no screenshot was kept."""
    return f" (screenshot: {path})" if path else ""
