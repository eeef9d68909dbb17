"""No shared module holds a per-game table: a game is named only in its own homes (docs/engine.md).

In the spirit of OpenSpiel's sim test, this runs over every registered game and the toy game:
for each, every module of the shared code outside the game's homes is read for the game's key
and its option keys. A fifth game then touches only its homes and the registry line.

A game's homes (docs/engine.md, "Adding a game", says the same):
- its engine package: the package its `Engine` class lives in, `games/engine/<package>/` (one
  package may play several games: Numero and Numero Solitaire);
- its adapter: the module of `games/adapters/` that builds its `GameSpec`;
- its board templates: `GameSpec.board_template`, its selection's template, and every
  template they include (`templates/games/boards/...`);
- its static files: `GameSpec.stylesheets` (`static/css/games/<game>.css`) and
  `GameSpec.scripts` (`static/js/<game>.js`);
- its line in `games/registry.py` (the adapter's import and its entry in `GAMES`);
- migrations (history: what was stored once, never edited) and tests.

The shared code read: every .py, .html, .txt, .css and .js file of accounts/, classroom/,
games/, reports/, arena/, config/, templates/ and static/ (not static/vendor/: third-party code).
devtools/ is not read: its benchmarks, demo data and simulated students pick concrete games as
workloads on purpose, it is never installed in production, and a new game needs no line there.

What counts as naming a game (case as written):
- its key, as a whole word anywhere (code, comments, templates, CSS, JS);
- one of its option keys, as a string (`"focus_facts"`, `'focus_facts'`) or an attribute
  (`options.focus_facts` in a template or JS): the way code reads or writes an option. A
  variable that happens to share the name (`hand_size` in another game's bot) is not one.
Option keys that are plain English words (`level`, `target`, `rounds`, `cards`) are the site's
own words too (a bot's level, a progress target), so only an underscore (`focus_facts`) tells
an option key apart: plain words are not searched. A game's name ("Numero") is prose, not a
key, and is not searched either.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.template.loader import get_template

from games.spec import GameSpec

ROOT = Path(__file__).resolve().parents[2]
SHARED = ("accounts", "classroom", "games", "reports", "arena", "config", "templates", "static")
NOT_SHARED = ("static/vendor/",)
SUFFIXES = (".py", ".html", ".txt", ".css", ".js")
REGISTRY = "games/registry.py"
# The registry line: the adapter's import, and its spec in GAMES ("    numero.SPEC,").
REGISTRY_LINE = re.compile(r"^(from games\.adapters import [\w, ]+|\s+\w+\.\w+,)\s*(#.*)?$")
INCLUDE = re.compile(r"""\{%\s*include\s+["']([^"'#]+)""")


def relative(path: str | Path) -> str:
    return Path(path).resolve().relative_to(ROOT).as_posix()


@cache
def shared_files() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(path, lines) of every shared file, read once for every game."""
    found = []
    for top in SHARED:
        for path in sorted((ROOT / top).rglob("*")):
            name = relative(path)
            if (path.suffix in SUFFIXES and path.is_file() and "/migrations/" not in f"/{name}"
                    and not name.startswith(NOT_SHARED)):
                found.append((name, tuple(path.read_text(encoding="utf-8").splitlines())))
    return tuple(found)


def _templates(name: str, seen: set[str]) -> None:
    """A board template and every template it includes, as repository paths."""
    path = relative(get_template(name).origin.name)
    if path in seen:
        return
    seen.add(path)
    for included in INCLUDE.findall((ROOT / path).read_text(encoding="utf-8")):
        _templates(included, seen)


def _static(name: str) -> str:
    found = finders.find(name)
    assert found, f"{name} is named by a GameSpec but no static folder has it"
    return relative(found)


def homes(spec: GameSpec) -> tuple[set[str], set[str]]:
    """(folders, files) that are the game's homes (see the module's docstring)."""
    package = Path(sys.modules[type(spec.engine).__module__].__file__).parent
    assert (package / "__init__.py").is_file() and package.name not in ("engine", "games"), (
        f"{spec.key}'s engine must live in a package of its own, not in {relative(package)}")
    files = {relative(module.__file__) for module in list(sys.modules.values())
             if getattr(module, "__name__", "").startswith("games.adapters.")
             and any(value is spec for value in vars(module).values())}
    templates: set[str] = set()
    _templates(spec.board_template, templates)
    if spec.selection is not None:
        _templates(spec.selection.template, templates)
    files |= templates | {_static(name) for name in (*spec.stylesheets, *spec.scripts)}
    return {relative(package) + "/"}, files


def names_of(spec: GameSpec) -> re.Pattern:
    """The game's key as a whole word; its identifier-like option keys as strings or
    attributes (see the module's docstring)."""
    options = "|".join(re.escape(k) for k in sorted(spec.engine.OPTIONS) if "_" in k)
    key = rf"\b{re.escape(spec.key)}\b"
    return re.compile(key + (rf"""|(["'])(?:{options})\1|\.(?:{options})\b""" if options else ""))


def named_outside_homes(spec: GameSpec) -> list[str]:
    folders, files = homes(spec)
    pattern = names_of(spec)
    found = []
    for path, lines in shared_files():
        if path in files or path.startswith(tuple(folders)):
            continue
        for number, line in enumerate(lines, 1):
            if path == REGISTRY and REGISTRY_LINE.match(line):
                continue
            for match in pattern.finditer(line):
                found.append(f"{path}:{number}: {match.group(0)!r} in: {line.strip()}")
    return found


def test_no_shared_module_names_the_game(spec):
    found = named_outside_homes(spec)
    assert not found, (
        f"{spec.key} is named outside its homes (move this knowledge into its engine package, "
        "its adapter, its board or its stylesheet; see docs/engine.md, \"Adding a game\"):\n"
        + "\n".join(found))


def test_the_homes_are_found_and_read(spec):
    """The homes exist, and the search would see a shared module naming the game."""
    folders, files = homes(spec)
    assert folders and spec.board_template and any(f.endswith(".html") for f in files)
    scanned = dict(shared_files())
    assert "games/practice.py" in scanned and "static/css/app.css" in scanned
    assert "templates/home.html" in scanned and "static/vendor/" not in "".join(scanned)
    assert names_of(spec).search(f"MENU = {{{spec.key!r}: 1}}")
    for option in (k for k in spec.engine.OPTIONS if "_" in k):
        assert names_of(spec).search(f'options.get("{option}")')
        assert names_of(spec).search(f"{{{{ options.{option} }}}}")
        assert not names_of(spec).search(f"def holds(self, {option}: int)")  # a mere variable


@pytest.mark.parametrize("words", ["games/engine/<package>/", "games/adapters/", "GameSpec.stylesheets",
                                   "GameSpec.scripts", "games/registry.py", "migrations", "devtools/"])
def test_docs_name_the_same_homes(words):
    section = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8").split("### A game's homes")[1]
    assert words in section.split("\n## ")[0].split("\n### ")[0]
