"""The administrators' roster page: upload a OneRoster bundle, read what it would change, and
apply it. Administrators only (accounts/permissions.py)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.permissions import administrator_required

from . import selectors, services
from .bundle import BundleError
from .forms import ApplyForm, BundleUploadForm
from .records import Bundle
from .words import summaries


@administrator_required
def upload(request):
    form = BundleUploadForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            pending = services.roster_upload(data=upload.read(), by=request.user, file_name=upload.name,
                                             source_name=form.cleaned_data["source"])
        except BundleError as exc:
            problems = exc.problems
            form.add_error(None, _("Nothing was changed: the roster has problems to fix first. Fix them in "
                                   "the school's system (or the files) and upload it again."))
        else:
            return redirect("rostering:preview", pk=pending.pk)
    return render(request, "rostering/upload.html", {
        "form": form, "problems": problems, "imports": selectors.recent_imports()})


@administrator_required
def preview(request, pk: int):
    pending = selectors.pending_import(pk=pk)
    if pending is None:
        raise Http404
    form = ApplyForm(request.POST or None)
    refused = ""
    if request.method == "POST" and form.is_valid():
        try:
            plan = services.roster_upload_apply(upload=pending, by=request.user,
                                                expected_digest=form.cleaned_data["digest"])
        except services.ApplyError as exc:
            refused = str(exc)
        else:
            messages.success(request, _("The roster is applied.") if not plan.is_empty else
                             _("Nothing needed changing: Numberdeck already matched this roster."))
            return redirect("rostering:upload")
    plan = services.roster_preview(bundle=Bundle.from_json(pending.bundle), source_name=pending.source.name)
    if request.method != "POST" or refused:
        form = ApplyForm(initial={"digest": plan.digest})  # what a send applies: the plan shown now
    return render(request, "rostering/preview.html", {
        "pending": pending, "plan": plan, "summaries": summaries(plan), "form": form, "refused": refused})
