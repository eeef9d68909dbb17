"""The LTI pages: the OIDC login initiation and the launch (both reached from the platform),
Numberdeck's key set, the administrators' page of platforms and the one-time link a platform
opens to register Numberdeck itself (dynamic registration). docs/lti.md."""

import logging

from django.contrib import messages
from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from lti_tool.views import jwks as lti_tool_jwks

from accounts.permissions import administrator_required, teacher_required
from accounts.student_classes import remember_working_class
from classroom import presets
from classroom.assignment_form import AssignmentForm, initial_from_query
from classroom.selectors import assignments_for_teacher, classes_for_teacher

from . import deep_linking, dynamic
from . import launch as protocol
from .forms import PlatformForm
from .registration import LinkUnusable, lti_platform_register, lti_platform_register_dynamic, \
    lti_registration_link_create
from .grades import lti_grade_post_again
from .models import GradePost
from .roster_sync import lti_roster_sync
from .selectors import lti_course_class_for_teacher, lti_grade_posts, lti_placements_for_teacher, lti_platforms, \
    lti_registration_links_usable
from .services import LaunchRefused, lti_launch_accept
from .tasks import sync_roster

log = logging.getLogger(__name__)
ANSWER_KEY = "lti_deep_linking_answer"
jwks = lti_tool_jwks  # Numberdeck's public keys, for the platforms (django-lti's view)


def _refused(request, message: str, status: int = 400):
    return render(request, "lti/refused.html", {"message": message}, status=status)


def _invalid(request, error: protocol.LaunchInvalid):
    log.info("LTI message refused: %s", error.reason)
    return _refused(request, _("Numberdeck could not check this message from the learning platform, so "
                               "nothing was opened. Go back to the course and open Numberdeck again; if it "
                               "happens again, tell the school's administrator."), 400)


@csrf_exempt  # the platform's form, from another site; the state and nonce protect it
@require_http_methods(["GET", "POST"])
def oidc_login(request):
    try:
        return protocol.login_redirect(request, launch_url=request.build_absolute_uri(reverse("lti:launch")))
    except protocol.LaunchInvalid as error:
        return _invalid(request, error)


@csrf_exempt  # the platform posts the id token from another site; its signature protects it
@require_POST
def launch(request):
    try:
        message = protocol.launch_validated(request)
        landing = lti_launch_accept(launch=message)
    except protocol.LaunchInvalid as error:
        return _invalid(request, error)
    except LaunchRefused as refusal:
        return _refused(request, refusal.message, refusal.status)
    login(request, landing.user, backend="django.contrib.auth.backends.ModelBackend")
    if landing.user.is_teacher and landing.course_class and landing.course_class.context.memberships_url:
        course_class_id = landing.course_class.pk  # the class list from the course, in a worker
        transaction.on_commit(lambda: sync_roster.delay(course_class_id))
    if landing.user.is_student:  # the course they came from chooses the class they work in
        remember_working_class(request, classroom_id=landing.classroom.pk)
    if message.is_deep_link_launch:
        key = deep_linking.deep_link_remember(session=request.session, launch=message, classroom=landing.classroom)
        return redirect("lti:deep_link", key)
    if landing.placement is not None:
        if landing.user.is_teacher:
            return redirect("lti:placement", landing.placement.pk)
        return redirect("classroom:assignment_start", landing.placement.assignment_id)
    if landing.user.is_teacher:
        return redirect("classroom:class_detail", landing.classroom.pk)
    return redirect("classroom:student_home")


@teacher_required
def deep_link(request, key: str):
    """The platform's "add an activity": the assignment form for the course's class; once set,
    the signed answer goes back to the platform (a form the browser posts)."""
    kept = deep_linking.deep_link_recalled(session=request.session, key=key)
    if kept is None:
        raise Http404("No such deep-linking request for this browser.")
    classroom = get_object_or_404(classes_for_teacher(teacher=request.user), pk=kept["classroom"])
    if request.method == "POST":
        form = AssignmentForm(request.POST, classroom=classroom)
        if form.is_valid():
            try:
                placement = deep_linking.lti_assignment_place(
                    teacher=request.user, classroom=classroom, context_id=kept["context"], **form.service_kwargs())
            except presets.PresetError as exc:
                form.add_error("preset", str(exc))
            else:
                return_url, answer = deep_linking.deep_link_answer(
                    kept=kept, assignment=placement.assignment,
                    launch_url=request.build_absolute_uri(reverse("lti:launch")))
                deep_linking.deep_link_forget(session=request.session, key=key)
                request.session[ANSWER_KEY] = {"return_url": return_url, "answer": answer,
                                               "assignment": placement.assignment_id}
                # A page of its own (a whole-page visit, config/boosted_forms.py), whose policy
                # lets its form post to the platform.
                return redirect("lti:deep_link_answer")
    else:
        form = AssignmentForm(classroom=classroom, initial=initial_from_query(request.GET))
    return render(request, "lti/deep_link.html", {"form": form, "classroom": classroom, "assignment": None})


@teacher_required
def deep_link_answer(request):
    """The signed answer, posted to the platform by the browser (a script sends the form)."""
    kept = request.session.pop(ANSWER_KEY, None)
    if kept is None:
        return redirect("classroom:teacher_home")
    assignment = get_object_or_404(assignments_for_teacher(teacher=request.user), pk=kept["assignment"])
    response = render(request, "lti/deep_link_answer.html", {
        "return_url": kept["return_url"], "answer": kept["answer"], "assignment": assignment})
    origin = dynamic.web_origin(kept["return_url"])
    if origin:  # the one form that posts to another site: the platform's return address
        response._csp_update = {"form-action": [origin]}
    return response


@teacher_required
def placement(request, pk: int):
    """A placed assignment: its progress, and the grades sent to the platform."""
    found = get_object_or_404(lti_placements_for_teacher(teacher=request.user).select_related(
        "assignment__classroom", "context"), pk=pk)
    return render(request, "lti/placement.html", {"placement": found, "assignment": found.assignment,
                                                  "posts": lti_grade_posts(placement=found)})


@teacher_required
@require_POST
def grade_post_again(request, pk: int):
    post = get_object_or_404(GradePost.objects.filter(
        placement__in=lti_placements_for_teacher(teacher=request.user)).select_related("placement", "student"), pk=pk)
    post = lti_grade_post_again(post=post)
    if post.state == GradePost.State.POSTED:
        messages.success(request, _("%(name)s's grade is posted.") % {"name": post.student.display_name})
    else:
        messages.error(request, _("%(name)s's grade could not be posted: %(reason)s")
                       % {"name": post.student.display_name, "reason": post.error})
    return redirect("lti:placement", post.placement_id)


def _course_class_or_404(request, classroom_id: int):
    found = lti_course_class_for_teacher(teacher=request.user, classroom_id=classroom_id)
    if found is None:
        raise Http404("No class from a course of this teacher's.")
    return found


@teacher_required
def roster(request, classroom_id: int):
    """A class from a course: its last sync with the course's members, and a button to sync now."""
    course_class = _course_class_or_404(request, classroom_id)
    return render(request, "lti/roster.html", {
        "course_class": course_class, "classroom": course_class.classroom,
        "sync": getattr(course_class, "roster_sync", None)})


@teacher_required
@require_POST
def roster_sync(request, classroom_id: int):
    course_class = _course_class_or_404(request, classroom_id)
    sync = lti_roster_sync(course_class_id=course_class.pk)
    if sync.succeeded:
        messages.success(request, _("The class list is in step with the course."))
    else:
        messages.error(request, _("The class list could not be synced: %(reason)s") % {"reason": sync.error})
    return redirect("lti:roster", classroom_id)


def _tool_addresses(request) -> dynamic.ToolAddresses:
    return dynamic.ToolAddresses(**{name: request.build_absolute_uri(reverse(f"lti:{name}"))
                                    for name in ("login", "launch", "jwks")})


def _platforms_page(request, form, **context):
    return render(request, "lti/platforms.html", {"form": form, "platforms": lti_platforms(),
                                                  "tool": _tool_addresses(request), **context})


@administrator_required
def platforms(request):
    form = PlatformForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        registration = lti_platform_register(**form.cleaned_data)
        messages.success(request, _("%(name)s is registered.") % {"name": registration.name})
        return redirect("lti:platforms")
    return _platforms_page(request, form)


@administrator_required
@require_POST
def registration_link(request):
    """A one-time link for dynamic registration, shown once on the platforms page."""
    token = lti_registration_link_create(administrator=request.user)
    link = request.build_absolute_uri(reverse("lti:register", args=[token]))
    return _platforms_page(request, PlatformForm(), registration_link=link)


def _registration_refused(request, reason: str, status: int):
    return _refused(request, _("Numberdeck could not register itself with this learning platform: %(reason)s")
                    % {"reason": reason}, status)


def _frameable_by(response, origin: str | None):
    """The platform shows the registration page in a frame of its own page: that platform's
    origin, and only it, may frame this one response."""
    if origin:
        response._csp_replace = {"frame-ancestors": [origin]}
        response.xframe_options_exempt = True
    return response


@require_GET
def register(request, token: str):
    """LTI Dynamic Registration: the platform opens the administrator's one-time link."""
    config_url = request.GET.get("openid_configuration", "")
    if not lti_registration_links_usable(token=token).exists():
        return _registration_refused(request, _(
            "This registration link has expired or has been used: make a new one on Numberdeck's page "
            "of learning platforms."), 403)  # framed by nobody: the link is no administrator's
    origin = dynamic.web_origin(config_url)
    try:
        config = dynamic.platform_configuration(url=config_url,
                                                registration_token=request.GET.get("registration_token", ""))
        registered = dynamic.register(config=config, registration_token=request.GET.get("registration_token", ""),
                                      tool=_tool_addresses(request))
        registration = lti_platform_register_dynamic(token=token, registered=registered)
    except dynamic.RegistrationFailed as error:
        log.info("LTI dynamic registration refused: %s", error.reason)
        return _frameable_by(_registration_refused(request, error.reason, 400), origin)
    except LinkUnusable:
        return _frameable_by(_registration_refused(request, _("This registration link has just been used."), 403),
                             origin)
    except IntegrityError:
        return _frameable_by(_registration_refused(
            request, _("This platform is already registered with this client ID."), 400), origin)
    return _frameable_by(render(request, "lti/registered.html", {"registration": registration,
                                                                 "platform_origin": origin}), origin)
