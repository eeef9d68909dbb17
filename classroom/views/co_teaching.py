"""Co-teachers: see who teaches a class, invite by e-mail, accept an invitation, leave."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.permissions import is_student, is_teacher, may_accept_invite, teacher_required
from accounts.typed_text import isolated, sentence_html

from .. import selectors, services
from ..forms import InviteForm
from .common import confirm, teacher_class

# An invitation link opened before signing in is remembered, so that after signing in (or
# signing up, which lands on "My classes") the teacher is offered the invitation again.
SESSION_KEY = "pending_co_teacher_invite"


def pending_invite_for(request):
    """The remembered invitation, if it is still usable, was sent to this teacher's address,
    and is not already accepted by them."""
    token = request.session.get(SESSION_KEY)
    invite = selectors.invite_by_token(token=token) if token else None
    if invite is None or not invite.is_usable(timezone.now()) \
            or not may_accept_invite(request.user, invite) \
            or invite.classroom.teachers.filter(pk=request.user.pk).exists():
        request.session.pop(SESSION_KEY, None)
        return None
    return {"invite": invite, "url": reverse("classroom:invite_accept", args=[token])}


@teacher_required
def co_teachers(request, pk: int):
    """Who teaches the class; posting here sends an invitation."""
    classroom = teacher_class(request, pk)
    form = InviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            invite = services.co_teacher_invite(
                classroom=classroom, invited_by=request.user, email=form.cleaned_data["email"],
                link_for=lambda token: request.build_absolute_uri(
                    reverse("classroom:invite_accept", args=[token])))
        except services.InviteError as exc:
            form.add_error("email", str(exc))
        else:
            messages.success(request, _("Invitation sent to %(email)s. The link works once, for 7 days.")
                             % {"email": invite.email})
            return redirect("classroom:co_teachers", pk=classroom.pk)
    return render(request, "classroom/co_teachers.html", {
        "classroom": classroom, "form": form,
        "teachers": selectors.teachers_of_class(classroom=classroom),
        "invites": selectors.pending_invites_of_class(classroom=classroom),
    })


@teacher_required
def co_teacher_remove(request, pk: int, teacher_id: int):
    classroom = teacher_class(request, pk)
    teacher = get_object_or_404(selectors.teachers_of_class(classroom=classroom)
                                .exclude(pk=classroom.owner_id), pk=teacher_id)
    leaving = teacher.pk == request.user.pk
    if request.method == "POST":
        services.co_teacher_remove(classroom=classroom, teacher=teacher)
        if leaving:
            messages.success(request, sentence_html(_("You no longer teach “%(class_name)s”."),
                                                    {"class_name": isolated(classroom.name)}))
            return redirect("classroom:teacher_home")
        messages.success(request, sentence_html(_("%(name)s no longer teaches “%(class_name)s”."),
                                                {"name": teacher.display_name, "class_name": isolated(classroom.name)}))
        return redirect("classroom:co_teachers", pk=classroom.pk)
    values = {"name": teacher.display_name, "class_name": classroom.name}
    if leaving:
        return confirm(
            request, title=_("Leave the class?"), button=_("Leave the class"),
            question=sentence_html(_("Stop teaching “%(class_name)s”?"),
                                   {**values, "class_name": isolated(classroom.name)}),
            details=[_("The class stays as it is; only you will no longer see it."),
                     _("Another teacher of the class can invite you again later.")],
            cancel_url=reverse("classroom:co_teachers", args=[classroom.pk]))
    return confirm(
        request, title=_("Remove %(name)s?") % values, button=_("Remove co-teacher"),
        question=sentence_html(_("Remove %(name)s from “%(class_name)s”?"),
                               {**values, "class_name": isolated(classroom.name)}),
        details=[_("The class stays as it is; only %(name)s will no longer see it.") % values,
                 _("Another teacher of the class can invite them again later.")],
        cancel_url=reverse("classroom:co_teachers", args=[classroom.pk]))


@teacher_required
@require_POST
def invite_withdraw(request, pk: int, invite_id: int):
    classroom = teacher_class(request, pk)
    invite = get_object_or_404(selectors.pending_invites_of_class(classroom=classroom), pk=invite_id)
    services.co_teacher_invite_withdraw(invite=invite)
    messages.success(request, _("The invitation to %(email)s is withdrawn; its link no longer works.")
                     % {"email": invite.email})
    return redirect("classroom:co_teachers", pk=classroom.pk)


def invite_accept(request, token: str):
    """The e-mailed link. Anyone may open it; only the teacher signed in with the address it
    was sent to can accept it (accounts/permissions.py `may_accept_invite`)."""
    invite = selectors.invite_by_token(token=token)
    if invite is None:
        return render(request, "classroom/invite_invalid.html", {"reason": "unknown"}, status=404)
    if not invite.is_usable(timezone.now()):
        reason = "used" if invite.accepted_at else "withdrawn" if invite.withdrawn_at else "expired"
        return render(request, "classroom/invite_invalid.html", {"reason": reason, "invite": invite},
                      status=410)
    if is_student(request.user):
        raise PermissionDenied(_("Invitations to co-teach are for teachers."))
    if not is_teacher(request.user):
        request.session[SESSION_KEY] = token
        return render(request, "classroom/invite_accept.html", {"invite": invite, "signed_in": False})
    already = invite.classroom.teachers.filter(pk=request.user.pk).exists()
    if not already and not may_accept_invite(request.user, invite):
        # A forwarded link: say whose it is; a POST is refused and changes nothing.
        return render(request, "classroom/invite_accept.html",
                      {"invite": invite, "signed_in": True, "someone_else": True},
                      status=403 if request.method == "POST" else 200)
    if request.method == "POST" and not already:
        try:
            classroom = services.co_teacher_invite_accept(invite=invite, teacher=request.user)
        except services.InviteError:  # used in another tab a moment ago
            return render(request, "classroom/invite_invalid.html", {"reason": "used"}, status=410)
        request.session.pop(SESSION_KEY, None)
        messages.success(request, sentence_html(_("You now co-teach “%(class_name)s”."),
                                                {"class_name": isolated(classroom.name)}))
        return redirect("classroom:class_detail", pk=classroom.pk)
    return render(request, "classroom/invite_accept.html",
                  {"invite": invite, "signed_in": True, "already": already})
