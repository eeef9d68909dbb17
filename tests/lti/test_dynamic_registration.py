"""LTI Dynamic Registration: an administrator makes a one-time link, the platform (played by
the test over HTTP) opens it with its configuration's URL and a registration token, Numberdeck
posts its configuration and records the platform; then launches from it work."""

import re
from urllib.parse import urlencode

import pytest
from django.test import Client
from lti_tool.models import LtiDeployment, LtiRegistration

from accounts.models import User
from lti.models import RegistrationLink

from .platform import INSTRUCTOR, TOOL_CONFIGURATION, Platform, course, launch


@pytest.fixture
def unregistered():
    running = Platform().start()
    yield running
    running.stop()


@pytest.fixture
def admin_client(db):
    administrator = User.objects.create_user(username="admin", email="admin@school.test", password="pw-123456789",
                                             display_name="Admin", is_staff=True)
    client = Client()
    client.force_login(administrator)
    return client


def make_link(admin_client) -> str:
    page = admin_client.post("/lti/platforms/registration-link/").content.decode()
    return re.search(r"<code[^>]*>(http://testserver/lti/register/[^<]+)</code>", page).group(1)


def opened_by(platform: Platform, link: str, client=None, **params):
    query = {"openid_configuration": platform.origin + "/.well-known/openid-configuration",
             "registration_token": platform.registration_token, **params}
    return (client or Client()).get(link.removeprefix("http://testserver") + "?" + urlencode(query))


def test_a_platform_registers_numberdeck_through_the_link_and_launches_work(unregistered, admin_client):
    link = make_link(admin_client)

    response = opened_by(unregistered, link)

    assert response.status_code == 200
    page = response.content.decode()
    assert "Numberdeck is registered" in page and "js/lti-registration.js" in page
    # Only the platform may show this page in its frame.
    assert response["Content-Security-Policy"].count("frame-ancestors") == 1
    assert f"frame-ancestors {unregistered.origin}" in response["Content-Security-Policy"]
    assert "X-Frame-Options" not in response
    posted = unregistered.tool_configurations[0]
    assert posted["initiate_login_uri"] == "http://testserver/lti/login/"
    assert posted["redirect_uris"] == ["http://testserver/lti/launch/"]
    assert posted["jwks_uri"] == "http://testserver/lti/jwks.json"
    assert posted[TOOL_CONFIGURATION]["messages"][0]["type"] == "LtiResourceLinkRequest"
    registration = LtiRegistration.objects.get()
    assert (registration.issuer, registration.client_id, registration.keyset_url) == \
        (unregistered.issuer, unregistered.client_id, unregistered.keyset_url)
    assert list(LtiDeployment.objects.filter(is_active=True).values_list("deployment_id", flat=True)) == \
        [unregistered.deployment_id]
    assert RegistrationLink.objects.get().registration == registration

    landed = launch(Client(), unregistered, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    assert landed.status_code == 302 and landed["Location"].startswith("/teach/classes/")


def test_a_link_works_once(unregistered, admin_client):
    link = make_link(admin_client)
    assert opened_by(unregistered, link).status_code == 200
    again = opened_by(unregistered, link)
    assert again.status_code == 403 and "expired or has been used" in again.content.decode()
    assert "frame-ancestors 'none'" in again["Content-Security-Policy"] and again["X-Frame-Options"] == "DENY"
    assert len(unregistered.tool_configurations) == 1 and LtiRegistration.objects.count() == 1


def test_a_made_up_link_registers_nothing(unregistered, db):
    response = opened_by(unregistered, "http://testserver/lti/register/made-up/")
    assert response.status_code == 403
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]  # no platform may frame it
    assert unregistered.tool_configurations == [] and LtiRegistration.objects.count() == 0


@pytest.mark.parametrize("change", ["wrong token", "issuer elsewhere", "not https"])
def test_a_configuration_that_cannot_be_trusted_registers_nothing(unregistered, admin_client, change, monkeypatch):
    link = make_link(admin_client)
    params = {}
    if change == "wrong token":
        params["registration_token"] = "not-the-platforms"
    elif change == "issuer elsewhere":
        monkeypatch.setattr(unregistered, "issuer", "https://moodle.elsewhere.example")
    else:
        params["openid_configuration"] = "http://platform.example/.well-known/openid-configuration"

    response = opened_by(unregistered, link, **params)

    assert response.status_code == 400
    assert "could not register itself" in response.content.decode()
    assert unregistered.tool_configurations == [] and LtiRegistration.objects.count() == 0
    assert RegistrationLink.objects.get().used_at is None  # the link still works


def test_only_administrators_make_links(client, make_teacher):
    client.force_login(make_teacher())
    assert client.post("/lti/platforms/registration-link/").status_code == 403
    assert RegistrationLink.objects.count() == 0
