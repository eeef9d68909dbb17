"""Skill report pages: the teacher dashboard, the moves behind a number, the times-table heat
map, one student's report, exports and jobs; and the student's own "My progress".

Every teacher page fetches the class through `teacher_class` (the teacher's own active
classes: anything else is a 404), and everything else through that class.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.language import language_is_offered
from accounts.permissions import student_required, teacher_required
from classroom import presets as classroom_presets
from classroom import selectors as classroom_selectors
from classroom.views.common import teacher_class
from games import practice, registry
from games.engine.skills import FACT_RANGE
from games.ratings import JUST_RIGHT
from games.selectors.ratings import student_ratings

from . import charts, selectors, services
from .exports import csv as csv_export
from .exports import jobs, pdf, rows
from .families import family_of
from .measures import measure_by_id
from .models import RecomputeJob
from .rendering import dashboard_context
from .words import child_range_sentence, child_totals_sentence, growth_sentence, student_sentence


def _bad_request(request, message: str, classroom=None):
    return render(request, "reports/bad_request.html", {"message": message, "classroom": classroom},
                  status=400)


def _assignment(request, classroom):
    """The ?assignment= filter: None for all games; a foreign or bad id is a 404."""
    raw = request.GET.get("assignment")
    if not raw:
        return None
    found = selectors.class_assignment(classroom=classroom, pk=raw)
    if found is None:
        raise Http404("No such assignment in this class.")
    return found


def _student(request, classroom, raw):
    student = selectors.class_student(classroom=classroom, pk=raw)
    if student is None:
        raise Http404("No such student in this class.")
    return student


# ----- the dashboard ----------------------------------------------------------------

@teacher_required
def dashboard(request, pk: int):
    classroom = teacher_class(request, pk)
    assignment = _assignment(request, classroom)
    context = dashboard_context(classroom=classroom, assignment=assignment)
    if assignment is not None and assignment.focus:
        # A "Practise this" assignment's report: each student's skill before it and in it.
        context["outcomes"] = selectors.focus_outcomes(classroom=classroom, assignment=assignment)
        context["focused"] = assignment
    return render(request, "reports/dashboard.html", context)


# ----- "Practise this" ------------------------------------------------------------------

PRACTICE_GAMES = 3      # the prefilled number of games
PRACTICE_DAYS = 7       # the prefilled due date: a week from today


def _nothing_to_practise(request, classroom, students, message: str,
                         heading: str = gettext_lazy("Nothing to practise yet")):
    """Why "Practise this" has nothing to set, in words, with the ways on: a page, not an
    error (the link was read; there is just nothing to practise)."""
    return render(request, "reports/nothing_to_practise.html", {
        "classroom": classroom, "message": message, "heading": heading,
        "student": students[0] if len(students) == 1 else None})


@teacher_required
def practise(request, pk: int):
    """A report's "Practise this": the assignment form, prefilled (game, level, focus options,
    number of games, due date, who) for one student, a group (several ?student=) or the class
    (none). Only a redirect to the form: a GET creates nothing; the teacher checks and sets it.
    The game and level are those the evidence came from (?game=: one game of the class, a
    rule-errors flag's). Without ?measure= (the Practise link beside a student's name) what
    the student most needs is practised (`selectors.weakest_target`)."""
    classroom = teacher_class(request, pk)
    q = request.GET
    raw_students = q.getlist("student")
    if len(raw_students) > 200:
        return _bad_request(request, _("That link names too many students."), classroom)
    students = [_student(request, classroom, raw) for raw in raw_students]
    measure_id, detail, raw_game = q.get("measure", ""), q.get("detail", ""), q.get("game", "")
    if len(detail) > 40 or (raw_game and (not raw_game.isdigit() or len(raw_game) > 18)):
        return _bad_request(request, _("That link has a part we could not read."), classroom)
    game_id = int(raw_game) if raw_game else None
    if not measure_id:
        if len(students) != 1:
            return _bad_request(request, _("Choose a skill to practise from the report."), classroom)
        target = selectors.weakest_target(classroom=classroom, student=students[0],
                                          flags=selectors.needs_help(classroom=classroom, student=students[0]))
        if target is None:
            return _nothing_to_practise(request, classroom, students, selectors.nothing_to_practise(
                classroom=classroom, students=students, measure=None))
        measure_id, detail, game_id = target.measure, target.detail, target.game_id
    measure = measure_by_id(measure_id)
    if measure is None:
        return _bad_request(request, _("That link does not name a skill we measure. Go back to the "
                                       "report and choose Practise this beside a skill."), classroom)
    why = selectors.nothing_to_practise(classroom=classroom, students=students, measure=measure,
                                        detail=detail)
    if why:
        return _nothing_to_practise(request, classroom, students, why)
    if game_id is not None:
        origin = selectors.game_origin(classroom=classroom, game_id=game_id)
        if origin is None:
            raise Http404("No such game in this class.")
    else:
        origin = selectors.practice_origin(classroom=classroom, students=students or None,
                                           measure=measure_id, detail=detail)
    game, level = origin if origin is not None else (None, None)
    weakest = () if detail else selectors.weakest_details(classroom=classroom, measure=measure_id,
                                                          students=students or None)
    focus = practice.focus_for(measure_id, detail, weakest, game=game)
    if focus is None:
        return _nothing_to_practise(
            request, classroom, students, practice.why_no_focus(measure_id),
            heading=_("No practice game for this skill"))
    spec = registry.spec_for(focus.game)
    if focus.game != game or spec.preset(level or "") is None:
        level = practice.preset_for(focus.game, focus.options) or spec.presets[0].key
    query = {
        "game": focus.game,
        # The level the evidence came from: a practice is the child's own game, focused.
        "preset": level,
        # Translators: the title of a new assignment, "Practise 7 × 8" (the teacher can change it).
        "title": (_("Practise %(skill)s") % {"skill": focus.label})[:100],
        "goal": "play", "goal_count": PRACTICE_GAMES,
        "due_on": (timezone.localdate() + timedelta(days=PRACTICE_DAYS)).isoformat(),
        "audience": "chosen" if students else "class",
        "student": [s.pk for s in students],
        "focus": json.dumps(focus.as_json()),
        "focus_cards": "on",
    }
    if JUST_RIGHT in classroom_presets.bot_level_choices(focus.game):
        query["bot_level"] = JUST_RIGHT
    query["students"] = query.pop("student")
    url = reverse("classroom:assignment_create", args=[classroom.pk])
    return redirect(f"{url}?{urlencode(query, doseq=True)}")


@teacher_required
@require_POST
def recompute(request, pk: int):
    """A recompute already on its way is shown rather than a second one; one whose worker died
    never is (services.class_recompute_start). Redis being down never makes this fail: the
    job page then says reports are paused."""
    classroom = teacher_class(request, pk)
    job = services.class_recompute_start(classroom=classroom, requested_by=request.user)
    messages.success(request, _("Working out the reports again. This page shows how far it got."))
    return redirect("reports:job", pk=classroom.pk, job_id=job.pk)


# ----- the moves behind a number ------------------------------------------------------

@teacher_required
def moves(request, pk: int):
    classroom = teacher_class(request, pk)
    q = request.GET
    measure = measure_by_id(q.get("measure", ""))
    if measure is None:
        return _bad_request(request, _("That link does not name a skill we measure. Go back to the "
                                       "dashboard and pick a number in the skill table."), classroom)
    student = _student(request, classroom, q["student"]) if q.get("student") else None
    missed = {"1": True, "0": False, "all": None}.get(q.get("missed", "1"), "bad")
    week = None
    try:
        if q.get("week"):
            week = date.fromisoformat(q["week"])
    except ValueError:
        week = "bad"
    detail = q.get("detail")
    if missed == "bad" or week == "bad" or (detail is not None and len(detail) > 40):
        return _bad_request(request, _("That link has a part we could not read. Go back to the "
                                       "dashboard and follow a number from there."), classroom)
    game_id = q.get("game")
    if game_id is not None and not game_id.isdigit():
        return _bad_request(request, _("That game number is not a number."), classroom)
    page = q.get("page", "1")
    if not page.isdigit() or not 1 <= int(page) <= 100_000:
        return _bad_request(request, _("That page number is not one we have."), classroom)
    drill = selectors.evidence_behind(
        classroom=classroom, measure=measure.id, student=student, detail=detail, missed=missed,
        week=week, assignment=_assignment(request, classroom),
        game_id=int(game_id) if game_id else None, page=int(page))
    query = q.copy()
    query.pop("page", None)
    shown = query.copy()
    shown.pop("missed", None)
    return render(request, "reports/moves.html", {
        "query": query.urlencode(), "query_all_kinds": shown.urlencode(),
        "lines": selectors.with_verdicts(drill.rows),
        "classroom": classroom, "measure": measure, "student": student, "drill": drill,
        "missed": missed, "week": week, "detail": detail,
    })


# ----- the times-table heat map -----------------------------------------------------

@teacher_required
def facts(request, pk: int):
    classroom = teacher_class(request, pk)
    student = _student(request, classroom, request.GET["student"]) if request.GET.get("student") else None
    return render(request, "reports/facts.html", {
        "classroom": classroom, "student": student,
        "students": classroom_selectors.students_of_class(classroom=classroom),
        "grid": selectors.fact_grid(classroom=classroom, student=student),
        "range": FACT_RANGE,
    })


# ----- one student ------------------------------------------------------------------

@teacher_required
def student_report(request, pk: int, student_id: int):
    classroom = teacher_class(request, pk)
    student = _student(request, classroom, student_id)
    measures = selectors.student_measures(classroom=classroom, student=student)
    charted = {sm.cell.measure.id: charts.trend_svg(sm.trend, chart_id=f"st-{i}", subject=student.display_name)
               if sm.trend else "" for i, sm in enumerate(measures)}
    flags = selectors.needs_help(classroom=classroom, student=student)
    practise_target = selectors.weakest_target(classroom=classroom, student=student, flags=flags)
    return render(request, "reports/student.html", {
        "classroom": classroom, "student": student, "languages": _languages_named(),
        "practise_target": practise_target,
        "practise_none": "" if practise_target else selectors.nothing_to_practise(
            classroom=classroom, students=[student], measure=None),
        "ratings": student_ratings(student=student),
        "outcomes": selectors.focus_outcomes(classroom=classroom, student=student),
        "measures": bool(measures),
        "families": [(fam, [(sm, charted[sm.cell.measure.id]) for sm in group])
                     for fam, group in selectors.measures_by_family(measures)],
        "summary": selectors.student_summary(classroom=classroom, student=student),
        "grid": selectors.fact_grid(classroom=classroom, student=student),
        "range": FACT_RANGE,
        "flags": flags,
    })


@teacher_required
def student_pdf(request, pk: int, student_id: int):
    """The parents' report, in the language chosen beside its button (?language=: the parents'
    may not be the teacher's), else the teacher's own."""
    classroom = teacher_class(request, pk)
    student = _student(request, classroom, student_id)
    chosen = request.GET.get("language", "")
    language = chosen if language_is_offered(chosen) else translation.get_language()
    with translation.override(language):
        body = pdf.student_pdf(classroom=classroom, student=student)
    response = HttpResponse(body, content_type="application/pdf")
    name = rows.filename(classroom, f"{student.display_name}-progress", "pdf")
    response["Content-Disposition"] = f'attachment; filename="{_ascii(name)}"'
    return response


def _languages_named() -> list[tuple[str, str]]:
    """(code, the language's name in itself) for the parents' report's language choice; a
    language Django has no name for (a test's pseudo-language) is left out."""
    named = []
    for code, _name in settings.LANGUAGES:
        try:
            named.append((code, translation.get_language_info(code)["name_local"]))
        except KeyError:
            continue
    return named


def _ascii(name: str) -> str:
    stem, _, ext = name.rpartition(".")
    return f"{slugify(stem) or 'report'}.{ext}"


# ----- exports and jobs ---------------------------------------------------------------

@teacher_required
def skills_csv(request, pk: int):
    """The small export (one row per student × measure), straight away."""
    classroom = teacher_class(request, pk)
    body = csv_export.csv_bytes(rows.skill_header(), rows.skill_rows(classroom=classroom))
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{rows.filename(classroom, "skills", "csv")}"'
    return response


@teacher_required
def exports(request, pk: int):
    classroom = teacher_class(request, pk)
    if request.method == "POST":
        fmt = request.POST.get("format", "")
        if fmt not in jobs.FORMATS:
            messages.error(request, _("Please choose one of the files below."))
            return redirect("reports:exports", pk=classroom.pk)
        job = jobs.export_start(classroom=classroom, requested_by=request.user, export_format=fmt,
                                language=translation.get_language() or "")
        return redirect("reports:job", pk=classroom.pk, job_id=job.pk)
    recent = list(selectors.recent_exports(classroom=classroom))
    return render(request, "reports/exports.html", {
        "classroom": classroom, "formats": jobs.FORMATS.items(), "keep_days": jobs.KEEP_FILES_DAYS,
        "recent": [(job, jobs.FORMATS.get(job.export_format, job.export_format)) for job in recent],
        "paused": any(job.state == RecomputeJob.PAUSED for job in recent),
        "students": classroom_selectors.students_of_class(classroom=classroom),
    })


def _job(request, pk: int, job_id: int) -> tuple:
    classroom = teacher_class(request, pk)
    job = selectors.class_job(classroom=classroom, pk=job_id)
    if job is None:
        raise Http404("No such job for this class.")
    return classroom, job


@teacher_required
def job(request, pk: int, job_id: int):
    """A job's progress (polled while it is live). POST is its Try again button: a failed or
    stopped job is replaced by a fresh one, a paused one is handed to the broker again
    (services.job_try_again), and the page of the job that is now on its way is shown."""
    classroom, job = _job(request, pk, job_id)
    if request.method == "POST":
        job = services.job_try_again(job=job, requested_by=request.user)
        if job.state == RecomputeJob.PAUSED:
            messages.warning(request, _("The server that makes reports still cannot be reached. "
                                        "This will start by itself when it is back."))
        return redirect("reports:job", pk=classroom.pk, job_id=job.pk)
    template = "reports/job.html#status" if request.htmx else "reports/job.html"
    return render(request, template, {"classroom": classroom, "job": job,
                                      "format_name": jobs.FORMATS.get(job.export_format, "")})


@teacher_required
def job_download(request, pk: int, job_id: int):
    classroom, job = _job(request, pk, job_id)
    if job.kind != RecomputeJob.Kind.EXPORT or job.status != jobs.READY or not job.file:
        raise Http404("This file is not ready.")
    try:
        handle = job.file.open("rb")
    except FileNotFoundError:
        raise Http404("This file is no longer kept. Please make it again.") from None
    return FileResponse(handle, as_attachment=True, filename=job.file.name.rsplit("/", 1)[-1])


# ----- the student's own page -------------------------------------------------------

@student_required
def my_progress(request):
    own = selectors.own_progress(student=request.user)
    groups: list[tuple] = []
    for om in own.measures:
        m, cell = om.measure, om.total
        if not m.has_misses:
            continue
        item = {
            "measure": m, "cell": cell,
            "sentence": student_sentence(m, cell.misses, cell.chances),
            "growth": growth_sentence(before=om.before, recent=om.recent),
            "likely": child_range_sentence(cell.misses, cell.chances),
            "great": cell.band.key == "strong",
        }
        family = family_of(m)
        if groups and groups[-1][0] is family:
            groups[-1][1].append(item)
        else:
            groups.append((family, [item]))
    ops = [{"cell": op, "sentence": op.child_sentence(), "great": op.band.key == "strong"}
           for op in own.ops]
    return render(request, "reports/my_progress.html", {
        "ratings": student_ratings(student=request.user),
        "given_away": child_totals_sentence(own.totals),
        "items": [item for _, group in groups for item in group], "groups": groups, "ops": ops,
        "facts": own.facts, "range": FACT_RANGE,
        "known": own.facts.known(), "practise": own.facts.practise(),
    })
