"""A student's side of the class arena: joining (by the code on the big screen, or its QR
code), their arena page, and taking a break. Thin views: arena.services decides, and
arena.me renders what the page and the student's socket share.

A student seated at a game in play is sent straight to that table, so one who closed the tab
and comes back lands where they were playing. Joining is a POST, never a GET (a link preview
or a prefetch must not join anyone), except for the QR link, whose whole point is to join.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.permissions import is_teacher, student_required
from arena import me, selectors, services
from arena.models import Arena
from arena.services import ArenaError
from arena.services.arrivals import arena_page_opened
from games import registry


@student_required
def join_by_code(request):
    """"Type the arena code from the big screen": a wrong code says why and joins nothing."""
    code, error = "", ""
    if request.method == "POST":
        code = request.POST.get("code", "")[:20]
        try:
            arena = services.arena_by_code(raw_code=code)
            services.arena_join(student=request.user, arena_id=arena.pk)
        except ArenaError as exc:
            error = str(exc)
        else:
            return redirect("arena:play", arena_id=arena.pk)
    return render(request, "arena/join.html", {"code": code, "error": error},
                  status=400 if error else 200)


def join_code_link(request, code: str):
    """The big screen's QR code. A signed-in student joins and lands on their arena page; a
    signed-out one goes through the student sign-in (student_required: /join), after which
    their home page shows the arena's card to join from (the sign-in does not carry ?next=).
    A teacher who runs the arena goes to its controls."""
    if is_teacher(request.user):
        try:
            arena = services.arena_by_code(raw_code=code)
        except ArenaError:
            raise Http404("No arena with that code.")
        if selectors.arena_for_teacher(teacher=request.user, arena_id=arena.pk) is None:
            raise Http404("No arena with that code.")
        return redirect("arena:control", arena_id=arena.pk)
    return _join_from_link(request, code)


@student_required
def _join_from_link(request, code: str):
    try:
        arena = services.arena_by_code(raw_code=code)
        services.arena_join(student=request.user, arena_id=arena.pk)
    except ArenaError as exc:
        return render(request, "arena/join.html",
                      {"code": code, "error": str(exc)}, status=400)
    return redirect("arena:play", arena_id=arena.pk)


@student_required
def play(request, arena_id: int):
    """The student's arena page: where they are, and their "You" box (arena/me.py). Not yet a
    player but allowed: a "Join the arena" button (POST)."""
    player = selectors.player_for_student(student=request.user, arena_id=arena_id)
    if player is None:
        arena = Arena.objects.filter(pk=arena_id).first()
        if arena is None or not services.may_join(arena=arena, student=request.user):
            raise Http404("No arena here.")
        if request.method == "POST":
            try:
                services.arena_join(student=request.user, arena_id=arena.pk)
            except ArenaError as exc:
                messages.info(request, str(exc))
                return redirect("classroom:student_home")
            return redirect("arena:play", arena_id=arena.pk)
        return render(request, "arena/play.html", {"arena": arena, "player": None,
                                                   "game_name": registry.game_name(arena.key)})
    if request.method == "POST":  # "Join the arena" pressed twice: already in
        return redirect("arena:play", arena_id=arena_id)
    arena_page_opened(player=player)  # a classmate held for this student goes to the table now
    table = me.table_url(player)
    if table and not selectors.seconds_until_table_opens(player=player):
        return redirect(table)
    context = me.me_context(player)
    context["game_name"] = registry.game_name(player.arena.key)
    return render(request, "arena/play.html", context)


@student_required
@require_POST
def take_break(request, arena_id: int):
    return _own_change(request, arena_id, services.arena_rest)


@student_required
@require_POST
def come_back(request, arena_id: int):
    return _own_change(request, arena_id, services.arena_back)


def _own_change(request, arena_id: int, change):
    try:
        change(student=request.user, arena_id=arena_id)
    except ArenaError:
        raise Http404("No arena here.")
    return redirect("arena:play", arena_id=arena_id)
