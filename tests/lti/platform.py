"""A learning platform played by the tests of the launch: its own RSA keys, published as a key
set by a real HTTP server on 127.0.0.1 (an ephemeral port), and id tokens signed with them
(PyJWT). Its keys and claims are those of devtools/lti_platform.py, the fuller test platform
that the deep-linking and grades tests use; this one can also rotate keys, forge tokens and
answer dynamic registration."""

from __future__ import annotations

import json
import time
import uuid
from urllib.parse import parse_qs, urlparse

import jwt

from devtools.lti_platform import CLAIM, INSTRUCTOR, LEARNER, JsonHandler, LocalServer, SigningKey  # noqa: F401 (the tests import them here)

TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
TEACHING_ASSISTANT = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
MENTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"


class Platform(LocalServer):
    """Start with `start()`, stop with `stop()`. `published` is the key set it serves;
    `signing` the key it signs with; `key_set_fetches` counts the GETs of its key set."""

    client_id = "numberdeck-client"
    deployment_id = "deployment-1"

    def __init__(self):
        self.signing = SigningKey()
        self.published = [self.signing]
        self.key_set_fetches = 0
        self._path = f"/jwks/{uuid.uuid4().hex}"  # a key set URL no other test has used
        platform = self

        class Handler(JsonHandler):
            def _authorised(self) -> bool:
                return self.headers.get("Authorization") == f"Bearer {platform.registration_token}"

            def do_POST(self):  # dynamic registration: the tool posts its configuration
                if self.path != "/register" or not self._authorised():
                    self._json(401, {"error": "invalid_token"})
                    return
                platform.tool_configurations.append(json.loads(self._body()))
                self._json(200, {**platform.tool_configurations[-1], "client_id": platform.client_id,
                                 TOOL_CONFIGURATION: {**platform.tool_configurations[-1][TOOL_CONFIGURATION],
                                                      "deployment_id": platform.deployment_id}})

            def do_GET(self):
                if self.path == "/.well-known/openid-configuration":
                    if not self._authorised():
                        self._json(401, {"error": "invalid_token"})
                    else:
                        self._json(200, platform.openid_configuration())
                    return
                if self.path != platform._path:
                    self.send_error(404)
                    return
                platform.key_set_fetches += 1
                self._json(200, {"keys": [key.public() for key in platform.published]})

        self.registration_token = uuid.uuid4().hex
        self.tool_configurations: list[dict] = []  # what tools posted to its registration endpoint
        self._listen(Handler)

    @property
    def keyset_url(self) -> str:
        return self.origin + self._path

    @property
    def auth_url(self) -> str:
        return self.origin + "/auth"

    @property
    def token_url(self) -> str:
        return self.origin + "/token"

    def openid_configuration(self) -> dict:
        return {
            "issuer": self.issuer, "authorization_endpoint": self.auth_url, "token_endpoint": self.token_url,
            "jwks_uri": self.keyset_url, "registration_endpoint": self.origin + "/register",
            "scopes_supported": ["openid"], "response_types_supported": ["id_token"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                "product_family_code": "moodle", "version": "4.5",
                "messages_supported": [{"type": "LtiResourceLinkRequest"}]},
        }

    def rotate(self, *, keep_old: bool = False) -> None:
        """A new key signs; the old one leaves the key set unless `keep_old`."""
        self.signing = SigningKey()
        self.published = [*self.published, self.signing] if keep_old else [self.signing]

    def claims(self, *, nonce: str, sub: str, roles: list[str] | None, context: dict | None,
               resource_link: str = "link-1", **extra) -> dict:
        now = int(time.time())
        body = {
            "iss": self.issuer, "aud": self.client_id, "sub": sub, "iat": now, "exp": now + 300,
            "nonce": nonce,
            CLAIM + "message_type": "LtiResourceLinkRequest",
            CLAIM + "version": "1.3.0",
            CLAIM + "deployment_id": self.deployment_id,
            CLAIM + "target_link_uri": "http://testserver/lti/launch/",
            CLAIM + "resource_link": {"id": resource_link, "title": "Numberdeck"},
            "given_name": "Ada", "family_name": "Lovelace", "name": "Ada Lovelace",
        }
        if roles is not None:
            body[CLAIM + "roles"] = roles
        if context is not None:
            body[CLAIM + "context"] = context
        body.update(extra)
        return {k: v for k, v in body.items() if v is not None}

    def sign(self, claims: dict, *, key: SigningKey | None = None, kid: str | None = None) -> str:
        key = key or self.signing
        return jwt.encode(claims, key.pem(), algorithm="RS256", headers={"kid": kid or key.kid})


def course(context_id: str = "course-5b", title: str = "Maths 5B") -> dict:
    return {"id": context_id, "title": title, "label": "M5B",
            "type": ["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"]}


def login_initiation(client, platform: Platform, *, sub: str, issuer: str | None = None, secure: bool = False):
    """The platform's first step: the browser opens our login initiation URL."""
    return client.get("/lti/login/", secure=secure, data={
        "iss": issuer or platform.issuer, "login_hint": sub, "target_link_uri": "http://testserver/lti/launch/",
        "client_id": platform.client_id, "lti_deployment_id": platform.deployment_id,
        "lti_message_hint": "hint-1"})


def auth_request(response, platform: Platform) -> dict:
    """What our login initiation asked the platform's authorisation endpoint for."""
    assert response.status_code == 302, response.content[:500]
    location = urlparse(response["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == platform.auth_url
    return {key: values[0] for key, values in parse_qs(location.query).items()}


def launch(client, platform: Platform, *, sub: str, roles: list[str] | None, context: dict | None,
           sign=None, secure: bool = False, **extra):
    """The whole launch: login initiation, the authorisation redirect, the id token POST.
    `sign(claims) -> token` replaces the platform's own signing; `extra` adds or overrides claims
    (None removes one). Returns the response to the POST."""
    asked = auth_request(login_initiation(client, platform, sub=sub, secure=secure), platform)
    assert asked["login_hint"] == sub and asked["client_id"] == platform.client_id
    assert asked["response_mode"] == "form_post" and asked["scope"] == "openid"
    claims = platform.claims(nonce=asked["nonce"], sub=sub, roles=roles, context=context, **extra)
    token = (sign or platform.sign)(claims)
    return post_id_token(client, asked, token)


def post_id_token(client, asked: dict, token: str):
    redirect_uri = urlparse(asked["redirect_uri"])
    return client.post(redirect_uri.path, {"id_token": token, "state": asked["state"]},
                       secure=redirect_uri.scheme == "https")
