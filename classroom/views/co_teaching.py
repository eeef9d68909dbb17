"""Co-teachers: see who teaches a class, invite by e-mail, accept an invitation, leave."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.permissions import is_student, is_teacher, may_accept_invite, teacher_required

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
            messages.success(request, f"Invitation sent to {invite.email}. The link works once, "
                                      "for 7 days.")
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
            messages.success(request, f"You no longer teach “{classroom.name}”.")
            return redirect("classroom:teacher_home")
        messages.success(request, f"{teacher.display_name} no longer teaches “{classroom.name}”.")
        return redirect("classroom:co_teachers", pk=classroom.pk)
    who = "you" if leaving else teacher.display_name
    return confirm(
        request, title="Leave the class?" if leaving else f"Remove {teacher.display_name}?",
        button="Leave the class" if leaving else "Remove co-teacher",
        question=(f"Stop teaching “{classroom.name}”?" if leaving
                  else f"Remove {teacher.display_name} from “{classroom.name}”?"),
        details=[f"The class stays as it is; only {who} will no longer see it.",
                 "Another teacher of the class can invite them again later."],
        cancel_url=reverse("classroom:co_teachers", args=[classroom.pk]))


@teacher_required
@require_POST
def invite_withdraw(request, pk: int, invite_id: int):
    classroom = teacher_class(request, pk)
    invite = get_object_or_404(selectors.pending_invites_of_class(classroom=classroom), pk=invite_id)
    services.co_teacher_invite_withdraw(invite=invite)
    messages.success(request, f"The invitation to {invite.email} is withdrawn; its link no longer works.")
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
        raise PermissionDenied("Invitations to co-teach are for teachers.")
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
        messages.success(request, f"You now co-teach “{classroom.name}”.")
        return redirect("classroom:class_detail", pk=classroom.pk)
    return render(request, "classroom/invite_accept.html",
                  {"invite": invite, "signed_in": True, "already": already})
