"""Co-teaching: invite a teacher by an e-mailed link; accepting gives the same rights, except
archiving, restoring and deleting the class, which stay the owner's (accounts/permissions.py).

The link carries a random token; only its hash is stored. A link works once, expires, and
only the teacher signed in with the invited address can accept it.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Callable

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.language import user_language
from accounts.membership import membership_changed
from accounts.models import User
from accounts.permissions import may_accept_invite

from ..models import Classroom, CoTeacherInvite
from ..selectors import hash_invite_token, pending_invites_of_class

INVITE_LIFETIME = timedelta(days=7)


class InviteError(ValueError):
    """An invitation that cannot be sent or accepted; the message is for a teacher."""


@transaction.atomic
def co_teacher_invite(*, classroom: Classroom, invited_by: User, email: str,
                      link_for: Callable[[str], str]) -> CoTeacherInvite:
    """Create an invitation and e-mail its link (`link_for(token)` builds the absolute URL).

    A new invitation to the same address replaces the older one, so only one link is live.
    """
    email = User.objects.normalize_email(email).strip().lower()
    if classroom.teachers.filter(email__iexact=email).exists():
        raise InviteError(_("%(email)s already teaches this class.") % {"email": email})
    now = timezone.now()
    pending_invites_of_class(classroom=classroom).filter(email__iexact=email).update(withdrawn_at=now)
    token = secrets.token_urlsafe(32)
    invite = CoTeacherInvite.objects.create(
        classroom=classroom, email=email, invited_by=invited_by,
        token_hash=hash_invite_token(token), expires_at=now + INVITE_LIFETIME)
    context = {"invite": invite, "link": link_for(token), "days": INVITE_LIFETIME.days,
               "inviter": invited_by.display_name, "classroom": classroom}
    # Sent after commit: a rolled-back invitation must not leave a link in someone's inbox.
    transaction.on_commit(lambda: _send_invite(email=email, context=context))
    return invite


def invite_language(*, email: str) -> str:
    """The language the invitation is written in: the invited teacher's own, when they already
    have an account that chose one; else the site's default (the sender's language says
    nothing about the reader's)."""
    recipient = User.objects.filter(email__iexact=email, role=User.Role.TEACHER).first()
    return (user_language(user=recipient) if recipient else "") or settings.LANGUAGE_CODE


def _send_invite(*, email: str, context: dict) -> None:
    with translation.override(invite_language(email=email)):
        send_mail(subject=render_to_string("classroom/email/invite_subject.txt", context).strip(),
                  message=render_to_string("classroom/email/invite_body.txt", context),
                  from_email=None, recipient_list=[email])


@transaction.atomic
def co_teacher_invite_accept(*, invite: CoTeacherInvite, teacher: User) -> Classroom:
    # Lock the row: two tabs accepting the same link at once must not both succeed.
    invite = CoTeacherInvite.objects.select_for_update().select_related("classroom").get(pk=invite.pk)
    if not invite.is_usable(timezone.now()):
        raise InviteError(_("This invitation has already been used, withdrawn, or has expired."))
    if teacher.role != User.Role.TEACHER:
        raise InviteError(_("Only a teacher account can accept an invitation to co-teach."))
    if not may_accept_invite(teacher, invite):
        raise InviteError(invite.for_someone_else)
    invite.classroom.teachers.add(teacher)
    invite.accepted_at = timezone.now()
    invite.accepted_by = teacher
    invite.save(update_fields=["accepted_at", "accepted_by"])
    return invite.classroom


def co_teacher_invite_withdraw(*, invite: CoTeacherInvite) -> None:
    if invite.accepted_at is None and invite.withdrawn_at is None:
        invite.withdrawn_at = timezone.now()
        invite.save(update_fields=["withdrawn_at"])


def co_teacher_remove(*, classroom: Classroom, teacher: User) -> None:
    """Take a co-teacher off the class (or let them leave it). The owner always stays."""
    if teacher.pk == classroom.owner_id:
        raise InviteError(_("The teacher who created the class cannot be removed from it."))
    classroom.teachers.remove(teacher)
    # Their open dashboards and watched tables of this class close at the next push.
    membership_changed(classroom.pk)
