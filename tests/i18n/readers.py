"""A signed-in reader of a chosen language, for the language tests of every area."""

from django.test import Client


def speaking(user, language: str) -> Client:
    """A signed-in browser for `user`, who chose `language` (kept on their account)."""
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client
