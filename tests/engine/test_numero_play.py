"""Numero played whole: its goldens, what random play shows about its own rules (cards,
points, the end adjustments, what a view hides), bots, the teaching levels, and the skill
analysis. What every game must do (listed moves allowed, JSON states, same seed same game,
fuzzed moves refused with known codes, every golden replayed) is the contract suite's:
tests/contract/."""

import copy
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove, get, make_bot
from games.engine.numero import BOTS_BY_GAME, PRESETS
from games.engine.numero.bots import leaflet_discard
from games.engine.numero.cards import pack, printed_points, sort_cards
from games.engine.numero.scoring import leftover_points
from numero_helpers import all_cards

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GOLDEN_FILES = sorted(GOLDEN.glob("numero_*.json"))


# ----- golden playthroughs ---------------------------------------------------------------------
def test_there_are_goldens_for_both_games():
    games = {json.loads(p.read_text())["game"] for p in GOLDEN_FILES}
    assert len(GOLDEN_FILES) >= 5 and games == {"numero", "numero_solitaire"}


def test_a_golden_holds_a_challenge_and_wild_cards():
    kinds = {a["type"] for p in GOLDEN_FILES for a in json.loads(p.read_text())["actions"]}
    assert {"challenge", "wild", "discard_wild", "build", "take", "discard"} <= kinds


# ----- random play -----------------------------------------------------------------------------
GAMES = [("numero", ["Ann", "Ben"]), ("numero", ["Ann", "Ben", "Cal"]), ("numero_solitaire", ["Sam"])]


def _random_options(rng, game):
    level = rng.randint(1, 7 if game == "numero_solitaire" else 8)
    return copy.deepcopy(PRESETS[f"level{level}"]["options"])


def _play(seed, game, players, options, on_step, max_steps=400):
    """Random legal moves (a bot now and then); calls on_step(before, player, action, after,
    events) after each one."""
    engine = get(game)
    rng = random.Random(seed)
    bots = {p: make_bot(game, rng.choice(["beginner", "player", "expert"]), seed) for p in players}
    state = engine.new_game(players, options, seed)
    for _ in range(max_steps):
        if state["finished"]:
            break
        player = engine.waiting_for(state)[0]
        if rng.random() < 0.3:
            action = bots[player].choose(engine.view(state, player))
        else:
            action = rng.choice(engine.legal_actions(state, player)[:300])
        after, events = engine.apply(state, player, action)
        on_step(state, player, action, after, events)
        state = after
    return state


def _hidden_cards(state, viewer):
    hidden = list(state["deck"])
    for p, hand in state["hands"].items():
        if p != viewer:
            hidden += hand
    return hidden


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 6), st.sampled_from(GAMES))
def test_random_play_invariants(seed, game_players):
    game, players = game_players
    engine = get(game)
    options = _random_options(random.Random(seed), game)
    full_pack = sorted(pack(engine.resolve_options(options, len(players))))
    running = {p: 0 for p in players}

    def check(before, player, action, after, events):
        # cards are conserved
        assert sorted(all_cards(after)) == full_pack
        # points change only by takes and challenges (and the end, checked below)
        for e in events:
            if e["type"] == "take" and "points" in e:
                running[e["player"]] += e["points"]
            if e["type"] == "challenge":
                running[e["penalty"]["player"]] += e["penalty"]["points"]
        if not after["finished"]:
            assert after["points"] == running
        # views hide other hands and the deck
        for viewer in players + [None]:
            view = engine.view(after, viewer)
            text = json.dumps(view)
            for card in _hidden_cards(after, viewer):
                assert f'"{card}"' not in text
            assert "deck" not in view and "hands" not in view and "seed" not in view

    final = _play(seed, game, players, options, check)
    summary = engine.summary(final)
    if not final["options"]["scoring"]:
        assert summary["scores"] == summary["piles"]
    if final["finished"]:
        _check_end(final, running)


def _check_end(state, running):
    """The end adjustments, recomputed from the final state."""
    end = state["end"]
    expected = dict(running)
    if not state["options"]["scoring"]:
        return
    if state["game"] == "numero":
        if end["centre_to"]:
            leftovers = state["won"][end["centre_to"]][-end["centre_cards"]:]
            expected[end["centre_to"]] += leftover_points(leftovers)
        for p, hand in state["hands"].items():
            expected[p] -= leftover_points(hand)
        for p in end["most_cards"]:
            expected[p] += 10
    else:
        (p,) = state["players"]
        expected[p] += end["bonus"] - sum(printed_points(c) for c in state["hands"][p])
    assert state["points"] == expected


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10 ** 6))
def test_views_do_not_depend_on_hidden_cards(seed):
    engine = get("numero")
    rng = random.Random(seed)
    state = _play(seed, "numero", ["Ann", "Ben"], _random_options(rng, "numero"),
                  lambda *s: None, max_steps=rng.randint(0, 30))
    assume(not state["finished"])
    # swap Ben's hidden hand with deck cards and reorder the deck
    other = copy.deepcopy(state)
    pool = other["hands"]["Ben"] + other["deck"]
    rng.shuffle(pool)
    n = len(other["hands"]["Ben"])
    other["hands"]["Ben"], other["deck"] = pool[:n], pool[n:]
    assert engine.view(state, "Ann") == engine.view(other, "Ann")
    assert engine.view(state, None) == engine.view(other, None)
    coach = engine.coach_view(state)
    assert coach["hands"]["Ben"] == sort_cards(state["hands"]["Ben"]) and "deck" not in coach


# ----- bots -------------------------------------------------------------------------------------
class ViewOnly(dict):
    """A view that fails loudly if anyone looks for state-only keys."""

    def __getitem__(self, key):
        assert key not in ("deck", "hands", "seed", "shuffles"), key
        return super().__getitem__(key)


@pytest.mark.parametrize("game,players", GAMES)
@pytest.mark.parametrize("level", ["starter", "beginner", "player", "expert"])
def test_bots_play_from_views_only_and_deterministically(game, players, level):
    engine = get(game)
    options = PRESETS["level7"]["options"]
    for seed in (1, 2):
        runs = []
        for _ in range(2):
            state = engine.new_game(players, options, seed)
            bots = {p: make_bot(game, level, seed + i) for i, p in enumerate(players)}
            actions = []
            while not state["finished"]:
                player = engine.waiting_for(state)[0]
                view = engine.view(state, player)
                assert "deck" not in view and "hands" not in view
                action = bots[player].choose(ViewOnly(view))
                state, _ = engine.apply(state, player, action)  # raises if illegal
                actions.append(action)
            runs.append(actions)
        assert runs[0] == runs[1]


@pytest.mark.parametrize("level", range(1, 9))
def test_every_level_is_played_to_the_end_by_bots(level):
    options = PRESETS[f"level{level}"]["options"]
    games = [("numero", ["Ann", "Ben"], ["expert", "player"]),
             ("numero", ["Ann", "Ben", "Cal"], ["beginner", "expert", "player"])]
    if not options.get("challenges"):
        games.append(("numero_solitaire", ["Sam"], ["expert"]))
    for game, players, levels in games:
        engine = get(game)
        state = engine.new_game(players, options, level)
        bots = {p: make_bot(game, lv, level) for p, lv in zip(players, levels)}
        steps = 0
        while not state["finished"]:
            player = engine.waiting_for(state)[0]
            state, _ = engine.apply(state, player, bots[player].choose(engine.view(state, player)))
            steps += 1
            assert steps < 2000
        summary = engine.summary(state)
        assert summary["winners"] and summary["waiting_for"] == []
        if game == "numero":
            assert summary["deck_count"] == 0


def test_bot_tables_and_presets():
    assert set(BOTS_BY_GAME) == {"numero", "numero_solitaire"}
    for bots in BOTS_BY_GAME.values():
        assert set(bots) == {"starter", "beginner", "player", "expert"}
    assert [f"level{i}" for i in range(1, 9)] == list(PRESETS)
    assert PRESETS["level1"]["options"] == {"max_number": 10}
    assert PRESETS["level8"]["options"]["challenges"] is True
    engine = get("numero")
    for preset in PRESETS.values():
        engine.new_game(["A", "B"], preset["options"], 0)


def test_player_bot_follows_the_leaflets_discard_advice():
    assert leaflet_discard(["3g", "7o", "7r", "12b"]) == "7o"     # one of a pair
    assert leaflet_discard(["4g", "5o", "9r", "13b"]) == "5o"     # 4 + 5 = 9: the higher
    assert leaflet_discard(["2g", "6o", "11r", "14b"]) == "2g"    # else a low card


def test_player_bot_uses_wild_cards_for_the_biggest_take():
    engine = get("numero")
    state = engine.new_game(["Ann", "Ben"], {"wilds": ["subtract"]}, 0,
                            {"hands": {"Ann": ["-2", "-4", "9b", "5r"], "Ben": ["1g"]},
                             "centre": ["10r", "5g"], "deck": []})
    bot = make_bot("numero", "player", 0)
    taken = []
    while engine.waiting_for(state) == ["Ann"]:
        action = bot.choose(engine.view(state, "Ann"))
        state, events = engine.apply(state, "Ann", action)
        taken += [e for e in events if e["type"] == "take"]
    assert taken and taken[0]["cards"] == 5


def test_expert_challenges_an_impossible_build():
    engine = get("numero")
    # Ann bluffs 9 + 1 = 10 while Ben holds three 10s and the fourth is in the centre
    setup = {"hands": {"Ann": ["1g", "2r"], "Ben": ["10g", "10o", "10b", "4b"]},
             "centre": ["9o", "10r"], "deck": ["3g", "5g", "6g"]}
    state = engine.new_game(["Ann", "Ben"], PRESETS["level8"]["options"], 0, setup)
    state, _ = engine.apply(state, "Ann", {"type": "build", "card": "1g", "with": ["9o"]})
    action = make_bot("numero", "expert", 0).choose(engine.view(state, "Ben"))
    assert action == {"type": "challenge", "target": "9o"}


# ----- the skill analysis -----------------------------------------------------------------------
def test_analysis_of_a_missed_take_a_smaller_take_and_a_bluff():
    """Revision 2: the take and the build are judged against the expert bot's own judgement of
    the same position (here: -2 and -4 on the 10, then take 4 + 5 with the 9: five cards)."""
    engine = get("numero")
    setup = {"hands": {"Ann": ["-2", "-4", "9b", "5r", "2o"], "Ben": ["1g"]},
             "centre": ["10r", "5g"], "deck": []}
    state = engine.new_game(["Ann", "Ben"], {"wilds": ["subtract"]}, 0, setup)
    missed = engine.analyse(state, "Ann", {"type": "discard", "card": "2o"})
    assert missed["kind"] == "discard" and missed["legal"]
    assert missed["expert"] == "wild" and missed["take_chance"] and missed["missed_take"]
    assert missed["expert_take"] == {"cards": 5, "card": "9b", "groups": [["10r", "5g"]],
                                     "wild_steps": [{"card": "-2", "target": "10r"},
                                                    {"card": "-4", "target": "10r"}]}
    small = engine.analyse(state, "Ann", {"type": "take", "card": "5r", "groups": [["5g"]]})
    assert small["chosen"]["cards"] == 2 and small["cards_left_behind"] == 3
    assert small["smallest_take"] == 2 and small["best_take_chance"] and "missed_take" not in small
    bluff = engine.analyse(state, "Ann", {"type": "build", "card": "2o", "with": ["5g"]})
    assert bluff["legal"] is False and bluff["code"] == "no_answer_card" and bluff["bluff"]
    assert bluff["wrong_build_possible"] and "expert" not in bluff  # a refused try: no judgement
    assert engine.analyse(state, "Ann", ["junk"])["kind"] == "invalid"
    # a wild step is free: no measure judges it (the take that follows is judged)
    wild = engine.analyse(state, "Ann", {"type": "wild", "card": "-2", "target": "10r"})
    assert wild["legal"] and "expert" not in wild and "take_chance" not in wild


def test_the_expert_s_own_take_is_never_a_miss_and_a_take_without_a_smaller_one_is_no_chance():
    engine = get("numero")
    setup = {"hands": {"Ann": ["-2", "-4", "9b", "5r", "2o"], "Ben": ["1g"]},
             "centre": ["10r", "5g"], "deck": []}
    state = engine.new_game(["Ann", "Ben"], {"wilds": ["subtract"]}, 0, setup)
    bot = make_bot("numero", "expert", 0)
    while True:
        action = bot.choose(engine.view(state, "Ann"))
        if action["type"] != "wild":
            break
        state, _ = engine.apply(state, "Ann", action)
    took = engine.analyse(state, "Ann", action)
    assert action["type"] == "take" and took["expert"] == "take" and took["take_chance"]
    assert took["chosen"]["cards"] == took["expert_take"]["cards"] == 5
    assert took["cards_left_behind"] == 0 and took["best_take_chance"]  # 5 alone was smaller
    # the centre 3 + 4 and a 7: the only take is the expert's, so no chance at a bigger one
    state = engine.new_game(["Ann", "Ben"], {}, 0, {"hands": {"Ann": ["7g", "1b"], "Ben": ["1g"]},
                                                  "centre": ["3r", "4o"], "deck": []})
    only = engine.analyse(state, "Ann", {"type": "take", "card": "7g", "groups": [["3r", "4o"]]})
    assert only["smallest_take"] == 3 and only["expert_take"]["cards"] == 3
    assert not only["best_take_chance"] and only["cards_left_behind"] == 0


def test_describe_event_gives_sentences():
    engine = get("numero")
    setup = {"hands": {"Ann": ["-2", "8b"], "Ben": ["1g"]}, "centre": ["10r"], "deck": []}
    state = engine.new_game(["Ann", "Ben"], {"wilds": ["subtract"], "scoring": True}, 0, setup)
    state, events = engine.apply(state, "Ann", {"type": "wild", "card": "-2", "target": "10r"})
    assert engine.describe_event(events[0]) == "Ann played wild card −2 on red 10: 10 − 2 = 8."
    state, events = engine.apply(state, "Ann", {"type": "take", "card": "8b", "groups": [["10r"]]})
    text = [engine.describe_event(e) for e in events]
    assert text[0].startswith("Ann took with blue 8 (8): 1 take, 3 cards,")
    assert all(t.endswith(".") for t in text)
    assert not any(re.search(r"\b\d{1,2}[gobr]\b", t) for t in text), text


CARD_CODE = re.compile(r"\b\d{1,2}[gobr]\b|(?<![\w÷×−])[-x/]\d|\b(?:sq|cube|sqrt|cbrt)\b")


def test_every_sentence_names_cards_in_words():
    """describe_event over whole games, at every level: "green 3", "wild card ÷2", never a
    card code (the codes stay in the events and the engine's contract)."""
    seen = set()

    def check(before, player, action, after, events):
        for event in events:
            text = get(after["game"]).describe_event(event)
            assert not CARD_CODE.search(text), text
            seen.add(event["type"])

    for seed, (game, players) in enumerate(GAMES * 3):
        options = copy.deepcopy(PRESETS[f"level{seed % 7 + 1}"]["options"])
        _play(seed, game, players, options, check, max_steps=150)
    assert {"take", "discard", "wild", "discard_wild", "centre_refill"} <= seen
    deal = get("numero").describe_event({"type": "deal", "centre": ["10g", "2b", "3o"]})
    assert deal == "The cards were dealt; the centre shows green 10, blue 2 and orange 3."


def test_refusals_name_cards_in_words_and_keep_their_codes():
    engine = get("numero")
    options = {"wilds": ["subtract", "multiply", "divide"], "challenges": False}
    setup = {"hands": {"Ann": ["5g", "/2", "-2", "3o", "8b"], "Ben": ["1g", "4o"]},
             "centre": ["10g", "2b", "3b"], "deck": ["9o", "11b", "12g", "13r", "14o", "15b"]}
    state = engine.new_game(["Ann", "Ben"], options, 0, setup)
    tries = {
        ("take", "group_mismatch"): {"type": "take", "card": "5g", "groups": [["10g"]]},
        ("take", "group_mismatch", 2): {"type": "take", "card": "5g", "groups": [["10g", "2b"]]},
        ("take", "not_a_number_card"): {"type": "take", "card": "/2", "groups": [["10g"]]},
        ("take", "not_in_hand"): {"type": "take", "card": "9r", "groups": [["10g"]]},
        ("take", "unknown_item"): {"type": "take", "card": "5g", "groups": [["1r"]]},
        ("wild", "not_a_wild_card"): {"type": "wild", "card": "5g", "target": "10g"},
        ("wild", "unknown_item"): {"type": "wild", "card": "/2", "target": "1r"},
        ("wild", "wild_result_invalid"): {"type": "wild", "card": "/2", "target": "3b"},
        ("wild", "wild_result_invalid", 2): {"type": "wild", "card": "-2", "target": "2b"},
        ("wild", "wild_not_in_pack"): {"type": "wild", "card": "sq", "target": "10g"},
        ("discard_wild", "not_a_wild_card"): {"type": "discard_wild", "card": "5g"},
        ("build", "no_answer_card"): {"type": "build", "card": "3o", "with": ["10g"]},
    }
    for key, action in tries.items():
        result = engine.analyse(state, "Ann", action)
        with pytest.raises(IllegalMove) as refused:
            engine.apply(state, "Ann", action)
        assert refused.value.code == key[1] == result["code"], (key, refused.value.message)
        assert not CARD_CODE.search(refused.value.message), refused.value.message
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, "Ann", tries[("take", "group_mismatch")])
    assert refused.value.message == "That centre card is worth 10, not 5, so your green 5 can't take it."
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, "Ann", tries[("take", "not_a_number_card")])
    assert refused.value.message.startswith("The wild card ÷2 is not a number card")
