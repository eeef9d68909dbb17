"""Launches from the test platform of devtools/lti_platform.py, driven through Django's test
client: the platform signs the id token, Numberdeck answers; the platform reads Numberdeck's
published key set to check what Numberdeck signs (deep-linking answers, token requests)."""

import json
import re
from html import unescape
from urllib.parse import parse_qs, urlparse

from django.test import Client

from classroom.assignment_form import AssignmentForm
from devtools.lti_platform import TestPlatform, register_with_numberdeck


def running_platform(**options) -> TestPlatform:
    platform = TestPlatform(tool_url="http://testserver", **options).start()
    register_with_numberdeck(platform)
    # Numberdeck's published key set, read once here: the platform's server thread has no
    # database connection of the test's (there is no live server in these tests).
    published = Client().get("/lti/jwks.json").json()
    platform.tool_keys = lambda: published
    return platform


def platform_launch(client, platform: TestPlatform, *, person: str, message: str = "launch",
                    activity: int | None = None):
    login = urlparse(platform.login_url(person=person, message=message, activity=activity))
    response = client.get(f"{login.path}?{login.query}")
    assert response.status_code == 302, response.content[:300]
    asked = {k: v[0] for k, v in parse_qs(urlparse(response["Location"]).query).items()}
    token = platform.id_token(person=person, nonce=asked["nonce"], hint=json.loads(asked["lti_message_hint"]))
    return client.post("/lti/launch/", {"id_token": token, "state": asked["state"]})


def assignment_fields(classroom, *, goal_count: int = 2, title: str = "Numbers week") -> dict:
    form = AssignmentForm(classroom=classroom)
    fields = {"game": form.game, "preset": form.fields["preset"].choices[0][0], "goal": "play",
              "goal_count": goal_count, "audience": "class", "title": title}
    if not form.is_solo:
        fields.update(opponents="bots", bot_level="beginner", bot_count=form.bot_range[0])
    return fields


def deep_link(client, platform: TestPlatform, classroom, **fields):
    """The teacher adds an activity: the form, then the answer posted back to the platform,
    which decodes it. Returns (the page with the answer, the decoded answer)."""
    start = platform_launch(client, platform, person="teacher", message="deep_link")
    assert start.status_code == 302 and start["Location"].startswith("/lti/deep-link/"), start.content[:300]
    assert client.get(start["Location"]).status_code == 200
    sent = client.post(start["Location"], assignment_fields(classroom, **fields))
    assert sent.status_code == 302, sent.content[:500]
    page = client.get(sent["Location"])
    assert page.status_code == 200
    text = page.content.decode()
    action = unescape(re.search(r'<form method="post" action="([^"]+)" id="lti-deep-link-answer"', text).group(1))
    assert action == platform.origin + "/deep-link-return"
    answer = platform.receive_deep_link(unescape(re.search(r'name="JWT" value="([^"]+)"', text).group(1)))
    return page, answer
