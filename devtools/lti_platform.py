"""A small LTI 1.3 learning platform for trying Numberdeck's LTI side by hand and in the tests
(`manage.py lti_test_platform`; docs/lti.md, "Trying it"). It is test tooling: it signs its own
id tokens (PyJWT, its own RSA key) and keeps everything in memory.

It serves, on 127.0.0.1: a page with a demo course (launch as teacher or student, add an
activity by deep linking, open the activities placed), its key set, the OIDC authorisation
endpoint, an OAuth2 token endpoint (client credentials with a JWT assertion, checked against
Numberdeck's key set), line items and their scores (for grades), a page of the scores
received, and the course's members (names and roles, in pages of `limit` with a `Link:
<...>; rel="next"` header) with a page to add a student to the course or mark one as left."""

from __future__ import annotations

import base64
import html
import json
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

import jwt
import requests
from jwcrypto.jwk import JWK

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
DL_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
NRPS_MEDIA_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
AGS_SCOPES = ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
              "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
              "https://purl.imsglobal.org/spec/lti-ags/scope/score"]
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
PEOPLE = {"teacher": ("demo-teacher", [INSTRUCTOR], "Tess", "Teacher"),
          "student": ("demo-student", [LEARNER], "Sam", "Student")}


class SigningKey:
    def __init__(self):
        self.kid = uuid.uuid4().hex
        self.jwk = JWK.generate(kty="RSA", size=2048, kid=self.kid)

    def public(self) -> dict:
        return {**json.loads(self.jwk.export_public()), "alg": "RS256", "use": "sig"}

    def pem(self) -> bytes:
        return self.jwk.export_to_pem(private_key=True, password=None)


class LocalServer:
    """An HTTP server on 127.0.0.1 (port 0: the system picks a free one) served from a thread
    once `start()`ed, until `stop()`; `origin` is its address and the platform's issuer."""

    def _listen(self, handler: type[BaseHTTPRequestHandler], port: int = 0) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.issuer = self.origin
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self):
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._server.serve_forever()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


class JsonHandler(BaseHTTPRequestHandler):
    """A platform's request handler: answers in HTML or JSON, reads a body, logs nothing."""

    def _send(self, status: int, body: str | bytes, content_type: str = "text/html; charset=utf-8") -> None:
        data = body.encode() if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _json(self, status: int, data) -> None:
        self._send(status, json.dumps(data), "application/json")

    def _body(self) -> bytes:
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def log_message(self, *args):
        pass


class TestPlatform(LocalServer):
    """`start()`, then `stop()`. `tool_url` is Numberdeck's address (http://127.0.0.1:8000)."""

    __test__ = False  # a platform for tests, not a class of tests

    client_id = "numberdeck-test-platform"
    deployment_id = "test-deployment"
    context = {"id": "demo-course", "title": "Demo course 5B", "label": "DEMO5B",
               "type": ["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"]}

    def __init__(self, *, tool_url: str, port: int = 0, lineitems: bool = True):
        self.tool_url = tool_url.rstrip("/")
        self.signing = SigningKey()
        # False: the platform makes no grade column from a deep link (Brightspace): the tool makes it.
        self.offers_lineitems = lineitems
        self.line_items: dict[str, dict] = {}  # id -> line item
        self.scores: list[dict] = []  # every score received, with its line item's id
        self.activities: list[dict] = []  # resource links placed by deep linking
        self.deep_link_answers: list[dict] = []  # decoded answers
        self.fail_scores = 0  # the next N score posts get a 503
        self.tokens: set[str] = set()
        # The course's members (names and roles): the two demo people, and a few more students.
        self.members: list[dict] = [self.member(sub, roles, given, family) for sub, roles, given, family in (
            *PEOPLE.values(), ("demo-student-2", [LEARNER], "Ana", "Lopez"),
            ("demo-student-3", [LEARNER], "Omar", "Haddad"))]
        self.page_size = 100  # members a page, unless the tool asks for fewer (`limit`)
        self.fail_members = 0  # the next N member list requests get a 503 ...
        self.fail_members_after = 0  # ... once this many more have been answered
        self.member_requests: list[str] = []  # the addresses of the pages asked for
        self._lock = threading.Lock()
        self._listen(_handler(self), port)

    @property
    def keyset_url(self) -> str:
        return self.origin + "/jwks"

    @property
    def auth_url(self) -> str:
        return self.origin + "/auth"

    @property
    def token_url(self) -> str:
        return self.origin + "/token"

    @property
    def lineitems_url(self) -> str:
        return self.origin + "/lineitems"

    @property
    def memberships_url(self) -> str:
        return self.origin + "/memberships"

    # ----- the course's members ----------------------------------------------------------------
    @staticmethod
    def member(sub: str, roles: list[str], given: str, family: str, status: str = "Active") -> dict:
        return {"user_id": sub, "roles": roles, "status": status, "given_name": given, "family_name": family,
                "name": f"{given} {family}"}

    def add_member(self, sub: str, roles: list[str], given: str, family: str) -> dict:
        with self._lock:
            self.members = [m for m in self.members if m["user_id"] != sub]
            self.members.append(self.member(sub, roles, given, family))
        return self.members[-1]

    def set_status(self, sub: str, status: str) -> None:
        with self._lock:
            for member in self.members:
                if member["user_id"] == sub:
                    member["status"] = status

    def remove_member(self, sub: str) -> None:
        with self._lock:
            self.members = [m for m in self.members if m["user_id"] != sub]

    def members_page(self, query: dict) -> tuple[dict, str | None]:
        """One page of the members, and the address of the next page (None on the last)."""
        try:
            limit = max(1, min(int(query.get("limit") or self.page_size), self.page_size))
        except ValueError:
            limit = self.page_size
        offset = _page_offset(query.get("pageToken"))
        with self._lock:
            members = list(self.members)
        more = offset + limit < len(members)
        following = f"{self.memberships_url}?{urlencode({'limit': limit, 'pageToken': _page_token(offset + limit)})}" \
            if more else None
        return {"id": self.memberships_url, "context": {k: self.context[k] for k in ("id", "title", "label")},
                "members": members[offset:offset + limit]}, following

    # ----- messages --------------------------------------------------------------------------
    def login_url(self, *, person: str, message: str = "launch", activity: int | None = None) -> str:
        """Where the platform sends the browser first: Numberdeck's login initiation."""
        hint = json.dumps({"message": message, "activity": activity})
        return f"{self.tool_url}/lti/login/?" + urlencode({
            "iss": self.issuer, "login_hint": person, "target_link_uri": f"{self.tool_url}/lti/launch/",
            "client_id": self.client_id, "lti_deployment_id": self.deployment_id, "lti_message_hint": hint})

    def id_token(self, *, person: str, nonce: str, hint: dict) -> str:
        sub, roles, given, family = PEOPLE.get(person, PEOPLE["student"])
        now = int(time.time())
        claims = {
            "iss": self.issuer, "aud": self.client_id, "sub": sub, "iat": now, "exp": now + 300, "nonce": nonce,
            "given_name": given, "family_name": family, "name": f"{given} {family}",
            CLAIM + "version": "1.3.0", CLAIM + "deployment_id": self.deployment_id,
            CLAIM + "roles": roles, CLAIM + "context": self.context,
            CLAIM + "target_link_uri": f"{self.tool_url}/lti/launch/",
            AGS_CLAIM: {"scope": AGS_SCOPES, "lineitems": self.lineitems_url},
            NRPS_CLAIM: {"context_memberships_url": self.memberships_url, "service_versions": ["2.0"]},
        }
        activity = self.activities[hint["activity"]] if isinstance(hint.get("activity"), int) \
            and 0 <= hint["activity"] < len(self.activities) else None
        if hint.get("message") == "deep_link":
            claims[CLAIM + "message_type"] = "LtiDeepLinkingRequest"
            claims[DL_CLAIM + "deep_linking_settings"] = {
                "deep_link_return_url": self.origin + "/deep-link-return", "accept_types": ["ltiResourceLink"],
                "accept_presentation_document_targets": ["window"], "accept_multiple": False,
                "data": "demo-data"}
        else:
            claims[CLAIM + "message_type"] = "LtiResourceLinkRequest"
            claims[CLAIM + "resource_link"] = {"id": activity["id"] if activity else "demo-link",
                                               "title": activity["title"] if activity else "Numberdeck"}
            if activity:
                claims[CLAIM + "custom"] = activity["custom"]
                if activity.get("lineitem"):
                    claims[AGS_CLAIM] = {**claims[AGS_CLAIM], "lineitem": activity["lineitem"]}
        return jwt.encode(claims, self.signing.pem(), algorithm="RS256", headers={"kid": self.signing.kid})

    def tool_keys(self) -> dict:
        return requests.get(f"{self.tool_url}/lti/jwks.json", timeout=10).json()

    def decode_from_tool(self, token: str, *, audience: str) -> dict:
        """A JWT Numberdeck signed (a deep-linking answer, a token request), checked against its
        published key set."""
        kid = jwt.get_unverified_header(token).get("kid")
        keys = [k for k in self.tool_keys().get("keys", []) if not kid or k.get("kid") == kid]
        for key in keys:
            try:
                return jwt.decode(token, jwt.PyJWK(key).key, algorithms=["RS256"], audience=audience)
            except jwt.InvalidSignatureError:
                continue
        raise jwt.InvalidSignatureError("No key of Numberdeck's key set matches")

    def receive_deep_link(self, token: str) -> dict:
        answer = self.decode_from_tool(token, audience=self.issuer)
        self.deep_link_answers.append(answer)
        for item in answer.get(DL_CLAIM + "content_items", []):
            activity = {"id": f"link-{uuid.uuid4().hex[:8]}", "title": item.get("title", ""),
                        "custom": item.get("custom") or {}, "lineitem": None}
            if isinstance(item.get("lineItem"), dict) and self.offers_lineitems:
                activity["lineitem"] = self.add_line_item({**item["lineItem"], "resourceLinkId": activity["id"]})["id"]
            self.activities.append(activity)
        return answer

    def add_line_item(self, data: dict) -> dict:
        with self._lock:
            item_id = f"{self.lineitems_url}/{len(self.line_items) + 1}"
            item = {**data, "id": item_id}
            self.line_items[item_id] = item
        return item

    def scores_of(self, line_item_id: str) -> list[dict]:
        return [s for s in self.scores if s["lineitem"] == line_item_id]

    # ----- pages -----------------------------------------------------------------------------
    def home_page(self) -> str:
        buttons = "".join(
            f'<li><a class="button" href="{html.escape(self.login_url(person=p, message=m))}">{label}</a></li>'
            for p, m, label in (("teacher", "launch", "Launch as teacher"), ("student", "launch", "Launch as student"),
                                ("teacher", "deep_link", "Add an activity (deep linking)")))
        activities = "".join(
            f"<li>{html.escape(a['title'])} (custom {html.escape(json.dumps(a['custom']))}): "
            f'<a href="{html.escape(self.login_url(person="teacher", activity=i))}">Open as teacher</a> · '
            f'<a href="{html.escape(self.login_url(person="student", activity=i))}">Open as student</a></li>'
            for i, a in enumerate(self.activities)) or "<li>None yet: add one by deep linking.</li>"
        return _page("Demo course 5B", f"""
<p>A test LTI 1.3 platform for Numberdeck at {html.escape(self.tool_url)}. Issuer {html.escape(self.issuer)},
client id {self.client_id}, deployment {self.deployment_id}.</p>
<ul>{buttons}</ul>
<h2>Activities</h2><ul>{activities}</ul>
<p><a href="/members">Members of the course</a> · <a href="/scores">Scores received</a> · <a href="/jwks">Key set</a> ·
<a href="{html.escape(self.origin)}/framed">Numberdeck inside a frame</a></p>""")

    def scores_page(self) -> str:
        rows = "".join(f"<tr><td>{html.escape(self.line_items.get(s['lineitem'], {}).get('label', s['lineitem']))}</td>"
                       f"<td>{html.escape(str(s.get('userId')))}</td><td>{s.get('scoreGiven')} / {s.get('scoreMaximum')}"
                       f"</td><td>{html.escape(str(s.get('activityProgress')))}</td></tr>" for s in self.scores)
        return _page("Scores received", "<table><tr><th>Line item</th><th>User</th><th>Score</th><th>Progress</th></tr>"
                     f"{rows}</table><p><a href='/'>Back to the course</a></p>")

    def members_list_page(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(m['name'])}</td><td>{html.escape(m['user_id'])}</td>"
            f"<td>{'Teacher' if INSTRUCTOR in m['roles'] else 'Student'}</td><td>{html.escape(m['status'])}</td><td>"
            + (f"<form method='post' action='/members/leave'><input type='hidden' name='sub' "
               f"value='{html.escape(m['user_id'])}'><button type='submit'>Mark {html.escape(m['name'])} as left"
               f"</button></form>" if m["status"] == "Active" and INSTRUCTOR not in m["roles"] else "")
            + "</td></tr>" for m in self.members)
        return _page("Members of the course", "<table><tr><th>Name</th><th>User id</th><th>Role</th><th>Status</th>"
                     f"<th>Action</th></tr>{rows}</table><form method='post' action='/members/add'>"
                     "<label>Given name <input name='given' required></label> <label>Family name "
                     "<input name='family' required></label> <button type='submit'>Add a student to the course"
                     "</button></form><p><a href='/'>Back to the course</a></p>")


def _page_token(offset: int) -> str:
    """A page's token, as platforms give them: opaque, and in capitals and small letters, so a
    tool that changes its case asks for a page that does not exist."""
    return base64.urlsafe_b64encode(f"Members from {offset}".encode()).decode().rstrip("=")


def _page_offset(token: str | None) -> int:
    if not token:
        return 0
    text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode(errors="replace")
    if not text.startswith("Members from "):
        raise ValueError("unknown page token")
    return max(0, int(text.removeprefix("Members from ")))


def _page(title: str, body: str) -> str:
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title></head>"
            f"<body><h1>{html.escape(title)}</h1>{body}</body></html>")


def _handler(platform: TestPlatform):
    class Handler(JsonHandler):
        def _authorised(self) -> bool:
            return self.headers.get("Authorization", "").removeprefix("Bearer ") in platform.tokens

        def do_GET(self):
            url = urlparse(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            if url.path == "/":
                self._send(200, platform.home_page())
            elif url.path == "/scores":
                self._send(200, platform.scores_page())
            elif url.path == "/jwks":
                self._json(200, {"keys": [platform.signing.public()]})
            elif url.path == "/framed":
                src = html.escape(platform.login_url(person="teacher"))
                self._send(200, _page("Numberdeck inside a frame", f'<iframe title="Numberdeck" src="{src}" '
                                      'width="800" height="400"></iframe><p>Numberdeck refuses to be '
                                      f'framed: <a href="{src}" target="_blank">open it in a new window</a>.</p>'))
            elif url.path == "/auth":
                self._authorise(query)
            elif url.path == "/members":
                self._send(200, platform.members_list_page())
            elif url.path == "/memberships":
                self._memberships(query)
            elif url.path == "/lineitems":
                if not self._authorised():
                    return self._json(401, {"error": "invalid_token"})
                self._json(200, list(platform.line_items.values()))
            else:
                self._send(404, _page("Not found", ""))

        def _memberships(self, query: dict) -> None:
            """Names and roles: one page of the course's members, the next page in a Link header."""
            platform.member_requests.append(self.path)
            if not self._authorised():
                return self._json(401, {"error": "invalid_token"})
            if platform.fail_members > 0 and platform.fail_members_after > 0:
                platform.fail_members_after -= 1
            elif platform.fail_members > 0:
                platform.fail_members -= 1
                return self._json(503, {"error": "try later"})
            try:
                page, following = platform.members_page(query)
            except ValueError:
                return self._json(400, {"error": "unknown page"})
            data = json.dumps(page).encode()
            self.send_response(200)
            self.send_header("Content-Type", NRPS_MEDIA_TYPE)
            self.send_header("Content-Length", str(len(data)))
            if following:
                self.send_header("Link", f'<{following}>; rel="next"')
            self.end_headers()
            self.wfile.write(data)

        def _authorise(self, query: dict) -> None:
            """The OIDC authorisation request: the id token, posted by the browser to the tool."""
            try:
                hint = json.loads(query.get("lti_message_hint") or "{}")
            except ValueError:
                hint = {}
            token = platform.id_token(person=query.get("login_hint", ""), nonce=query.get("nonce", ""), hint=hint)
            action = html.escape(query.get("redirect_uri", ""))
            self._send(200, _page("Opening Numberdeck", f"""
<form method="post" action="{action}" id="launch">
<input type="hidden" name="id_token" value="{token}"><input type="hidden" name="state" value="{html.escape(query.get('state', ''))}">
<button type="submit">Continue to Numberdeck</button></form>
<script>document.getElementById("launch").submit();</script>"""))

        def do_POST(self):
            url = urlparse(self.path)
            body = self._body()
            if url.path == "/token":
                return self._token({k: v[0] for k, v in parse_qs(body.decode()).items()})
            if url.path == "/deep-link-return":
                form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
                try:
                    answer = platform.receive_deep_link(form.get("JWT", ""))
                except jwt.PyJWTError as error:
                    return self._send(400, _page("Deep linking answer refused", html.escape(str(error))))
                titles = "".join(f"<li>{html.escape(i.get('title', ''))}</li>"
                                 for i in answer.get(DL_CLAIM + "content_items", []))
                return self._send(200, _page("Activity added", f"<ul>{titles}</ul><p><a href='/'>Back to the course</a></p>"))
            if url.path in ("/members/add", "/members/leave"):
                form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
                if url.path == "/members/add" and form.get("given") and form.get("family"):
                    platform.add_member(f"student-{uuid.uuid4().hex[:8]}", [LEARNER], form["given"], form["family"])
                elif url.path == "/members/leave":
                    platform.set_status(form.get("sub", ""), "Deleted")
                self.send_response(303)
                self.send_header("Location", "/members")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            if not self._authorised():
                return self._json(401, {"error": "invalid_token"})
            if url.path == "/lineitems":
                return self._json(201, platform.add_line_item(json.loads(body)))
            if url.path.startswith("/lineitems/") and url.path.endswith("/scores"):
                item_id = platform.origin + url.path.removesuffix("/scores")
                if item_id not in platform.line_items:
                    return self._json(404, {"error": "no such line item"})
                if platform.fail_scores > 0:
                    platform.fail_scores -= 1
                    return self._json(503, {"error": "try later"})
                platform.scores.append({**json.loads(body), "lineitem": item_id})
                return self._json(200, {})
            self._json(404, {"error": "not found"})

        def _token(self, form: dict) -> None:
            """OAuth2 client credentials, the client authenticated by a JWT it signed."""
            try:
                claims = platform.decode_from_tool(form.get("client_assertion", ""), audience=platform.token_url)
            except (jwt.PyJWTError, requests.RequestException) as error:
                return self._json(400, {"error": "invalid_client", "error_description": str(error)})
            if form.get("grant_type") != "client_credentials" or claims.get("sub") != platform.client_id:
                return self._json(400, {"error": "invalid_grant"})
            token = uuid.uuid4().hex
            platform.tokens.add(token)
            self._json(200, {"access_token": token, "token_type": "Bearer", "expires_in": 3600,
                             "scope": form.get("scope", "")})

    return Handler


def register_with_numberdeck(platform: TestPlatform):
    """The platform's registration and deployment in this Numberdeck's database, made or brought
    up to date (its address changes with its port): running the command again is harmless."""
    from lti_tool.models import LtiDeployment, LtiRegistration

    from lti.registration import lti_tool_key_ensure

    registration, _created = LtiRegistration.objects.update_or_create(
        issuer=platform.issuer, client_id=platform.client_id,
        defaults={"name": "Numberdeck test platform", "keyset_url": platform.keyset_url,
                  "auth_url": platform.auth_url, "token_url": platform.token_url, "is_active": True})
    LtiDeployment.objects.update_or_create(registration=registration, deployment_id=platform.deployment_id,
                                           defaults={"is_active": True})
    lti_tool_key_ensure()
    return registration
