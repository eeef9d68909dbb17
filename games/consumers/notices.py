"""The words a game's socket says before it closes, as the out-of-band parts htmx swaps in."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.translation import gettext_lazy

NO_LONGER_IN_CLASS = gettext_lazy("You are no longer in this class, so this table has closed.")
TOO_MANY_MESSAGES = gettext_lazy("Too many messages at once: reload the page to carry on.")
TOO_MANY_WINDOWS = gettext_lazy("This game is already open in other windows or tabs. "
                                "Close one of them, then reload this page.")


def table_notice(text: str) -> str:
    """A game table's notice line on its own (the rest of the page stays as it was)."""
    return format_html('<div id="table-notice" class="table-notice" role="alert" hx-swap-oob="true">'
                       '<p class="alert alert-error">{}</p></div>', text)


def lobby_notice(text: str) -> str:
    """A lobby replaced by one plain sentence."""
    return format_html('<div id="lobby" class="lobby" hx-swap-oob="true"><div class="card notice" '
                       'role="alert"><p><strong>{}</strong></p></div></div>', text)
