import hashlib

from django.db.models import QuerySet
from django.utils import timezone
from lti_tool.models import LtiRegistration

from .models import RegistrationLink


def lti_platforms() -> QuerySet[LtiRegistration]:
    return LtiRegistration.objects.prefetch_related("deployments").order_by("name", "pk")


def lti_platform_exists(*, issuer: str, client_id: str) -> bool:
    return LtiRegistration.objects.filter(issuer=issuer.strip(), client_id=client_id.strip()).exists()


def hash_link_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def lti_registration_links_usable(*, token: str) -> QuerySet[RegistrationLink]:
    return RegistrationLink.objects.filter(token_hash=hash_link_token(token), used_at__isnull=True,
                                           expires_at__gt=timezone.now())
