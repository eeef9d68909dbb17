"""The close codes are written once (live/close_codes.py) and every page carries them for its
script (static/js/live.js), in the page's language; no script names a code of its own."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games.services.tables import table_open
from live.close_codes import CODES

from tests.i18n.readers import speaking


def page_codes(html: str) -> dict[int, dict]:
    found = re.search(r'<script id="live-close-codes" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page carries no close-code table"
    return {row["code"]: row for row in json.loads(found.group(1))}


@pytest.mark.django_db
def test_a_live_page_carries_the_close_codes_with_its_own_words_in_its_readers_language(
        classroom, student, teacher):
    game = table_open(student=student, key="multiplication")
    codes = page_codes(speaking(student, "es").get(reverse("games:lobby", args=[game.pk])).content.decode())
    assert set(codes) == {row.code for row in CODES}
    assert codes[4013]["then"] == "reconnect" and codes[4403]["then"] == "stop"
    assert codes[4013]["says"] == "Reconectando… tu juego está guardado."
    assert codes[4403]["says"] == "Este juego no está abierto para ti."
    dashboard = speaking(teacher, "es").get(reverse("reports:dashboard", args=[classroom.pk])).content.decode()
    assert page_codes(dashboard)[4403]["says"] == ("Las actualizaciones en vivo se detuvieron: usted ya no "
                                                   "es docente de esta clase.")


@pytest.mark.django_db
def test_a_page_that_does_not_update_itself_carries_no_close_codes(student):
    html = speaking(student, "es").get(reverse("classroom:student_home")).content.decode()
    assert "live-close-codes" not in html


def test_no_script_names_a_close_code_of_its_own():
    for script in (Path(settings.BASE_DIR) / "static" / "js").glob("*.js"):
        text = script.read_text(encoding="utf-8")
        for row in CODES:
            if row.then != "retried":  # 1006 and 1011-1013 are the browser's, not ours
                assert str(row.code) not in text, f"{script.name} names {row.code}"
