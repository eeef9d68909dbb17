"""Teaching presets: each game's own (from its GameSpec), and never one the engine would refuse."""

import dataclasses

import pytest

from classroom import presets
from games import registry
from games.adapters import smooth_operator
from games.spec import Preset


@pytest.mark.parametrize("game", [g.key for g in registry.all_games()])
def test_every_game_offers_presets_the_engine_accepts(game):
    offered = presets.presets_for(game)
    assert offered, f"{game} has no presets"
    spec = registry.spec_for(game)
    low, high = presets.player_counts(game)
    assert (low, high) == (spec.engine.min_players, spec.engine.max_players)
    for key, preset in offered.items():
        assert preset["label"]
        choice = presets.resolve(game=game, preset=key)
        assert choice.label == preset["label"] and choice.options == preset["options"]
        for players in range(low, high + 1):
            spec.engine.resolve_options(choice.options, players)  # raises BadScenario if refused


def test_numero_offers_the_eight_teaching_levels_and_solitaire_seven():
    levels = presets.presets_for("numero")
    assert list(levels) == [f"level{n}" for n in range(1, 9)]
    assert levels["level1"]["options"] == {"max_number": 10}
    assert levels["level8"]["options"]["challenges"] is True
    # Solitaire has no challenges, so no level 8.
    assert list(presets.presets_for("numero_solitaire")) == [f"level{n}" for n in range(1, 8)]


def test_a_preset_the_engine_refuses_cannot_be_assigned():
    toy = dataclasses.replace(smooth_operator.SPEC, key="toy_refusing", presets=(
        Preset("ok", "Fine", {"target": 100}), Preset("bad", "Too long", {"target": 10**9})))
    registry.register(toy)
    try:
        assert presets.resolve(game="toy_refusing", preset="ok").options == {"target": 100}
        with pytest.raises(presets.PresetError) as refused:
            presets.resolve(game="toy_refusing", preset="bad", player_count=2)
        assert str(refused.value) == ("This level can't be played with 2 players. Choose another "
                                      "level or another number of computer players.")
    finally:
        registry.unregister("toy_refusing")


def test_unknown_games_and_levels_are_refused_in_plain_words():
    with pytest.raises(presets.PresetError, match="Choose one of the games in the list."):
        presets.resolve(game="chess", preset="quick")
    with pytest.raises(presets.PresetError, match="Choose one of the levels offered for this game."):
        presets.resolve(game="smooth_operator", preset="level1")
    assert presets.presets_for("chess") == {}
    assert presets.preset_label("smooth_operator", "gone") == "gone"
    assert presets.preset_label("smooth_operator", "quick") == "Quick game (first to 650 points)"


@pytest.mark.parametrize("game, expected", [
    ("smooth_operator", (1, 3)), ("add_or_multiply", (2, 2)), ("numero_solitaire", (0, 0)),
])
def test_computer_players_fit_the_table(game, expected):
    assert presets.bot_count_range(game) == expected


def test_solo_and_mental_maths_come_from_the_game():
    assert presets.is_solo("numero_solitaire") and not presets.is_solo("numero")
    assert [g.key for g in registry.all_games() if presets.supports_mental_math(g.key)] == ["smooth_operator"]


def test_bot_levels_are_the_games_own_easiest_first():
    assert presets.bot_levels("multiplication") == {
        "starter": "Starter (easiest)", "beginner": "Beginner (easy)", "player": "Player (medium)",
        "expert": "Expert (hard)"}
