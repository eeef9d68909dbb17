"""Translation catalogues: extract, compile, check, and the pseudo-language (docs/i18n.md).

    python -m devtools.i18n extract [AREA ...]   # add new marked strings to the .po files, drop gone ones
    python -m devtools.i18n compile [AREA ...]   # .po -> .mo, in Python (Babel): no msgfmt needed
    python -m devtools.i18n check                # untranslated, fuzzy and stale .mo, per catalogue

Each area has a catalogue of its own (one `locale/` directory), so the people translating one part
of the site never edit the same file as those translating another. An area is an app's Python and
JavaScript plus its folder of `templates/`. Django reads every area's catalogue at once: the app
ones because the app is installed, `locale/` because it is in LOCALE_PATHS.

Extracting needs GNU gettext's `xgettext` (Django's makemessages runs it): only people who mark
new strings need it. Compiling is pure Python, and the compiled `.mo` files are committed, so a
fresh machine with only `python3` serves every language; `tests/i18n/test_catalogues.py` fails
when a `.mo` file does not match its `.po` (run `compile`).
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from config.settings import base as _settings
from devtools.po_merge import merge

BASE_DIR = Path(__file__).resolve().parent.parent
# The languages with catalogues: every language the site offers (settings.LANGUAGES, the one
# list of them) except the one its strings are written in. (The settings module is read as
# plain Python, so `compile` and `check` need no Django set-up.)
LANGUAGES = tuple(code for code, _name in _settings.LANGUAGES if code != _settings.LANGUAGE_CODE)
DOMAINS = ("django", "djangojs")

# The plural rules a new catalogue starts with (the CLDR rules gettext uses). Arabic has six forms:
# zero, one, two, a few (3-10), many (11-99) and other (100, 101, 102...).
PLURAL_FORMS = {
    "es": "nplurals=2; plural=(n != 1);",
    "ar": "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
          "n%100>=11 ? 4 : 5);",
}


@dataclass(frozen=True)
class Area:
    name: str
    locale: str  # the area's locale directory, relative to the repo
    sources: tuple[str, ...]  # files and folders whose marked strings go into it
    # Inside those sources, what another area owns (the core area's parts of the accounts app)
    excludes: tuple[str, ...] = ()


# The shared pages' pieces that live in the accounts app (the person's language, numbers and
# lists in the reader's convention, the language switcher's tags) belong to the core area.
CORE_IN_ACCOUNTS = ("accounts/language.py", "accounts/numbers.py", "accounts/templatetags")

AREAS = (
    Area("core", "locale", ("config", "templates/403.html", "templates/403_csrf.html",
                            "templates/404.html", "templates/503.html", "templates/_checkbox.html", "templates/_field.html",
                            "templates/_form_errors.html", "templates/_language_switcher.html",
                            "templates/base.html", "templates/home.html", *CORE_IN_ACCOUNTS)),
    Area("accounts", "accounts/locale", ("accounts", "templates/accounts"), excludes=CORE_IN_ACCOUNTS),
    Area("classroom", "classroom/locale", ("classroom", "templates/classroom")),
    Area("reports", "reports/locale", ("reports", "templates/reports")),
    # The test-only toy game (tests/toy/) is translated like the real games, in their catalogue:
    # a game copied from it starts with its words translated. The live pages' words (live/, its
    # script) are said on the games' pages, so they are in this catalogue too.
    Area("games", "games/locale", ("games", "live", "templates/games", "static/js/app.js",
                                   "static/js/live.js", "tests/toy", "tests/templates/games/boards/toy.html")),
    Area("arena", "arena/locale", ("arena", "templates/arena", "static/js/arena.js")),
    Area("privacy", "privacy/locale", ("privacy", "templates/privacy")),
    Area("lti", "lti/locale", ("lti", "templates/lti")),
    Area("rostering", "rostering/locale", ("rostering", "templates/rostering")),
)


def area_named(name: str) -> Area:
    for area in AREAS:
        if area.name == name:
            return area
    raise SystemExit(f"No area {name!r}; the areas are {', '.join(a.name for a in AREAS)}")


def po_path(area: Area, language: str, domain: str) -> Path:
    return BASE_DIR / area.locale / language / "LC_MESSAGES" / f"{domain}.po"


def ignore_patterns(area: Area) -> list[str]:
    """makemessages walks the whole repo; ignore every file and folder outside the area's
    sources (and every other area's locale folder, which would otherwise claim the files)."""
    keep = [Path(source) for source in area.sources]
    ignored: list[str] = list(area.excludes)

    def walk(folder: Path) -> None:
        for entry in sorted((BASE_DIR / folder).iterdir()):
            relative = entry.relative_to(BASE_DIR)
            if str(relative) in area.excludes:
                continue  # already ignored
            if any(relative == source or source in relative.parents for source in keep):
                continue  # inside a source: keep all of it
            if entry.is_dir() and any(relative in source.parents for source in keep):
                walk(relative)  # on the way to a source
            else:
                ignored.append(str(relative))

    walk(Path("."))
    return ignored


def extract(areas: list[Area]) -> None:
    import django
    from django.core.management import call_command
    from django.test.utils import override_settings

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    django.setup()
    os.chdir(BASE_DIR)
    for area in areas:
        (BASE_DIR / area.locale).mkdir(parents=True, exist_ok=True)
        has_js = any(source.endswith(".js") or (BASE_DIR / source / "static").exists()
                     for source in area.sources)
        # makemessages writes fresh catalogues (every marked string, none translated, so no
        # guessed "fuzzy" translations); each kept catalogue then takes only the strings new to
        # it and loses those no source has any more (devtools/po_merge.py): nothing else moves.
        paths = [po_path(area, language, domain) for language in LANGUAGES for domain in DOMAINS]
        kept = {path: path.read_text(encoding="utf-8") for path in paths if path.exists()}
        for path in kept:
            path.unlink()
        try:
            # The area's folder is where makemessages writes what it finds outside an app's
            # folder (its templates/), and an app's own locale/ is where it writes the app's strings.
            with override_settings(LOCALE_PATHS=[str(BASE_DIR / area.locale)]):
                for domain in DOMAINS if has_js else ("django",):
                    call_command(_makemessages_for(area), locale=list(LANGUAGES), domain=domain,
                                 ignore_patterns=ignore_patterns(area), no_obsolete=True,
                                 add_location="file", verbosity=0)
        finally:
            for path in paths:
                fresh = path.read_text(encoding="utf-8") if path.exists() else None
                if path in kept:  # (makemessages failed: the kept file comes back as it was)
                    path.write_text(merge(kept[path], fresh) if fresh else kept[path], encoding="utf-8")
                elif fresh:
                    set_header(path, path.parent.parent.name)
        print(f"{area.name}: extracted into {area.locale}/")


def _makemessages_for(area: Area):
    """Django's makemessages, writing only into `area`'s catalogue."""
    from django.core.management.commands import makemessages

    area_locale, root_locale = str(BASE_DIR / area.locale), str(BASE_DIR / "locale")

    class AreaMakeMessages(makemessages.Command):
        def find_files(self, root):
            # makemessages adds the current folder's locale/ (core's, at the repo's root), and a
            # file goes to the first locale folder whose parent folder holds it: the root's holds
            # every file, so another area's templates/ strings would land in core's catalogue.
            if area_locale != root_locale:
                self.locale_paths = [p for p in self.locale_paths if os.path.abspath(p) != root_locale]
            return super().find_files(root)

    return AreaMakeMessages()


def set_header(path: Path, language: str) -> None:
    """A new catalogue's header has gettext's placeholders; put the language and its plural rule in."""
    text = path.read_text(encoding="utf-8")
    text = text.replace('"Language: \\n"', f'"Language: {language}\\n"')
    text = text.replace('"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"',
                        f'"Plural-Forms: {PLURAL_FORMS[language]}\\n"')
    text = text.replace("charset=CHARSET", "charset=UTF-8")
    # gettext marks a new catalogue's header fuzzy until someone fills it in: this did.
    text = text.replace('#, fuzzy\nmsgid ""\nmsgstr ""\n', 'msgid ""\nmsgstr ""\n', 1)
    path.write_text(text, encoding="utf-8")


def read_catalog(path: Path, *, strict: bool = True):
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        return read_po(handle, locale=path.parent.parent.name, abort_invalid=strict)


def mo_bytes(catalog) -> bytes:
    from babel.messages.mofile import write_mo

    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def catalogues(areas: list[Area]) -> list[Path]:
    return [po_path(area, language, domain) for area in areas for language in LANGUAGES
            for domain in DOMAINS if po_path(area, language, domain).exists()]


def compile_catalogues(areas: list[Area]) -> None:
    for po in catalogues(areas):
        po.with_suffix(".mo").write_bytes(mo_bytes(read_catalog(po)))
        print(f"compiled {po.relative_to(BASE_DIR)}")


@dataclass
class CatalogueProblems:
    path: str
    untranslated: list[str]
    fuzzy: list[str]
    stale_mo: bool


def problems(areas: list[Area] = list(AREAS)) -> list[CatalogueProblems]:
    found = []
    for po in catalogues(areas):
        catalog = read_catalog(po)
        untranslated, fuzzy = [], []
        for message in catalog:
            if not message.id:
                continue  # the header
            shown = message.id if isinstance(message.id, str) else message.id[0]
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy:
                fuzzy.append(shown)
            elif not all(strings):
                untranslated.append(shown)
        mo = po.with_suffix(".mo")
        stale = not mo.exists() or mo.read_bytes() != mo_bytes(catalog)
        if untranslated or fuzzy or stale:
            found.append(CatalogueProblems(str(po.relative_to(BASE_DIR)), untranslated, fuzzy, stale))
    return found


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"extract", "compile", "check"}:
        print(__doc__)
        return 2
    command, names = argv[0], argv[1:]
    areas = [area_named(name) for name in names] if names else list(AREAS)
    if command == "extract":
        extract(areas)
    elif command == "compile":
        compile_catalogues(areas)
    else:
        found = problems(areas)
        for item in found:
            print(f"{item.path}: {len(item.untranslated)} untranslated, {len(item.fuzzy)} fuzzy"
                  f"{', .mo out of date (run compile)' if item.stale_mo else ''}")
            for text in (item.untranslated + item.fuzzy)[:10]:
                print(f"    {text[:80]!r}")
        print("all catalogues complete" if not found else f"{len(found)} catalogues need work")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
