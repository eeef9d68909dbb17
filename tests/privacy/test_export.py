"""A student's data as a zip: one JSON and one CSV file per declared kind, a README saying what
each is, only the student's own rows (their own moves; no game state, so nobody's hidden
cards); the same for a class, one folder per student."""

import csv
import io
import json
import zipfile

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import Move
from privacy import registry
from privacy.erasure import erasure_preview
from privacy.export import classroom_zip, student_folder, student_zip

pytestmark = pytest.mark.django_db


def unzip(body: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(body)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def csv_rows(content: bytes) -> list[dict]:
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))


def test_every_declared_kind_is_in_the_zip_as_json_and_csv_with_all_her_rows(world):
    _, body = student_zip(student=world.ann)
    files = unzip(body)
    counts = erasure_preview(student=world.ann)
    for held in registry.declarations():
        rows = json.loads(files[f"{held.kind}.json"])
        assert len(rows) == counts[held.kind] > 0, held.kind
        assert len(csv_rows(files[f"{held.kind}.csv"])) == len(rows), held.kind
    readme = files["README.txt"].decode()
    for held in registry.declarations():
        assert f"{held.kind}.csv" in readme and held.about in readme


def test_the_zip_holds_her_own_moves_and_nobody_elses_cards(world):
    files = unzip(student_zip(student=world.ann)[1])
    moves = json.loads(files["moves.json"])
    assert len(moves) == Move.objects.filter(seat__user=world.ann).count()
    shared = [m for m in moves if m["game_id"] == world.shared_game.pk]
    assert len(shared) == Move.objects.filter(game=world.shared_game, seat__user=world.ann).count()
    assert len(shared) < world.shared_game.moves.count()  # Ben's moves are not hers
    everything = b"".join(files.values()).decode("utf-8", "replace")
    assert '"hands"' not in everything and '"decks"' not in everything  # no game state
    assert "Olga" not in everything
    # The public outcome of a shared game: who won, as every player saw at the end.
    games = {g["game_id"]: g for g in json.loads(files["games.json"])}
    assert games[world.shared_game.pk]["game state winners"] == world.shared_game.state["winners"]


def test_a_formula_in_a_name_is_not_run_by_a_spreadsheet(world):
    ann = User.objects.get(pk=world.ann.pk)  # the module's world keeps its own copy unchanged
    ann.display_name = "=HYPERLINK(\"x\")"
    ann.save()
    files = unzip(student_zip(student=ann)[1])
    assert csv_rows(files["account.csv"])[0]["display_name"].startswith("'=")


def test_a_class_zip_has_a_folder_per_student_and_the_class_files(world):
    name, body = classroom_zip(classroom=world.classroom)
    files = unzip(body)
    assert name.startswith("numberdeck-class-5b-") and name.endswith(".zip")
    for top in ("README.txt", "class.csv", "class.json", "students.csv", "assignments.csv"):
        assert top in files
    folders = {s["folder"] for s in csv_rows(files["students.csv"])}
    assert folders == {student_folder(s) for s in (world.ann, world.ben)} | {
        n.split("/")[0] for n in files if n.startswith("cat-")}
    for folder in folders:
        assert f"{folder}/README.txt" in files
        assert {f"{folder}/{h.kind}.json" for h in registry.declarations()} <= set(files)
    ann = student_folder(world.ann)
    assert files[f"{ann}/moves.json"] == unzip(student_zip(student=world.ann)[1])["moves.json"]
    assert "Olga" not in b"".join(files.values()).decode("utf-8", "replace")


@pytest.mark.parametrize("role", ["owner", "co_teacher"])
def test_the_class_teachers_download_the_zips(world, role):
    client = Client()
    client.force_login(world.user(role))
    response = client.get(reverse("privacy:student_export", args=[world.ann.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"].startswith('attachment; filename="numberdeck-ann-')
    assert "moves.csv" in unzip(response.content)
    response = client.get(reverse("privacy:class_export", args=[world.classroom.pk]))
    assert response.status_code == 200 and "class.csv" in unzip(response.content)


def test_a_removed_student_can_still_be_exported(world):
    from classroom.services import student_remove

    student_remove(student=User.objects.get(pk=world.ann.pk), classroom=world.classroom)
    client = Client()
    client.force_login(world.owner)
    response = client.get(reverse("privacy:student_export", args=[world.ann.pk]))
    assert response.status_code == 200 and "moves.csv" in unzip(response.content)


def test_every_declared_field_is_a_column_with_a_heading_of_its_own(world):
    """A field added to a declaration (an arena result's "taken out by the teacher", say) is in
    the child's files, under a heading the reader's language can give (privacy/words.py)."""
    from privacy.export import _column
    from privacy.words import COLUMNS

    files = unzip(student_zip(student=world.ann)[1])
    for held in registry.declarations():
        header = next(csv.reader(io.StringIO(files[f"{held.kind}.csv"].decode("utf-8-sig"))))
        for field in held.fields:
            assert _column(field) in header, (held.kind, field)
            assert _column(field) in COLUMNS, (held.kind, field)
