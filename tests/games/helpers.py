from django.test import Client


def signed_in(user) -> Client:
    """A client of its own, signed in as `user`: a test may act as several people at once."""
    client = Client()
    client.force_login(user)
    return client
