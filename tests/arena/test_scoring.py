"""Arena scoring as a teacher reads the standings: 2 a win, 1 a draw, doubled on a streak."""

import pytest

from arena.scoring import ON_FIRE_AFTER, Outcome, on_fire, outcomes, score


def play(results: list[Outcome], streak: int = 0) -> list[tuple[int, int, bool]]:
    """(points, streak after, doubled) for each game of a run, the streak carried along."""
    seen = []
    for outcome in results:
        scored = score(outcome, streak_before=streak)
        streak = scored.streak
        seen.append((scored.points, scored.streak, scored.doubled))
    return seen


def test_a_win_streak_doubles_from_the_third_win_and_a_loss_resets_it():
    W, L = Outcome.WIN, Outcome.LOSS
    assert play([W, W, W, W, L, W]) == [
        (2, 1, False),
        (2, 2, False),
        (4, 3, True),
        (4, 4, True),
        (0, 0, False),  # a loss on fire scores nothing and ends the streak
        (2, 1, False),  # the fire is out: the next win is worth 2 again
    ]


def test_a_draw_on_fire_scores_two_and_ends_the_streak():
    W, D = Outcome.WIN, Outcome.DRAW
    assert play([W, W, D, W, D]) == [
        (2, 1, False),
        (2, 2, False),
        (2, 0, True),
        (2, 1, False),
        (1, 0, False),
    ]


def test_a_player_who_leaves_gets_the_loss_and_loses_the_streak():
    left = score(Outcome.LOSS, streak_before=5)
    assert (left.points, left.streak) == (0, 0)


def test_on_fire_after_two_wins():
    assert ON_FIRE_AFTER == 2
    assert [on_fire(streak) for streak in range(4)] == [False, False, True, True]


def test_a_stored_outcome_string_scores_like_the_enum():
    assert score("win", streak_before=2) == score(Outcome.WIN, streak_before=2)


def test_one_winner_wins_and_everybody_else_loses():
    assert outcomes({"ann"}, ["ann", "ben", "cy"]) == {
        "ann": Outcome.WIN,
        "ben": Outcome.LOSS,
        "cy": Outcome.LOSS,
    }


def test_a_tie_for_first_is_a_draw_for_the_tied_and_a_loss_for_the_rest():
    assert outcomes(["ann", "cy"], ["ann", "ben", "cy", "dee"]) == {
        "ann": Outcome.DRAW,
        "ben": Outcome.LOSS,
        "cy": Outcome.DRAW,
        "dee": Outcome.LOSS,
    }


def test_no_winner_is_a_draw_for_all():
    assert outcomes([], ["ann", "ben"]) == {"ann": Outcome.DRAW, "ben": Outcome.DRAW}


def test_a_winner_who_did_not_play_is_refused():
    with pytest.raises(ValueError, match="zed"):
        outcomes({"zed"}, ["ann", "ben"])
