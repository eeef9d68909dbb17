"""Deep linking (docs/lti.md, "Placing an assignment"): from the platform's "add an activity", a
teacher sets a Numberdeck assignment for the course's class with the ordinary assignment form,
and it goes back to the platform as a resource link whose custom parameter names it.

The answer is a JWT signed with Numberdeck's key by PyLTI1p3's `DeepLink`, posted by the
teacher's browser to the platform's `deep_link_return_url`. What the deep-linking request said
is kept in the teacher's session between the launch and the form (keyed by the launch id, so two
tabs do not mix), never in a URL."""

from __future__ import annotations

from django.db import transaction
from lti_tool.models import LtiContext, LtiLaunch, LtiRegistration
from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem

from accounts.models import User
from classroom.models import Assignment, Classroom
from classroom.services.assignments import assignment_create

from .models import PlacedAssignment
from .services import NAMED_ASSIGNMENT_PARAMETER

SESSION_KEY = "lti_deep_linking"
SETTINGS_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
SCORE_MAXIMUM = 100


def grade_column_tag(assignment_id: int) -> str:
    """How Numberdeck finds its grade column among the course's line items."""
    return f"numberdeck-assignment-{assignment_id}"


def deep_link_remember(*, session, launch: LtiLaunch, classroom: Classroom) -> str:
    """Keep what the request said for the form that follows; returns the key to find it by."""
    settings = launch.get_claim(SETTINGS_CLAIM) or {}
    ags = launch.ags_claim if isinstance(launch.ags_claim, dict) else {}
    key = launch.get_launch_id()
    kept = dict(session.get(SESSION_KEY) or {})
    kept[key] = {"registration": launch.registration.pk, "deployment_id": launch.deployment.deployment_id,
                 "context": launch.context.pk, "classroom": classroom.pk, "settings": settings,
                 "offers_grades": bool(ags.get("lineitems") or ags.get("scope"))}
    session[SESSION_KEY] = dict(list(kept.items())[-5:])  # a few open tabs at most
    return key


def deep_link_recalled(*, session, key: str) -> dict | None:
    return (session.get(SESSION_KEY) or {}).get(key)


def deep_link_forget(*, session, key: str) -> None:
    kept = dict(session.get(SESSION_KEY) or {})
    kept.pop(key, None)
    session[SESSION_KEY] = kept


@transaction.atomic
def lti_assignment_place(*, teacher: User, classroom: Classroom, context_id: int, **assignment_fields
                         ) -> PlacedAssignment:
    """The assignment, made as on the class page, and its place in the course."""
    assignment = assignment_create(classroom=classroom, created_by=teacher, **assignment_fields)
    return PlacedAssignment.objects.create(assignment=assignment, context=LtiContext.objects.get(pk=context_id))


def _accepts(settings: dict, content_type: str) -> bool:
    accepted = settings.get("accept_types")
    return not isinstance(accepted, list) or content_type in accepted


def deep_link_answer(*, kept: dict, assignment: Assignment, launch_url: str) -> tuple[str, str]:
    """The platform's return URL and the signed answer naming `assignment` (PyLTI1p3 builds and
    signs it). A grade column (lineItem) comes with it when the platform offers grades."""
    settings = kept["settings"]
    registration = LtiRegistration.objects.get(pk=kept["registration"]).to_registration()
    resource = (DeepLinkResource().set_type("ltiResourceLink").set_title(assignment.title).set_url(launch_url)
                .set_custom_params({NAMED_ASSIGNMENT_PARAMETER: str(assignment.pk)}))
    if kept.get("offers_grades"):
        resource.set_lineitem(LineItem().set_score_maximum(SCORE_MAXIMUM).set_label(assignment.title)
                              .set_resource_id(f"numberdeck-assignment-{assignment.pk}")
                              .set_tag(grade_column_tag(assignment.pk)))
    link = DeepLink(registration, kept["deployment_id"], settings)
    resources = [resource] if _accepts(settings, "ltiResourceLink") else []
    return settings.get("deep_link_return_url", ""), link.get_response_jwt(resources)
