from django.db.models import QuerySet
from lti_tool.models import LtiRegistration


def lti_platforms() -> QuerySet[LtiRegistration]:
    return LtiRegistration.objects.prefetch_related("deployments").order_by("name", "pk")


def lti_platform_exists(*, issuer: str, client_id: str) -> bool:
    return LtiRegistration.objects.filter(issuer=issuer.strip(), client_id=client_id.strip()).exists()
