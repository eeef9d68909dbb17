"""Keys: the platform's (fetched from its key set URL, kept an hour, fetched again once for a
key id not seen before) and Numberdeck's own (published at /lti/jwks.json, rotated with an
overlap)."""

from datetime import timedelta

import jwt
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from jwcrypto.jwk import JWK
from lti_tool.models import Key, LtiRegistration

from accounts.models import User

from .platform import INSTRUCTOR, LEARNER, course, launch


def test_the_platforms_key_set_is_fetched_once_and_kept(platform, visitor):
    launch(visitor, platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    launch(Client(), platform, sub="student-1", roles=[LEARNER], context=course())
    assert platform.key_set_fetches == 1


def test_a_platform_that_rotated_its_key_is_fetched_again_once(platform, visitor):
    assert launch(visitor, platform, sub="teacher-1", roles=[INSTRUCTOR], context=course()).status_code == 302
    assert platform.key_set_fetches == 1

    platform.rotate()  # a new key id, the old key gone (Brightspace rotates hourly)
    response = launch(Client(), platform, sub="student-1", roles=[LEARNER], context=course())

    assert response.status_code == 302 and response["Location"] == "/play/"
    assert platform.key_set_fetches == 2
    launch(Client(), platform, sub="student-2", roles=[LEARNER], context=course())
    assert platform.key_set_fetches == 2  # the new key set is kept


def test_a_key_id_the_platform_does_not_publish_is_refused_after_one_fetch(platform, visitor):
    launch(visitor, platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    users = User.objects.count()

    response = launch(Client(), platform, sub="student-1", roles=[LEARNER], context=course(),
                      sign=lambda claims: platform.sign(claims, kid="no-such-key"))

    assert response.status_code == 400
    assert platform.key_set_fetches == 2 and User.objects.count() == users
    # Made-up key ids cannot make Numberdeck fetch the key set on every message.
    launch(Client(), platform, sub="student-1", roles=[LEARNER], context=course(),
           sign=lambda claims: platform.sign(claims, kid="another-made-up-key"))
    assert platform.key_set_fetches == 2


def published_kids(client) -> list[str]:
    response = client.get("/lti/jwks.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    keys = response.json()["keys"]
    assert all(set(key) >= {"kty", "n", "e", "kid", "alg", "use"} and "d" not in key for key in keys)
    return [key["kid"] for key in keys]


def signing_kid() -> str:
    """The key id of the key django-lti signs Numberdeck's messages with."""
    registration = LtiRegistration.objects.get().to_registration()
    token = jwt.encode({"iss": "numberdeck"}, registration.get_tool_private_key(), algorithm="RS256")
    public = JWK.from_pem(registration.get_tool_public_key().encode())
    jwt.decode(token, public.export_to_pem(), algorithms=["RS256"], options={"verify_aud": False})
    return public.thumbprint()


def test_rotation_signs_with_the_new_key_and_keeps_the_old_one_published_for_the_overlap(platform, visitor):
    first = published_kids(visitor)
    assert len(first) == 1 and signing_kid() == first[0]

    call_command("lti_rotate_keys", "--keep-days", "7")
    kids = published_kids(visitor)
    assert len(kids) == 2 and first[0] in kids
    new = next(kid for kid in kids if kid != first[0])
    assert signing_kid() == new

    # The old key stays published until seven days after the new one was made.
    old_key, new_key = Key.objects.order_by("datetime_created", "pk")
    Key.objects.filter(pk=old_key.pk).update(datetime_created=timezone.now() - timedelta(days=30))
    Key.objects.filter(pk=new_key.pk).update(datetime_created=timezone.now() - timedelta(days=6))
    call_command("lti_rotate_keys", "--keep-days", "7", "--retire-only")
    assert sorted(published_kids(visitor)) == sorted(kids)
    Key.objects.filter(pk=new_key.pk).update(datetime_created=timezone.now() - timedelta(days=8))
    call_command("lti_rotate_keys", "--keep-days", "7", "--retire-only")
    assert published_kids(visitor) == [new] and signing_kid() == new
