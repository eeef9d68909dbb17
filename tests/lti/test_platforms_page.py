"""The administrators' page of learning platforms: who may see it, and registering one."""

import pytest
from lti_tool.models import Key, LtiDeployment, LtiRegistration

from accounts.models import User

FORM = {
    "name": "District Canvas", "issuer": "https://canvas.instructure.com", "client_id": "10000000000042",
    "deployment_ids": "42:abc\n43:def\n", "keyset_url": "https://sso.canvaslms.com/api/lti/security/jwks",
    "auth_url": "https://sso.canvaslms.com/api/lti/authorize_redirect",
    "token_url": "https://sso.canvaslms.com/login/oauth2/token",
}


@pytest.fixture
def administrator(db):
    return User.objects.create_user(username="admin", email="admin@school.test", password="pw-123456789",
                                    display_name="Admin", is_staff=True)


def test_an_administrator_registers_a_platform_and_sees_numberdecks_addresses(client, administrator):
    client.force_login(administrator)
    page = client.get("/lti/platforms/").content.decode()
    for address in ("http://testserver/lti/login/", "http://testserver/lti/launch/", "http://testserver/lti/jwks.json"):
        assert address in page
    assert "open Numberdeck in a new window" in page

    response = client.post("/lti/platforms/", FORM)

    assert response.status_code == 302
    registration = LtiRegistration.objects.get()
    assert (registration.issuer, registration.client_id, registration.is_active) == \
        ("https://canvas.instructure.com", "10000000000042", True)
    assert registration.token_url == FORM["token_url"] and registration.keyset_url == FORM["keyset_url"]
    assert sorted(LtiDeployment.objects.filter(is_active=True).values_list("deployment_id", flat=True)) == \
        ["42:abc", "43:def"]
    assert Key.objects.filter(is_active=True).count() == 1  # Numberdeck can sign from now on
    listing = client.get("/lti/platforms/").content.decode()
    assert "District Canvas" in listing and "42:abc" in listing


def test_the_same_platform_and_client_twice_is_refused_with_nothing_changed(client, administrator):
    client.force_login(administrator)
    client.post("/lti/platforms/", FORM)
    response = client.post("/lti/platforms/", {**FORM, "name": "Again"})
    assert response.status_code == 200
    assert "already registered" in response.content.decode()
    assert LtiRegistration.objects.count() == 1 and LtiDeployment.objects.count() == 2


def test_a_form_without_deployments_or_with_a_bad_address_is_refused(client, administrator):
    client.force_login(administrator)
    response = client.post("/lti/platforms/", {**FORM, "deployment_ids": " \n", "keyset_url": "not a url"})
    page = response.content.decode()
    assert response.status_code == 200 and "This field is required." in page and "Enter a valid URL." in page
    assert LtiRegistration.objects.count() == 0


def test_teachers_and_students_may_not_see_the_page(client, make_teacher, make_classroom):
    assert client.get("/lti/platforms/").status_code == 302  # sign in first
    teacher = make_teacher()
    client.force_login(teacher)
    assert client.get("/lti/platforms/").status_code == 403
    assert client.post("/lti/platforms/", FORM).status_code == 403
    assert LtiRegistration.objects.count() == 0


def test_the_admin_site_lists_platforms_and_courses_classes(client, administrator):
    administrator.is_superuser = True
    administrator.save()
    client.force_login(administrator)
    assert client.get("/admin/lti_tool/ltiregistration/").status_code == 200
    assert client.get("/admin/lti/courseclass/").status_code == 200
