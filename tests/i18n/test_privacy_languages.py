"""A child's data in every language (docs/i18n.md): the erase page with its counts, the erase form
with a wrong name, the message after an erasure, and the export zip (README.txt and CSV headings
in the teacher's language; values and JSON keys the same in every language). The world is the
privacy tests' (Ann with data of every declared kind), built once for this module.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from privacy.erasure import counts_in_words, erasure_preview
from privacy.export import student_files
from privacy.registry import declarations
from privacy.words import ABOUTS, COLUMNS, LABELS, english
from tests.i18n.pseudo import PSEUDO, english_words
from tests.i18n.test_accounts_languages import TYPED, english_in_main, signed_in
from tests.privacy.conftest import world  # noqa: F401 - Ann with data of every declared kind

pytestmark = pytest.mark.django_db


def unzip(body: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_erase_form_with_a_wrong_name_is_translated(world, pseudo_language):  # noqa: F811
    owner = signed_in(world.owner)
    url = reverse("privacy:student_erase", args=[world.ann.pk])
    response = owner.post(url, {"typed_name": "Somebody"}, HTTP_ACCEPT_LANGUAGE=PSEUDO)
    assert response.status_code == 200 and User.objects.filter(pk=world.ann.pk).exists()
    assert english_in_main(response, allowed={"Somebody"}) == []
    es = owner.post(url, {"typed_name": "Somebody"}, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Ese no es el nombre del estudiante. Escriba «Ann» para borrar sus datos." in es


def test_every_declaration_has_its_words(world):  # noqa: F811
    for held in declarations():
        assert (english(held.label[0]), english(held.label[1])) in LABELS, held.kind
        assert english(held.about) in ABOUTS, held.kind
        for field in held.fields:
            assert field.replace("__", " ") in COLUMNS, f"{held.kind}: {field}"


def test_the_erase_page_counts_in_the_readers_language(world, pseudo_language):  # noqa: F811
    owner = signed_in(world.owner)
    url = reverse("privacy:student_erase", args=[world.ann.pk])
    assert english_in_main(owner.get(url, HTTP_ACCEPT_LANGUAGE=PSEUDO)) == []
    moves = erasure_preview(student=world.ann)["moves"]
    es = owner.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"<li>{moves} jugadas</li>" in es and "Esto no se puede deshacer." in es
    ar = owner.get(url, HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert 'dir="rtl"' in ar and "لا يمكن التراجع عن هذا." in ar
    with translation.override("ar"):
        assert counts_in_words({"moves": 2, "account": 1, "students": 11}) == ["حركتان", "حساب واحد", "11 طالبًا"]


def test_the_message_after_an_erasure_is_translated(world):  # noqa: F811
    owner = signed_in(world.owner, language="es")
    response = owner.post(reverse("privacy:student_erase", args=[world.ann.pk]), {"typed_name": "Ann"}, follow=True)
    assert "Los datos de Ann se borraron: " in response.content.decode()


def test_the_export_speaks_the_teachers_language_and_keeps_its_data_neutral(world):  # noqa: F811
    owner = signed_in(world.owner, language="es")
    files = unzip(owner.get(reverse("privacy:student_export", args=[world.ann.pk])).content)
    readme = files["README.txt"].decode()
    assert readme.startswith("Lo que Numberdeck guarda sobre Ann")
    assert "las claves en inglés" not in readme and "conservan sus claves en inglés" in readme
    header = next(csv.reader(io.StringIO(files["account.csv"].decode("utf-8-sig"))))
    assert header[:2] == ["nombre de usuario", "nombre"]
    # The JSON keys stay English (data keys), and the values are the same in every language.
    account = json.loads(files["account.json"])[0]
    assert "display_name" in account and account["display_name"] == "Ann"
    moves = list(csv.DictReader(io.StringIO(files["moves.csv"].decode("utf-8-sig"))))
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d.*", moves[0]["creado"])
    classes = unzip(owner.get(reverse("privacy:class_export", args=[world.classroom.pk])).content)
    assert next(csv.reader(io.StringIO(classes["students.csv"].decode("utf-8-sig")))) == [
        "carpeta", "nombre", "nombre de usuario", "en la lista de la clase"]
    assert classes["README.txt"].decode().startswith("Lo que Numberdeck guarda sobre la clase Class 5B")


def test_the_export_in_arabic_and_in_the_pseudo_language(world, pseudo_language):  # noqa: F811
    with translation.override("ar"):
        files = student_files(student=world.ann)
    assert "ما يحفظه Numberdeck عن Ann" in files["README.txt"].decode()
    assert next(csv.reader(io.StringIO(files["moves.csv"].decode("utf-8-sig"))))[0] == "رقم اللعبة"
    with translation.override(PSEUDO):
        files = student_files(student=world.ann)
    readme = files["README.txt"].decode()
    # File names (moves.csv) and the example values are the same in every language.
    readme = re.sub(r"\b[\w/]+\.(csv|json|txt)\b", "", readme)
    assert english_words(f"<pre>{readme}</pre>", allowed=TYPED) == []
    for held in declarations():
        header = files[f"{held.kind}.csv"].decode("utf-8-sig").splitlines()[0]
        assert english_words(f"<p>{header}</p>") == [], held.kind
