"""Every counted decision explained (docs/reports.md): for each game's measures, a counted decision
says what was played, what the expert computer player would have played and what the
difference was worth; a decision judged fine says why.

Games are played through the engines by planted students (devtools/validity.py, no database)
and counted by the reports' own machinery (reports/evidence.py); each counted row is then
explained by its game (`GameSkills.explain`) from the analysis recorded with its move, as the
moves page and the replay do. So what is checked is that the explanation agrees with the
verdict the teacher was given: the same miss or fine, the same amount, the expert's own move.
"""

from __future__ import annotations

from functools import cache

import pytest

from devtools.validity import planted_student, play_one
from games import registry
from games.engine.add_or_multiply.view import SYMBOL as AM_SYMBOL
from games.engine.numero.cards import words as numero_words
from games.engine.skills import Judged, Verdict, cards, number_words, points
from games.engine.smooth_operator import analyse as so_analyse, rules as so_rules
from games.engine.smooth_operator.verdicts import explain_response
from reports.measures import RULES, THINK

pytestmark = pytest.mark.django_db

# Each game with every one of its measures planted, so that misses and fine decisions both come.
PLANTS = {
    "smooth_operator": ["so.lowest_operator=0.4", "so.specials=0.5", "so.mental_math=0.3",
                        "so.even_division=0.5"],
    "add_or_multiply": ["am.operation=0.4"],
    "numero": ["nu.missed_take=0.4", "nu.best_take=0.5", "nu.valid_build=0.3"],
    "multiplication": ["mg.missed_play=0.3", "mg.squares=0.5", "mg.facts=0.3"],
}
MAX_GAMES = 40


@cache
def explained_rows(key: str) -> list[tuple[object, Judged, Verdict | None]]:
    """(evidence row, what explain read, its verdict) for every counted decision of planted
    games, until each measure of the game has had a miss and a fine decision (or MAX_GAMES)."""
    skills = registry.spec_for(key).skills
    wanted = {(m.id, missed) for m in skills.measures if m.has_misses for missed in (True, False)}
    student = planted_student(PLANTS[key], seed=f"verdicts:{key}")
    found, seen = [], set()
    for seed in range(MAX_GAMES):
        attempts: list = []
        for row in play_one(key, student, seed=seed, bot_level="player", actions_out=attempts):
            if row.measure in (RULES, THINK):
                continue
            analysis, action = attempts[row.move_id]
            judged = Judged(row.measure, row.detail, row.missed, row.amount, analysis, action)
            found.append((row, judged, skills.explain(judged)))
            seen.add((row.measure, row.missed))
        if wanted <= seen:
            break
    return found


@pytest.fixture(params=sorted(PLANTS))
def game_rows(request):
    return request.param, explained_rows(request.param)  # played once per game (cached)


def test_every_measure_explains_a_miss_and_a_fine_decision(game_rows):
    key, rows = game_rows
    measures = [m.id for m in registry.spec_for(key).skills.measures if m.has_misses]
    for measure in measures:
        for missed in (True, False):
            verdicts = [v for row, _, v in rows if row.measure == measure and row.missed == missed]
            assert verdicts, f"{key}: no {'missed' if missed else 'fine'} {measure} decision was played"
            assert all(v is not None for v in verdicts), f"{measure}: a counted decision has no explanation"


def test_an_explanation_agrees_with_its_verdict_and_reads_as_plain_sentences(game_rows):
    key, rows = game_rows
    for row, _, verdict in rows:
        assert verdict.missed == row.missed, (row.measure, verdict)
        for text in (verdict.played, verdict.expert, verdict.worth):
            assert text and (text[0].isupper() or text[0].isdigit()) and text.endswith("."), (row.measure, text)
            # No code or placeholder reaches a teacher: "free_choice", "None", "{", "nx".
            assert not any(bad in text for bad in ("_", "None", "{", "[")), (row.measure, text)
        if not row.missed:
            assert verdict.worth.startswith("Fine"), (row.measure, verdict.worth)
        else:
            assert not verdict.worth.startswith("Fine"), (row.measure, verdict.worth)


def _misses(rows, measure):
    return [(row, judged, verdict) for row, judged, verdict in rows if row.measure == measure and row.missed]


def _fine(rows, measure):
    return [(row, judged, verdict) for row, judged, verdict in rows if row.measure == measure and not row.missed]


@pytest.fixture
def so_rows():
    return explained_rows("smooth_operator")


def test_best_card_names_both_cards_and_the_points_given_away(so_rows):
    for row, judged, verdict in _misses(so_rows, "so.lowest_operator"):
        a = judged.analysis
        chosen, expert = a["chosen"], a["expert_card"]
        high, low = a["high"], a["low"]
        assert f"the {so_rules.CARD_NAME[chosen]} card: {high} {so_rules.SYMBOL[chosen]} {low} = " \
               f"{so_rules.result(chosen, high, low)}" in verdict.played
        assert f"the {so_rules.CARD_NAME[expert]} card: {high} {so_rules.SYMBOL[expert]} {low}" in verdict.expert
        # The worth is the counted amount: the regret, in points, against the expert's card.
        assert verdict.worth.startswith(f"Gave away {points(row.amount)} more than "
                                        f"the {so_rules.CARD_NAME[expert]} card would have")
        now = a["options"][chosen] - a["options"][expert]
        assert (f"{number_words(abs(now))} {'more' if now > 0 else 'fewer'} now" in verdict.worth
                or (now == 0 and "the same now" in verdict.worth))
    for row, judged, verdict in _fine(so_rows, "so.lowest_operator"):
        if judged.analysis["chosen"] == judged.analysis["expert_card"]:
            assert verdict.expert == "The expert would play the same card."
            assert "no card gives away fewer points" in verdict.worth


def test_a_response_explained_by_hand_as_a_teacher_would_check_it():
    """9 and 3 turned over, holding +, − and ×: the awards now are 12, 6 and 27. The expert's
    regret of each card (award now plus what the kept hand will give away) is its own
    evaluation; the sentence adds up the same way."""
    hand, high, low = ["+", "-", "x"], 9, 3
    options = so_rules.play_options(hand, high, low)
    assert options == {"+": 12, "-": 6, "x": 27}
    regrets = so_analyse.response_regrets(hand, high, low)
    expert = min(regrets, key=lambda c: (regrets[c], so_rules.CANONICAL[c]))
    worst = max(regrets, key=regrets.get)
    assert regrets[worst] > 0
    analysis = {"kind": "response", "high": high, "low": low, "hand": hand, "active": "Ben",
                "options": options, "regrets": regrets, "expert_card": expert, "chosen": worst}
    missed = explain_response(Judged("so.lowest_operator", "", True, regrets[worst], analysis, None))
    sym = so_rules.SYMBOL
    assert missed.played == (f"Played the {sym[worst]} card: {high} {sym[worst]} {low} = {options[worst]}, "
                             f"so {options[worst]} points for Ben now.")
    assert missed.expert == (f"The expert would play the {sym[expert]} card: {high} {sym[expert]} {low} = "
                             f"{options[expert]}, so {options[expert]} points for Ben now.")
    now = options[worst] - options[expert]
    later = regrets[worst] - now

    def part(x, when):  # the sentence's two halves, as a teacher would add them up
        return f"the same {when}" if abs(x) < 0.005 else \
            f"{number_words(abs(x))} {'more' if x > 0 else 'fewer'} {when}"
    assert missed.worth == (
        f"Gave away {points(regrets[worst])} more than the {sym[expert]} card would "
        f"have, as the expert counts them ({part(now, 'now')}, {part(later, 'later from the cards kept')}).")
    fine = explain_response(Judged("so.lowest_operator", "", False, 0.0, {**analysis, "chosen": expert}, None))
    assert not fine.missed and fine.expert == "The expert would play the same card."
    if options[expert] == min(options.values()):
        others = [c for c in regrets if c != expert and regrets[c] > 0]
        assert all(f"the {sym[c]} card would give away {points(regrets[c])} more" in fine.worth for c in others)


def _higher_cards_on_purpose():
    """Every three-card hand and pair where the expert's card gives more points now than the
    lowest card: (hand, high, low, options, regrets, expert's card, lowest card)."""
    codes = so_rules.ARITHMETIC
    for i, a in enumerate(codes):
        for j, b in enumerate(codes[i:], i):
            for c in codes[j:]:
                for high in so_rules.HIGH_VALUES:
                    for low in so_rules.LOW_VALUES:
                        hand = [a, b, c]
                        options = so_rules.play_options(hand, high, low)
                        if len(options) < 2:
                            continue
                        regrets = so_analyse.response_regrets(hand, high, low)
                        expert = min(regrets, key=lambda card: (regrets[card], so_rules.CANONICAL[card]))
                        lowest = min(options, key=lambda card: (options[card], so_rules.CANONICAL[card]))
                        if options[expert] > options[lowest] and regrets[lowest] > 0:
                            yield hand, high, low, options, regrets, expert, lowest


def test_a_higher_card_played_on_purpose_is_fine_and_says_why():
    """The expert sometimes plays a card worth more points now, to keep a cheaper hand (getting
    rid of × while it is cheap): a child who does the same is not counted, and the words say
    what it cost now and what it saves later, the two adding up to the expert's count."""
    sym = so_rules.SYMBOL
    found = next(_higher_cards_on_purpose(), None)
    assert found is not None, "the expert never plays a higher card on purpose"
    hand, high, low, options, regrets, expert, lowest = found
    analysis = {"kind": "response", "high": high, "low": low, "hand": hand, "active": "Ben",
                "options": options, "regrets": regrets, "expert_card": expert, "chosen": expert}
    verdict = explain_response(Judged("so.lowest_operator", "", False, 0.0, analysis, None))
    now = options[expert] - options[lowest]
    assert verdict.worth == (
        f"Fine: it gives {points(now)} more now than the {sym[lowest]} card, but playing "
        f"the {sym[lowest]} card would keep cards that give away {number_words(now + regrets[lowest])} more "
        f"later, as the expert counts them: {points(regrets[lowest])} more in all.")


def test_an_equally_good_card_is_fine_and_says_so():
    """Two cards the expert rates the same: playing either is fine, and the words say the other
    would have given away the same points."""
    analysis = {"kind": "response", "high": 8, "low": 2, "hand": ["-", "/"], "active": "Ben",
                "options": {"-": 6, "/": 4}, "regrets": {"-": 0.0, "/": 0.0}, "expert_card": "-",
                "chosen": "/"}
    verdict = explain_response(Judged("so.lowest_operator", "", False, 0.0, analysis, None))
    assert verdict.expert.startswith("The expert would play the − card: 8 − 2 = 6")
    assert verdict.worth == ("Fine: the − card would have given away the same points, now and later "
                             "from the cards kept.")


def test_special_cards_name_the_points_missed(so_rows):
    misses = _misses(so_rows, "so.specials")
    for row, judged, verdict in misses:
        kind = judged.analysis["specials_miss"]
        if kind == "kept_win":
            assert f"{points(row.amount)} more reach the target" in verdict.expert
        elif row.amount:  # a Double on 0, or a Free Choice that raised nothing, lost no points
            assert points(row.amount) in verdict.worth
        if kind == "weak_free_choice" or kind == "kept_free_choice":
            best = max(judged.analysis["free_choice_points"], key=judged.analysis["free_choice_points"].get)
            assert f"Free Choice with {so_rules.SYMBOL[best]}" in verdict.expert or "keep Free Choice" in verdict.expert
    for row, judged, verdict in _fine(so_rows, "so.specials"):
        assert verdict.worth.startswith("Fine: ")


def test_mental_maths_shows_the_answer_and_the_sum(so_rows):
    for row, judged, verdict in _misses(so_rows, "so.mental_math"):
        a = judged.analysis
        assert verdict.played == f"Answered {a['answer']} for {a['high']} {row.detail} {a['low']}."
        assert verdict.expert == f"{a['high']} {row.detail} {a['low']} = {a['correct_answer']}."


def test_add_or_multiply_names_the_better_operation_and_the_expected_points():
    rows = explained_rows("add_or_multiply")
    for row, judged, verdict in _misses(rows, "am.operation"):
        choice = judged.analysis["operation_choice"]
        better = max(choice["values"], key=choice["values"].get)
        assert verdict.played.startswith(f"Chose {AM_SYMBOL[choice['chosen']]} ")
        assert verdict.expert.startswith(f"The expert would choose {AM_SYMBOL[better]} ")
        assert verdict.worth.startswith(f"Gave up {points(row.amount)} on average "
                                        f"against {AM_SYMBOL[better]}")
    for row, judged, verdict in _fine(rows, "am.operation"):
        choice = judged.analysis["operation_choice"]
        values = choice["values"]
        gap = abs(values["+"] - values["x"])
        assert verdict.worth.startswith(f"Fine: {AM_SYMBOL[choice['chosen']]} is worth "
                                        f"{points(gap)} more on average")


def test_numero_names_the_expert_take_and_the_cards_left_behind():
    rows = explained_rows("numero")
    for row, judged, verdict in _misses(rows, "nu.best_take"):
        take = judged.analysis["expert_take"]
        assert f"{take['cards']} cards with {numero_words(take['card'])}" in verdict.expert
        assert verdict.worth.startswith(f"{cards(row.amount)} left behind: "
                                        f"the expert's take wins {take['cards']}, "
                                        f"this one {judged.analysis['chosen']['cards']}.")
    for row, judged, verdict in _misses(rows, "nu.missed_take"):
        take = judged.analysis["expert_take"]
        assert verdict.played.startswith(("Built ", "Put "))
        assert verdict.expert.startswith(f"The expert would take: {cards(take['cards'])} "
                                         f"with {numero_words(take['card'])}")
    for row, judged, verdict in _fine(rows, "nu.missed_take"):
        assert verdict.played.startswith("Took ")


def _mg_card(card) -> str:
    return "a free card" if card == "free" else str(card)


def test_multiplication_names_the_expert_discard_and_the_cards_it_costs():
    rows = explained_rows("multiplication")
    for row, judged, verdict in _misses(rows, "mg.missed_play"):
        card, a, b = judged.analysis["expert"]["move"]
        card = _mg_card(card)
        assert verdict.played == "Drew a card."
        assert verdict.expert.startswith(f"The expert would discard {card} as {a} × {b}")
        assert verdict.worth.startswith(f"{cards(row.amount)} more in hand")
    for row, judged, verdict in _misses(rows, "mg.squares"):
        card, a, b = judged.analysis["expert"]["move"]
        card = _mg_card(card)
        assert a * b in {n * n for n in range(1, 11)}
        assert verdict.expert.startswith(f"The expert would discard {card} as {a} × {b}: a square")
        assert verdict.worth.startswith(f"{cards(row.amount)} given up")
    for row, judged, verdict in _fine(rows, "mg.squares"):
        assert ": a square" in verdict.played
