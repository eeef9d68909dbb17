"""Platforms registered by a school's administrator, and Numberdeck's own signing keys."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from lti_tool.models import Key, LtiDeployment, LtiRegistration

from accounts.models import User

from .dynamic import Registered
from .models import RegistrationLink
from .selectors import hash_link_token, lti_registration_links_usable

REGISTRATION_LINK_LIFETIME = timedelta(days=1)


def lti_tool_key_ensure() -> Key:
    """The key Numberdeck signs with (django-lti signs with the newest active one), made if
    there is none yet."""
    key = Key.objects.active().order_by("-datetime_created", "-pk").first()
    return key or Key.objects.generate()


@transaction.atomic
def lti_tool_key_rotate(*, keep_days: int, new_key: bool = True) -> tuple[Key | None, int]:
    """A new key signs from now on; each older key stays in the published key set until
    `keep_days` after the key that replaced it was made, so a platform holding a message or a
    cached key set from before the rotation can still check it. Returns the new key (None when
    `new_key` is False: only the overlap is enforced) and how many keys left the key set."""
    made = Key.objects.generate() if new_key else None
    cutoff = timezone.now() - timedelta(days=keep_days)
    keys = list(Key.objects.active().select_for_update().order_by("datetime_created", "pk"))
    retired = [older.pk for older, newer in zip(keys, keys[1:]) if newer.datetime_created <= cutoff]
    Key.objects.filter(pk__in=retired).update(is_active=False, datetime_modified=timezone.now())
    return made, len(retired)


@transaction.atomic
def lti_platform_register(*, name: str, issuer: str, client_id: str, deployment_ids: list[str],
                          keyset_url: str, auth_url: str, token_url: str) -> LtiRegistration:
    registration = LtiRegistration.objects.create(
        name=name.strip(), issuer=issuer.strip(), client_id=client_id.strip(), keyset_url=keyset_url.strip(),
        auth_url=auth_url.strip(), token_url=token_url.strip(), is_active=True)
    for deployment_id in dict.fromkeys(d.strip() for d in deployment_ids if d.strip()):
        LtiDeployment.objects.create(registration=registration, deployment_id=deployment_id, is_active=True)
    lti_tool_key_ensure()
    return registration


def lti_registration_link_create(*, administrator: User) -> str:
    """A new one-time registration link's token (shown once; only its hash is kept)."""
    token = secrets.token_urlsafe(32)
    RegistrationLink.objects.create(token_hash=hash_link_token(token), created_by=administrator,
                                    expires_at=timezone.now() + REGISTRATION_LINK_LIFETIME)
    return token


class LinkUnusable(Exception):
    pass


@transaction.atomic
def lti_platform_register_dynamic(*, token: str, registered: Registered) -> LtiRegistration:
    """Record what a platform answered to Numberdeck's dynamic registration, using up the link.
    LinkUnusable if the link was used meanwhile (or has expired)."""
    link = lti_registration_links_usable(token=token).select_for_update().first()
    if link is None:
        raise LinkUnusable
    registration = lti_platform_register(
        name=registered.name, issuer=registered.issuer, client_id=registered.client_id,
        deployment_ids=[registered.deployment_id] if registered.deployment_id else [],
        keyset_url=registered.keyset_url, auth_url=registered.auth_url, token_url=registered.token_url)
    link.used_at = timezone.now()
    link.registration = registration
    link.save(update_fields=["used_at", "registration"])
    return registration
