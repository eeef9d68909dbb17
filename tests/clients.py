"""Signing in from a test: the sign-in pages have their own tests, so every other test starts
already signed in, each person with a client (or a browser's cookie) of their own."""

from django.conf import settings
from django.test import Client


def signed_in(user=None) -> Client:
    """A client of its own, signed in as `user` (None: a visitor): a test may act as several
    people at once."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def session_cookie(user, base: str) -> dict:
    """The cookie that signs a browser in as `user` on the live server at `base`."""
    return {"name": settings.SESSION_COOKIE_NAME, "url": base,
            "value": signed_in(user).cookies[settings.SESSION_COOKIE_NAME].value}
