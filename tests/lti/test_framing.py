"""Launches open in a new window, at the top level: the LTI pages forbid framing like every
other page, and the state cookie of the login initiation survives the platform's cross-site
POST (SameSite=None; Secure over HTTPS)."""

from django.test import Client

from .platform import INSTRUCTOR, LEARNER, course, launch, login_initiation


def assert_unframeable(response):
    assert response["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]


def test_every_lti_response_forbids_framing(platform, visitor):
    assert_unframeable(login_initiation(visitor, platform, sub="teacher-1"))
    landed = launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course())
    assert landed.status_code == 302
    assert_unframeable(landed)
    refused = launch(Client(), platform, sub="someone", roles=[], context=course())
    assert refused.status_code == 403
    assert_unframeable(refused)
    assert_unframeable(visitor.get("/lti/jwks.json"))


def test_over_https_the_state_cookie_is_sent_back_by_the_platforms_post(platform, visitor):
    response = login_initiation(visitor, platform, sub="teacher-1", secure=True)
    state_cookies = [cookie for name, cookie in response.cookies.items() if name.startswith("lti1p3-")]
    assert state_cookies
    for cookie in state_cookies:
        assert cookie["samesite"] == "None" and cookie["secure"] and cookie["httponly"]


def test_a_whole_launch_over_https(platform, visitor):
    launch(Client(), platform, sub="teacher-1", roles=[INSTRUCTOR], context=course(), secure=True)
    response = launch(visitor, platform, sub="student-1", roles=[LEARNER], context=course(), secure=True)
    assert response.status_code == 302 and response["Location"] == "/play/"
