"""Teaching presets: the engine's own when it exports them, the spec's until then, and never
one the engine would refuse."""

import pytest

from classroom import presets
from games import engine as engines
from games.catalogue import GAMES


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_every_game_offers_presets_the_engine_accepts(game):
    offered = presets.presets_for(game)
    assert offered, f"{game} has no presets"
    eng = presets.load_engine(game)
    low, high = presets.player_counts(game)
    for key, preset in offered.items():
        assert preset["label"]
        choice = presets.resolve(game=game, preset=key)
        if eng is not None:
            for players in range(low, high + 1):
                eng.resolve_options(choice.options, players)  # raises BadScenario if refused


def test_numero_offers_the_eight_teaching_levels_from_the_spec(monkeypatch):
    monkeypatch.setattr(presets, "_engine_presets", lambda game: None)
    levels = presets.presets_for("numero")
    assert list(levels) == [f"level-{n}" for n in range(1, 9)]
    assert levels["level-1"]["options"] == {"max_number": 10}
    assert levels["level-8"]["options"]["challenges"] is True
    # Solitaire has no challenges, so no level 8.
    assert "level-8" not in presets.presets_for("numero_solitaire")


def test_spec_presets_stand_in_while_an_engine_cannot_be_imported(monkeypatch):
    def broken(key):
        raise AttributeError("module has no attribute 'ENGINE'")

    monkeypatch.setattr(engines, "get", broken)
    monkeypatch.setattr(presets, "_engine_presets", lambda game: None)
    assert presets.load_engine("multiplication") is None
    assert presets.player_counts("multiplication") == (2, 6)
    assert presets.presets_for("multiplication")["two-free"]["options"] == {"free_cards": 2}
    assert presets.resolve(game="multiplication", preset="two-free").options == {"free_cards": 2}


def test_an_engine_refusing_a_preset_hides_it(monkeypatch):
    monkeypatch.setattr(presets, "_engine_presets",
                        lambda game: {"ok": {"label": "Fine", "options": {"target": 100}},
                                      "bad": {"label": "Too long", "options": {"target": 10**9}}})
    assert list(presets.presets_for("smooth_operator")) == ["ok"]
    with pytest.raises(presets.PresetError):
        presets.resolve(game="smooth_operator", preset="bad")


@pytest.mark.parametrize("game, expected", [
    ("smooth_operator", (1, 3)), ("add_or_multiply", (2, 2)), ("numero_solitaire", (0, 0)),
])
def test_computer_players_fit_the_table(game, expected):
    assert presets.bot_count_range(game) == expected
