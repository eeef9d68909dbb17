"""The pseudo-language: every marked string, transformed, so that what is left in English on a
page is what nobody marked (docs/i18n.md, "The pseudo-language test").

Every ASCII letter of a marked string becomes an accented look-alike ("Play" -> "Þļåý"), so a
translated page holds no plain ASCII word at all: `english_words(html)` lists those left, which
are the strings nobody marked (or names from the data, which the caller allows). Placeholders
(%(name)s, %s, {name}), HTML tags and entities are left alone so pages still render.

Use the `pseudo_language` fixture (tests/i18n/conftest.py): it builds the catalogue once per
test session from every msgid of our catalogues and Django's own, and adds the language
PSEUDO ("xx") to LANGUAGES. Then render as a user whose `language` is PSEUDO, or a visitor with
`HTTP_ACCEPT_LANGUAGE=PSEUDO`.
"""

from __future__ import annotations

import contextlib
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import django

from devtools.i18n import BASE_DIR, DOMAINS, catalogues, read_catalog, AREAS

PSEUDO = "xx"
LOOK_ALIKES = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅßÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
# Left as they are: placeholders (Python %-format, str.format / JS interpolate), HTML tags and
# entities, and Django template variables inside blocktranslate (already %(name)s by then).
KEEP = re.compile(r"(%\([^)]+\)[sdifr]|%[sdifr%]|\{[^{}]*\}|<[^<>]+>|&[a-zA-Z#0-9]+;)")


def pseudo(text: str) -> str:
    parts = KEEP.split(text)
    return "".join(part if index % 2 else part.translate(LOOK_ALIKES) for index, part in enumerate(parts))


def django_catalogues() -> list[Path]:
    """Django's own Spanish catalogues: their msgids are every string Django itself shows
    (form errors, the admin, dates), which the pseudo-language must transform too."""
    root = Path(django.__file__).parent
    return sorted(root.glob("**/locale/es/LC_MESSAGES/*.po"))


def build_catalogue(directory: Path) -> None:
    """Write PSEUDO's django.mo and djangojs.mo under `directory` (a LOCALE_PATHS entry)."""
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    sources = {"django": [], "djangojs": []}
    for po in catalogues(list(AREAS)):
        if po.parent.parent.name == "es":
            sources[po.stem].append(po)
    for po in django_catalogues():
        sources["djangojs" if po.stem == "djangojs" else "django"].append(po)
    for domain in DOMAINS:
        catalog = Catalog(locale="en")  # two plural forms, like English
        for po in sources[domain]:
            # Django's own Spanish catalogues have three plural forms where Babel expects two.
            ours = not po.is_relative_to(Path(django.__file__).parent)
            with contextlib.redirect_stdout(io.StringIO()):  # Babel prints each of Django's extra forms
                messages = list(read_catalog(po, strict=ours))
            for message in messages:
                if not message.id:
                    continue
                if isinstance(message.id, tuple):
                    string = tuple(pseudo(message.id[0] if i == 0 else message.id[1]) for i in range(2))
                else:
                    string = pseudo(message.id)
                catalog.add(message.id, string, context=message.context)
        target = directory / PSEUDO / "LC_MESSAGES" / f"{domain}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as handle:
            write_mo(handle, catalog)


# Text people see or hear (a screen reader reads these attributes), and the attributes our
# JavaScript and CSS show as text: a confirmation's question (data-confirm), a picture's name
# (data-label), the word after a picked card's tick (data-picked, static/css/app.css).
READ_ATTRIBUTES = {"aria-label", "title", "alt", "placeholder", "aria-description", "aria-valuetext",
                   "aria-roledescription", "data-confirm", "data-label", "data-picked"}
SKIPPED_ELEMENTS = {"script", "style", "template"}
ASCII_WORD = re.compile(r"(?<![^\W\d_])[A-Za-z]{2,}(?![^\W\d_])")


class _VisibleText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skipping = 0
        self.texts: list[str] = []
        # Open elements that say they are in English (`lang="en"` below <html>): English on
        # purpose, such as the language switcher's "English" (templates/_language_switcher.html);
        # and those that say they are not to be translated (`translate="no"`): addresses and IDs
        # a person copies into another system (templates/lti/platforms.html).
        self.english: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in SKIPPED_ELEMENTS:
            self.skipping += 1
        attributes = dict(attrs)
        if tag != "html" and ((attributes.get("lang") or "").lower().split("-")[0] == "en"
                              or (attributes.get("translate") or "").lower() == "no"):
            self.english.append(tag)
        if self.english:
            return
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES or (
                    name == "value" and tag == "input" and attributes.get("type") in {"submit", "button"})):
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in SKIPPED_ELEMENTS and self.skipping:
            self.skipping -= 1
        if self.english and self.english[-1] == tag:
            self.english.pop()

    def handle_data(self, data):
        if not self.skipping and not self.english:
            self.texts.append(data)


def english_words(html: str, *, allowed: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The plain ASCII words a reader would see or hear in `html`, except `allowed` ones
    (names and codes from the test's data, compared case-insensitively)."""
    parser = _VisibleText()
    parser.feed(html)
    allowed_lower = {word.lower() for word in allowed} | ALWAYS_ALLOWED
    words = []
    for text in parser.texts:
        words += [w for w in ASCII_WORD.findall(text) if w.lower() not in allowed_lower]
    return words


# Names that are the same in every language.
ALWAYS_ALLOWED = {"numberdeck"}
