import pytest
from django.test import Client

from lti.registration import lti_platform_register

from .platform import Platform


@pytest.fixture
def platform(db):
    """A platform, registered in Numberdeck by an administrator, serving its key set."""
    running = Platform().start()
    lti_platform_register(name="District Moodle", issuer=running.issuer, client_id=running.client_id,
                          deployment_ids=[running.deployment_id], keyset_url=running.keyset_url,
                          auth_url=running.auth_url, token_url=running.token_url)
    yield running
    running.stop()


@pytest.fixture
def visitor():
    """One visitor (its cookies) for each person launching."""
    return Client()


@pytest.fixture
def test_platform(db):
    """devtools' test platform (deep linking, grades), registered in Numberdeck."""
    from .services_platform import running_platform

    running = running_platform()
    yield running
    running.stop()
