"""The LTI 1.3 protocol itself, done by pylti1p3 and django-lti (docs/lti.md): the OIDC login
initiation, and the validation of the platform's id token (signature against the platform's
key set, issuer, audience, deployment, expiry, nonce, state, message type).

What is ours is narrow and says why:
- an unknown or switched-off deployment is refused (django-lti would record it);
- a nonce works once (pylti1p3 checks that we issued it but never forgets it, so a replayed
  id token would be taken again);
- the platform's key set is kept for an hour, and a key id (`kid`) not in it fetches the key
  set again, once, before the launch is refused: platforms rotate their keys;
- `exp` and `iat` are required, and every request to a platform has a time limit.
"""

from __future__ import annotations

import hashlib

import requests
from django.core.cache import cache
from lti_tool.models import Key, LtiDeployment, LtiLaunch, LtiRegistration
from lti_tool.utils import DjangoToolConfig
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch, DjangoOIDCLogin
from pylti1p3.contrib.django.session import DjangoSessionService
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException, OIDCException

KEY_SET_SECONDS = 60 * 60  # how long a platform's key set is kept before it is fetched again
KEY_SET_REFETCH_GAP_SECONDS = 10  # made-up key ids cannot make us fetch a key set more often
PLATFORM_TIMEOUT_SECONDS = 10


class LaunchInvalid(Exception):
    """The platform's message cannot be taken. `reason` is the library's (for the log)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class TimedSession(requests.Session):
    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", PLATFORM_TIMEOUT_SECONDS)
        return super().request(*args, **kwargs)


class ToolConfig(DjangoToolConfig):
    """django-lti's registrations and deployments, except that a deployment must have been
    registered (and be switched on): an unknown one is refused, not recorded."""

    def find_registration_by_params(self, iss, client_id, *args, **kwargs):
        if client_id is None:
            # Some platforms leave client_id out of the login initiation: the issuer's only
            # registration, when it has exactly one.
            found = list(LtiRegistration.objects.active().filter(issuer=iss)[:2])
            if len(found) != 1:
                return None
            self.registration = found[0]
            return self.registration.to_registration()
        return super().find_registration_by_params(iss, client_id, *args, **kwargs)

    def find_deployment(self, iss, deployment_id):
        return self.find_deployment_by_params(iss, deployment_id, None)

    def find_deployment_by_params(self, iss, deployment_id, client_id, *args, **kwargs):
        self.deployment = LtiDeployment.objects.active().filter(
            registration=self.registration, deployment_id=deployment_id).first()
        if self.deployment is None:
            return None
        return Deployment().set_deployment_id(self.deployment.deployment_id)


class _OnceSessionService(DjangoSessionService):
    def check_nonce(self, nonce: str) -> bool:
        # Forget the nonce as it is checked: of two requests carrying it, one deletes it.
        storage = self.data_storage
        return bool(storage._get_cache().delete(storage._prepare_key(self._get_key("nonce", nonce))))


def _key_set_cache_key(url: str) -> str:
    return "lti:key-set:" + hashlib.sha256(url.encode()).hexdigest()


def _key_ids(key_set) -> set[str]:
    keys = key_set.get("keys") if isinstance(key_set, dict) else None
    return {key.get("kid") for key in keys if isinstance(key, dict)} if isinstance(keys, list) else set()


class _MessageLaunch(DjangoMessageLaunch):
    def fetch_public_key(self, key_set_url: str, fresh: bool = False):
        cache_key = _key_set_cache_key(key_set_url)
        if not fresh:
            kept = cache.get(cache_key)
            if kept is not None:
                return kept
        key_set = super().fetch_public_key(key_set_url)  # an HTTP GET (no cache of the library's)
        cache.set(cache_key, key_set, KEY_SET_SECONDS)
        return key_set

    def get_public_key(self):
        url = self._registration.get_key_set_url()
        key_set = self.fetch_public_key(url)
        kid = self._jwt.get("header", {}).get("kid")
        if kid and kid not in _key_ids(key_set) and \
                cache.add(_key_set_cache_key(url) + ":refetched", True, KEY_SET_REFETCH_GAP_SECONDS):
            key_set = self.fetch_public_key(url, fresh=True)  # the platform may have a new key
        self._registration.set_key_set(key_set)
        return super().get_public_key()


def launch_validated(request) -> LtiLaunch:
    """The id token POSTed by the platform, checked in full; LaunchInvalid if anything is wrong.
    Nothing is written to the database here (the nonce and launch data live in the cache)."""
    message = _MessageLaunch(request, ToolConfig(), session_service=_OnceSessionService(request),
                             launch_data_storage=DjangoCacheDataStorage(),
                             requests_session=TimedSession())
    message.set_jwt_verify_options({"verify_aud": False, "require": ["exp", "iat"]})
    try:
        message.validate()
    except LtiException as error:
        raise LaunchInvalid(str(error)) from error
    except Key.DoesNotExist as error:
        raise LaunchInvalid("Numberdeck has no key of its own yet (manage.py lti_rotate_keys)") from error
    return LtiLaunch(message)


def login_redirect(request, *, launch_url: str):
    """The OIDC login initiation: a redirect to the platform's authorisation URL, with a state
    cookie and a nonce. No page with scripts (the platforms open launches in a new window)."""
    login = DjangoOIDCLogin(request, ToolConfig(), launch_data_storage=DjangoCacheDataStorage())
    try:
        return login.redirect(launch_url)
    except (LtiException, OIDCException) as error:
        raise LaunchInvalid(str(error)) from error
    except Key.DoesNotExist as error:
        raise LaunchInvalid("Numberdeck has no key of its own yet (manage.py lti_rotate_keys)") from error
