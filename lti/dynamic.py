"""LTI Dynamic Registration 1.0, the tool's side: the platform opens Numberdeck's registration
link with `openid_configuration` (its configuration's URL) and `registration_token`; Numberdeck
reads the configuration and posts its own (an OpenID Connect client registration carrying the
LTI tool configuration), and the platform answers with the client id (and usually the
deployment id). Plain HTTP and JSON, no signing: pylti1p3 2.0.0 has no such step."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

import requests
from django.utils.translation import gettext as _

PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
TIMEOUT_SECONDS = 10
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
REQUIRED = ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint")


class RegistrationFailed(Exception):
    """`reason` is for the log and the administrator (it names what the platform got wrong)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class ToolAddresses:
    login: str
    launch: str
    jwks: str


@dataclass(frozen=True)
class Registered:
    issuer: str
    client_id: str
    deployment_id: str
    auth_url: str
    token_url: str
    keyset_url: str
    name: str


def web_origin(url: str) -> str | None:
    """scheme://host[:port] of an https address (http only on this machine), else None."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return None
    if not host or parts.scheme not in ("https", "http") or (parts.scheme == "http" and host not in LOOPBACK):
        return None
    return f"{parts.scheme}://{parts.netloc}"


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def platform_configuration(*, url: str, registration_token: str) -> dict:
    if web_origin(url) is None:
        raise RegistrationFailed(_("The openid_configuration address is not an https address."))
    try:
        response = requests.get(url, headers=_bearer(registration_token), timeout=TIMEOUT_SECONDS)
        response.raise_for_status()
        config = response.json()
    except (requests.RequestException, ValueError) as error:
        raise RegistrationFailed(_("The platform's configuration could not be read: %(error)s")
                                 % {"error": error}) from error
    if not isinstance(config, dict):
        raise RegistrationFailed(_("The platform's configuration is not a JSON object."))
    for key in REQUIRED:
        if not isinstance(config.get(key), str) or web_origin(config[key]) is None:
            raise RegistrationFailed(_("The platform's configuration has no usable %(key)s.") % {"key": key})
    # The configuration must come from the platform it describes.
    if urlsplit(config["issuer"]).hostname != urlsplit(url).hostname:
        raise RegistrationFailed(_("The platform's issuer is not on the host its configuration came from."))
    return config


def tool_configuration(*, tool: ToolAddresses) -> dict:
    launch_host = urlsplit(tool.launch).netloc
    return {
        "application_type": "web",
        "response_types": ["id_token"],
        "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": tool.login,
        "redirect_uris": [tool.launch],
        "client_name": "Numberdeck",
        "jwks_uri": tool.jwks,
        "token_endpoint_auth_method": "private_key_jwt",
        "scope": "",  # no LTI Advantage service is used yet
        TOOL_CONFIGURATION: {
            "domain": launch_host,
            "target_link_uri": tool.launch,
            "description": "Arithmetic card games for classrooms.",
            "claims": ["iss", "sub", "name", "given_name", "family_name"],
            "messages": [{"type": "LtiResourceLinkRequest", "target_link_uri": tool.launch, "label": "Numberdeck"}],
        },
    }


def register(*, config: dict, registration_token: str, tool: ToolAddresses) -> Registered:
    """Post Numberdeck's configuration to the platform; what to record of the answer."""
    try:
        response = requests.post(config["registration_endpoint"], json=tool_configuration(tool=tool),
                                 headers=_bearer(registration_token), timeout=TIMEOUT_SECONDS)
        response.raise_for_status()
        answer = response.json()
    except (requests.RequestException, ValueError) as error:
        raise RegistrationFailed(_("The platform refused the registration: %(error)s")
                                 % {"error": error}) from error
    client_id = answer.get("client_id") if isinstance(answer, dict) else None
    if not isinstance(client_id, str) or not client_id:
        raise RegistrationFailed(_("The platform's answer has no client_id."))
    lti = answer.get(TOOL_CONFIGURATION)
    deployment_id = lti.get("deployment_id", "") if isinstance(lti, dict) else ""
    platform = config.get(PLATFORM_CONFIGURATION)
    family = platform.get("product_family_code", "") if isinstance(platform, dict) else ""
    host = urlsplit(config["issuer"]).hostname
    return Registered(issuer=config["issuer"], client_id=client_id,
                      deployment_id=deployment_id if isinstance(deployment_id, str) else "",
                      auth_url=config["authorization_endpoint"], token_url=config["token_endpoint"],
                      keyset_url=config["jwks_uri"], name=f"{family} ({host})" if family else host)
