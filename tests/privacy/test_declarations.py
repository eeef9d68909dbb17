"""Every model of ours that refers to a student is declared (privacy/registry.py): a new model
or field that refers to a student, directly or through a row about one (a move through its
seat), fails here until its app's privacy_data.py says what is held and how it is erased."""

import pytest
from django.apps import apps

from privacy import registry


def test_every_relation_to_a_student_is_declared_or_explained():
    assert registry.undeclared() == []


def test_a_missing_declaration_is_caught():
    """The check can fail: drop one declaration and its relation is reported."""
    for kind, relation in [("moves", "games.Move.seat"), ("invites_sent", "games.TableInvite.invited_by"),
                           ("arena_results", "arena.ArenaResult.player"),
                           ("skill_evidence", "reports.SkillEvidence.student")]:
        held = [h for h in registry.declarations() if h.kind != kind]
        assert relation in registry.undeclared(held), kind


def test_an_excuse_must_name_a_real_relation():
    for name, why in registry.not_about_a_student().items():
        label, field = name.rsplit(".", 1)
        assert apps.get_model(label)._meta.get_field(field).is_relation, name
        assert why.strip(), name


def test_the_account_itself_is_declared_and_erased_last():
    held = registry.declarations()
    assert held[-1].model is apps.get_model("accounts", "User")


@pytest.mark.parametrize("held", registry.declarations() if apps.ready else [], ids=lambda h: h.kind)
def test_each_declaration_is_complete(held):
    assert held.label and held.about.endswith(".") and held.fields
    if held.erase not in registry.ACTIONS:
        from django.utils.module_loading import import_string
        assert callable(import_string(held.erase))


def test_players_must_name_fields_the_export_reads():
    """A declaration's `players` (where a row names the game's other players) names fields of
    its own `fields`: one it does not read could never be said as "another player"."""
    from privacy.registry import _held

    entry = {"model": "games.Move", "kind": "moves", "label": ("move", "moves"), "about": "Moves.",
             "student": "seat__user", "fields": ["game_id", "analysis"], "erase": "follows",
             "players": {"game": "game_id", "names": ["analysis", "events"]}}
    with pytest.raises(ValueError, match="events"):
        _held("games", entry)
    assert _held("games", {**entry, "players": {"game": "game_id", "names": ["analysis"]}}).players == {
        "game": "game_id", "names": ("analysis",), "seats": ()}
