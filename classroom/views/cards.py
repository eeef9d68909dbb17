"""Printable sign-in cards: a page to print from the browser, and a PDF (A4 or Letter)."""

from urllib.parse import urlencode

import segno
from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts import pictures
from accounts.permissions import teacher_required

from .. import selectors
from ..cards_pdf import CARDS_PER_PAGE, PAPERS, Card, render_cards
from .common import teacher_class


def cards_language(*, classroom) -> str:
    """The language the cards print in: the class's, when the teacher chose one for it, since
    the children read the cards and that is the language their pages are in; otherwise the
    teacher's own (who prints them and hands them out)."""
    return classroom.language or translation.get_language()


def _language_context(code: str) -> dict:
    """What the page needs to show the cards in their language: its code, its name (in itself,
    as settings.LANGUAGES names it) and its direction."""
    with translation.override(code):
        bidi = translation.get_language_bidi()
    return {"cards_language": code, "cards_language_name": dict(settings.LANGUAGES).get(code, code),
            "cards_direction": "rtl" if bidi else "ltr"}


def _paper(request) -> str:
    paper = request.GET.get("paper", "a4")
    return paper if paper in PAPERS else "a4"


def _cards(request, classroom) -> list[Card]:
    join = reverse("classroom:join")
    return [
        Card(name=s.display_name, class_name=classroom.name, code=classroom.join_code,
             pictures=s.picture_sequence,
             link=request.build_absolute_uri(f"{join}?{urlencode({'class': classroom.join_code, 'student': s.pk})}"))
        for s in selectors.students_of_class(classroom=classroom)
    ]


@teacher_required
def sign_in_cards(request, pk: int):
    classroom = teacher_class(request, pk)
    cards = _cards(request, classroom)
    pages = [
        [{"card": card,
          "pictures": [(key, pictures.PICTURES[key]) for key in card.pictures],
          # segno writes only path data (never the student's name), so this SVG is safe markup.
          "qr_svg": mark_safe(segno.make(card.link, error="m").svg_inline(scale=3, border=4))}
         for card in cards[start:start + CARDS_PER_PAGE]]
        for start in range(0, len(cards), CARDS_PER_PAGE)
    ]
    return render(request, "classroom/sign_in_cards.html", {
        "classroom": classroom, "pages": pages, "paper": _paper(request),
        "papers": [(key, label) for key, (label, _size) in PAPERS.items()],
        **_language_context(cards_language(classroom=classroom)),
        "join_url": request.build_absolute_uri(reverse("classroom:join")),
    })


@teacher_required
def sign_in_cards_pdf(request, pk: int):
    classroom = teacher_class(request, pk)
    paper = _paper(request)
    with translation.override(cards_language(classroom=classroom)):
        pdf = render_cards(_cards(request, classroom), paper=paper,
                           title=_("Sign-in cards: %(class_name)s") % {"class_name": classroom.name})
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"sign-in-cards-{slugify(classroom.name) or classroom.pk}-{paper}.pdf"
    # inline: the browser shows it (ready to print); its own button saves it.
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
