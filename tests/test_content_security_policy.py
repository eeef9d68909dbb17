"""The Content-Security-Policy (docs/csp.md), without a browser.

- Every URL the site has, asked for by a visitor, a teacher, a student and (the admin's URLs) an
  administrator, answers with the policy, strict: scripts, styles, images and sockets from this
  site only, no 'unsafe-inline' or 'unsafe-eval', never framed. Whatever the answer (a page, a
  redirect, 404, 405, a PDF), and the error pages too (403, 404, a refused form, 500).
- No page those requests rendered, and no template, has inline code the policy would block: a
  <script> with code in it, an on*= handler, a style attribute, a <style> block, a javascript:
  link, or htmx that needs eval (hx-on, a trigger filter, js: values). The browser tests
  (tests/browser/conftest.py) see what the policy actually blocked on every page they open.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.template import engines
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path, reverse

from accounts.services import student_create, teacher_sign_up
from arena.services import arena_create
from classroom.models import Assignment
from games.services import SeatSpec, game_create
from tests.clients import signed_in
from tests.conftest import classroom_of, module_world

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

# What the policy blocks in a page, each with the words a failure says.
INLINE = {
    "a <script> with code in it": re.compile(
        r"<script\b(?![^>]*\bsrc=)(?![^>]*\btype=[\"']application/json[\"'])[^>]*>", re.I),
    "a <style> block": re.compile(r"<style\b", re.I),
    "a style attribute": re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I),
    "an on*= handler": re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I),
    "a javascript: link": re.compile(r"=\s*[\"']?\s*javascript:", re.I),
    "hx-on (htmx evals it)": re.compile(r"\shx-on\b", re.I),
    "an hx-trigger filter (htmx evals it)": re.compile(r"hx-trigger\s*=\s*[\"'][^\"']*\[", re.I),
    "js: values (htmx evals them)": re.compile(
        r"\shx-(?:vals|vars|headers)\s*=\s*[\"']\s*(?:js:|javascript:)|\shx-vars\b", re.I),
}


def inline_code(html: str) -> list[tuple[str, str]]:
    """What in `html` the policy would block: (what, the line it is on) each."""
    found = []
    for what, pattern in INLINE.items():
        for match in pattern.finditer(html):
            start = html.rfind("\n", 0, match.start()) + 1
            end = html.find("\n", match.end())
            found.append((what, html[start:end if end != -1 else len(html)].strip()[:160]))
    return found


def directives(header: str) -> dict[str, str]:
    parts = [part.strip().split(None, 1) for part in header.split(";") if part.strip()]
    return {part[0]: part[1] if len(part) > 1 else "" for part in parts}


def policy_problems(response) -> list[str]:
    header = response.headers.get("Content-Security-Policy")
    if header is None:
        return ["no Content-Security-Policy header"]
    problems = [f"unsafe source {word}" for word in re.findall(r"'unsafe-[a-z-]+'", header)]
    if directives(header) != POLICY:
        problems.append(f"the policy is {header!r}")
    return problems


# ----- Every URL ---------------------------------------------------------------------------

def every_url_pattern(resolver=None, route: str = "", namespace: str = ""):
    """(the pattern's route, its name with namespace or None, its parameters) for every URL."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            inner = ":".join(filter(None, [namespace, entry.namespace]))
            yield from every_url_pattern(entry, route + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            name = ":".join(filter(None, [namespace, entry.name])) if entry.name else None
            yield route + str(entry.pattern), name, list(entry.pattern.regex.groupindex)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """A class with a student, an assignment, a table and an arena; an administrator. Built
    once for the module (its tests only read)."""
    with module_world(django_db_blocker):
        teacher = teacher_sign_up(name="Ms Rivera", email="rivera@school.test", password="correct-horse-42")
        classroom = classroom_of(teacher, join_code="ABC234")
        ann = student_create(classroom=classroom, display_name="Ann", picture_password=["cat", "sun", "tree"])
        ben = student_create(classroom=classroom, display_name="Ben", picture_password=["boat", "star", "apple"])
        assignment = Assignment.objects.create(classroom=classroom, title="Warm-up", game="smooth_operator",
                                               opponents="bots", bot_count=1, created_by=teacher)
        game = game_create(key="smooth_operator", classroom=classroom, seed=9, options={"target": 200},
                           seats=[SeatSpec("Ann", user=ann), SeatSpec("Ben", user=ben)])
        arena = arena_create(teacher=teacher, classroom=classroom, title="Friday arena", key="smooth_operator",
                             options={"target": 200}, minutes=10, mode="points")
        admin = get_user_model().objects.create_superuser(username="admin", email="admin@school.test",
                                                          password="x-admin-42")
        yield {"teacher": teacher, "student": ann, "admin": admin, "classroom": classroom.pk,
               "student_pk": ann.pk, "assignment": assignment.pk, "game": game.pk, "arena": arena.pk,
               "code": classroom.join_code}


def argument(world: dict, route: str, name: str) -> str:
    """A value for the URL parameter `name`: the world's row it names, else one that only has
    to fit (the answer is then 404 or similar, and still carries the policy)."""
    if name == "pk":
        for part, key in (("classes/", "classroom"), ("students/", "student_pk"), ("assignments/", "assignment"),
                          ("assignment/", "assignment")):
            if f"{part}<int:pk>" in route:
                return str(world[key])
        return "1"
    known = {"classroom_id": "classroom", "student_id": "student_pk", "game_id": "game", "arena_id": "arena",
             "code": "code"}
    if name in known:
        return str(world[known[name]])
    return {"key": "smooth_operator", "app_label": "classroom"}.get(name, "1")


def url_for(world: dict, route: str, name: str | None, params: list[str]) -> str:
    values = {param: argument(world, route, param) for param in params}
    if name:
        return reverse(name, kwargs=values)
    # An unnamed route: its parameters filled in, as a path (route) or a regular expression.
    route = re.sub(r"\(\?P<(\w+)>[^)]*\)|<(?:\w+:)?(\w+)>", lambda m: values[m.group(1) or m.group(2)], route)
    return "/" + route.replace("^", "").replace("$", "")


def test_every_url_answers_with_the_strict_policy_and_no_inline_code(world):
    """Each URL, for each kind of visitor: the policy on the answer whatever it is, and no
    inline code in a page it renders. The pages that must render (a 200) are named, so that a
    change which turned them all into 404s would not pass unseen."""
    people = {"visitor": signed_in(None), "teacher": signed_in(world["teacher"]),
              "student": signed_in(world["student"])}
    admin = signed_in(world["admin"])
    problems, rendered = [], set()
    for route, name, params in every_url_pattern():
        url = url_for(world, route, name, params)
        clients = {"admin": admin} if route.startswith("admin/") else people
        for who, client in clients.items():
            response = client.get(url)
            problems += [f"{url} ({who}, {response.status_code}): {p}" for p in policy_problems(response)]
            if response.status_code == 200 and response.get("Content-Type", "").startswith("text/html"):
                rendered.add(name or route)
                html = response.content.decode()
                problems += [f"{url} ({who}): {what}: {line}" for what, line in inline_code(html)]
    assert not problems, "\n".join(problems)
    must_render = {"home", "classroom:class_detail", "classroom:sign_in_cards", "classroom:student_home",
                   "classroom:join_pictures", "classroom:assignment_edit", "classroom:assignment_start",
                   "games:game", "reports:dashboard", "arena:screen", "admin:index",
                   "admin:classroom_classroom_changelist"}
    assert must_render <= rendered, f"these pages did not render: {sorted(must_render - rendered)}"


def boom(request):
    raise RuntimeError("a server error, on purpose")


urlpatterns = [path("boom/", boom)]


@pytest.mark.urls(__name__)
def test_a_server_error_page_carries_the_policy():
    response = Client(raise_request_exception=False).get("/boom/")
    assert response.status_code == 500
    assert policy_problems(response) == []
    assert inline_code(response.content.decode()) == []


def test_a_form_refused_by_the_csrf_check_is_our_page_under_the_policy(world):
    """Django's own page for it has a <style> block the policy would block: ours has none."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["teacher"])
    response = client.post(reverse("classroom:class_create"), {"name": "New class"})
    assert response.status_code == 403
    assert policy_problems(response) == []
    html = response.content.decode()
    assert "That didn't go through" in html and "Nothing was changed." in html
    assert inline_code(html) == []


# ----- Every template ----------------------------------------------------------------------

def every_template() -> list[Path]:
    """The project's templates (the site's folder, each app's templates/), not installed
    packages'."""
    folders = [Path(d) for d in engines["django"].engine.dirs]
    folders += [Path(settings.BASE_DIR) / app / "templates" for app in settings.INSTALLED_APPS
                if (Path(settings.BASE_DIR) / app / "templates").is_dir()]
    return sorted(p for folder in folders for p in folder.rglob("*") if p.is_file())


TEMPLATE_COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)


def test_no_template_has_inline_code():
    templates = every_template()
    assert len(templates) > 50
    problems = [f"{p.relative_to(settings.BASE_DIR)}: {what}: {line}" for p in templates
                for what, line in inline_code(TEMPLATE_COMMENT.sub("", p.read_text(encoding="utf-8")))]
    assert not problems, "\n".join(problems)


def test_the_check_finds_each_kind_of_inline_code():
    """The checks above can fail: each kind of inline code is found, and the allowed forms
    (a script file, JSON data for a script, data attributes) are not."""
    page = """<script>alert(1)</script><style>p{}</style><p style="color:red">
<button onclick="go()">Go</button><a href="javascript:go()">Go</a><form hx-on::after-request="x()">
<div hx-trigger="every 2s [ready]"><div hx-vals='js:{a: 1}'>"""
    assert [what for what, _ in inline_code(page)] == list(INLINE)
    allowed = """<script src="/static/js/app.js" defer></script><script id="d" type="application/json">{"a": 1}</script>
<form hx-confirm="Leave this table?" hx-boost="true" hx-disabled-elt="find button[type=submit]"><p class="styled">Once upon a time, someone=1</p>
<div hx-trigger="every 20s, page-visible from:document">"""
    assert inline_code(allowed) == []
