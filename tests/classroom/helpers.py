import html

from django.utils.html import strip_tags


def page_text(response) -> str:
    """A page as a reader sees it: no tags, entities decoded, whitespace runs as one space."""
    return " ".join(html.unescape(strip_tags(response.content.decode())).split())
