"""The teacher's side of a class arena: starting one, the controls on the teacher's own screen,
the projector page and the standings as a CSV.

Every arena is fetched through `arena.selectors.arena_for_teacher`, so an arena of another
teacher's class is simply not found (404) and a student is turned away by `teacher_required`
(403). Views stay thin: writes are `arena.services` calls, whose `ArenaError` is shown to the
teacher in plain words with nothing changed.

Two audiences, two kinds of names: the teacher's own pages (controls, CSV) show full names,
ratings gained and every player's status; the projector, read by the whole room, shows what
arena/screen_context.py gives it and nothing more (first names and initials, no ratings).
"""

from __future__ import annotations

import csv

import segno
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy
from django.views.decorators.http import require_POST

from accounts.permissions import teacher_required
from accounts.typed_text import isolated, sentence_html
from arena import screen as arena_screen
from arena import selectors, services
from arena.forms import ArenaForm, initial_from_query
from arena.models import Arena, ArenaPlayer
from classroom.selectors import classes_for_teacher
from games import registry

MOST_IMPROVED = 3


def _arena(request, arena_id: int) -> Arena:
    arena = selectors.arena_for_teacher(teacher=request.user, arena_id=arena_id)
    if arena is None:
        raise Http404("No such arena")
    return arena


# ----- starting an arena -------------------------------------------------------------------

@teacher_required
def arena_new(request, classroom_id: int):
    classroom = get_object_or_404(classes_for_teacher(teacher=request.user), pk=classroom_id)
    if request.method == "POST":
        form = ArenaForm(request.POST, teacher=request.user, classroom=classroom)
        if form.is_valid():
            try:
                arena = services.arena_create(teacher=request.user, classroom=classroom,
                                              **form.service_kwargs())
            except services.ArenaError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, sentence_html(_("“%(title)s” is ready. Put the projector screen up: "
                                                          "students join with the code %(code)s."),
                                                        {"title": isolated(arena.title), "code": arena.join_code}))
                return redirect("arena:control", arena_id=arena.pk)
    else:
        form = ArenaForm(teacher=request.user, classroom=classroom,
                         initial=initial_from_query(request.GET))
    template = "arena/new.html"
    if request.htmx and request.method == "GET":
        template += "#fields"  # the game changed: only the fields that depend on it
    return render(request, template, {"form": form, "classroom": classroom})


# ----- the teacher's own screen --------------------------------------------------------------

def _most_improved(arena: Arena, players: list[ArenaPlayer]) -> list[dict]:
    gains = selectors.rating_gains(arena=arena)
    ranked = sorted((p for p in players if p.games and gains.get(p.pk, 0) > 0),
                    key=lambda p: (-gains[p.pk], p.user.display_name))
    return [{"name": p.user.display_name, "public_name": p.public_name, "gain": round(gains[p.pk])}
            for p in ranked[:MOST_IMPROVED]]


def _control_context(request, arena: Arena) -> dict:
    players = selectors.standings(arena=arena)
    context = {
        "arena": arena, "game_spec": registry.get(arena.key), "players": players,
        "counts": selectors.counts(arena=arena),
        "late": [p for p in players if p.status == ArenaPlayer.Status.LATE],
        "finished": arena.status == Arena.Status.FINISHED,
    }
    if context["finished"]:
        if arena.with_points:
            context["podium"] = selectors.podium(arena=arena)
        else:
            context["bests"] = sorted((p for p in players if p.best_score is not None),
                                      key=lambda p: (-p.best_score, p.user.display_name))
            context["improved"] = _most_improved(arena, players)
            context["totals"] = selectors.class_totals(arena=arena)
    return context


@teacher_required
def control(request, arena_id: int):
    arena = _arena(request, arena_id)
    context = _control_context(request, arena)
    # "Take out" asks first, on this page: the question names the student (the link comes
    # from the standings, which refresh every 2 s and so cannot hold an open question).
    out = request.GET.get("out", "")
    if out.isdigit():
        context["confirm_out"] = next((p for p in context["players"] if p.pk == int(out)
                                       and p.status != ArenaPlayer.Status.OUT), None)
    return render(request, "arena/control.html", context)


@teacher_required
def control_live(request, arena_id: int):
    arena = _arena(request, arena_id)
    return render(request, "arena/_control_live.html", _control_context(request, arena))


def _act(request, arena_id: int, action, done: str, **kwargs):
    """Run one control (the arena checked first); ArenaError: said, nothing changed."""
    arena = _arena(request, arena_id)
    try:
        action(arena_id=arena.pk, **kwargs)
    except services.ArenaError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect("arena:control", arena_id=arena.pk)


@require_POST
@teacher_required
def start(request, arena_id: int):
    return _act(request, arena_id, services.arena_start,
                _("The arena has started: the clock is running and students are being seated."))


@require_POST
@teacher_required
def pause(request, arena_id: int):
    return _act(request, arena_id, services.arena_pause,
                _("Paused: the clock has stopped and nobody new is seated. Games in play go on."))


@require_POST
@teacher_required
def resume(request, arena_id: int):
    return _act(request, arena_id, services.arena_resume,
                _("The arena is running again: the clock goes on from where it stopped."))


@require_POST
@teacher_required
def end(request, arena_id: int):
    stop_games = request.POST.get("stop_games") == "1"
    done = (_("Finished: the games still playing were stopped and count for nobody.")
            if stop_games else
            _("Ending: nobody new is seated. Games still playing finish and count, then the arena ends."))
    return _act(request, arena_id, services.arena_end, done, stop_games=stop_games)


@require_POST
@teacher_required
def let_in(request, arena_id: int):
    arena = _arena(request, arena_id)
    if request.POST.get("all") == "1":
        ids = list(arena.players.filter(status=ArenaPlayer.Status.LATE).values_list("pk", flat=True))
    else:
        ids = [int(v) for v in request.POST.getlist("player") if v.isdigit()]
    try:
        count = services.arena_let_in(arena_id=arena.pk, player_ids=ids)
    except services.ArenaError as exc:
        messages.error(request, str(exc))
    else:
        if count:
            messages.success(request, ngettext(
                "Let in: %(count)s student will be seated at the next table.",
                "Let in: %(count)s students will be seated at the next table.", count) % {"count": count})
        else:
            messages.info(request, _("Nobody was waiting to be let in."))
    return redirect("arena:control", arena_id=arena.pk)


def _player(arena: Arena, player_id: int) -> ArenaPlayer:
    player = arena.players.select_related("user").filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player")
    return player


@require_POST
@teacher_required
def take_out(request, arena_id: int, player_id: int):
    arena = _arena(request, arena_id)
    name = _player(arena, player_id).user.display_name
    return _act(request, arena.pk, services.arena_take_out,
                _("%(name)s is out of the arena. A game they were playing ended and counts as their loss.")
                % {"name": name},
                player_id=player_id)


@require_POST
@teacher_required
def let_back(request, arena_id: int, player_id: int):
    arena = _arena(request, arena_id)
    name = _player(arena, player_id).user.display_name
    return _act(request, arena.pk, services.arena_let_back,
                _("%(name)s is back in and waits for the next table.") % {"name": name}, player_id=player_id)


# ----- the standings as a file -----------------------------------------------------------------

# The header is in the teacher's language; the values stay locale-neutral (plain integers), so
# any spreadsheet reads them.
CSV_HEADER = [pgettext_lazy("CSV column", "Place"), pgettext_lazy("CSV column", "Name"),
              pgettext_lazy("CSV column", "Class"), pgettext_lazy("CSV column", "Points"),
              pgettext_lazy("CSV column", "Games"), pgettext_lazy("CSV column", "Wins"),
              pgettext_lazy("CSV column", "Draws"), pgettext_lazy("CSV column", "Losses"),
              pgettext_lazy("CSV column", "Best streak"), pgettext_lazy("CSV column", "Status")]


def standings_rows(arena: Arena) -> list[list]:
    """The CSV's rows: the control page's standings (the same selector), full names."""
    return [[p.place, p.user.display_name, selectors.player_class(arena=arena, student=p.user).name,
             p.points, p.games, p.wins, p.draws, p.losses, p.best_streak, p.get_status_display()]
            for p in selectors.standings(arena=arena)]


@teacher_required
def standings_csv(request, arena_id: int):
    arena = _arena(request, arena_id)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    name = slugify(arena.title) or "arena"
    # The file's name stays ASCII and English (a header must be Latin-1; it is no sentence).
    response["Content-Disposition"] = f'attachment; filename="{name}-standings.csv"'
    writer = csv.writer(response)
    writer.writerow([str(column) for column in CSV_HEADER])
    writer.writerows(standings_rows(arena))
    return response


# ----- the projector -------------------------------------------------------------------------

@teacher_required
def screen(request, arena_id: int):
    arena = _arena(request, arena_id)
    join_url = request.build_absolute_uri(reverse("arena:join_link", args=[arena.join_code]))
    qr = segno.make(join_url, error="m").svg_inline(scale=8, dark="#1d2433", light="#ffffff",
                                                    omitsize=True)
    return render(request, "arena/screen.html", {
        "arena": arena, "game_spec": registry.get(arena.key), "join_url": join_url,
        "join_page": request.build_absolute_uri(reverse("arena:join")),
        "qr": mark_safe(qr),  # segno's own SVG markup, made from our URL
        "live": mark_safe(arena_screen.render(arena=arena)),  # a rendered template
    })
