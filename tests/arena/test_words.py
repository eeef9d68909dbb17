"""The sentences a child reads about their own arena."""

from arena import words


def test_places_are_words_at_the_top_and_numbers_further_down():
    assert words.place_line(1, 30, games=3) == "You're in 1st place!"
    assert words.place_line(2, 30, games=3) == "You're in 2nd place!"
    assert words.place_line(3, 30, games=3) == "You're in 3rd place!"
    assert words.place_line(5, 30, games=3) == "You're in the top 5!"
    assert words.place_line(9, 30, games=3) == "You're in the top 10!"
    assert words.place_line(12, 30, games=3) == "You're 12th of 30."
    assert words.place_line(23, 30, games=3) == "You're 23rd of 30."


def test_no_place_before_a_first_game():
    assert words.place_line(1, 30, games=0) == "Play a game to get a place on the board!"


def test_ordinals_of_the_teens():
    assert [words.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_points_say_one_point_and_many_points():
    assert words.points_line(6, 3) == "You have 6 points."
    assert words.points_line(1, 1) == "You have 1 point."
    assert words.points_line(0, 0) == "You have no points yet. Win a game to get 2!"


def test_a_streak_of_two_is_on_fire_and_one_is_almost():
    assert words.streak_line(0) == ""
    assert words.streak_line(1) == "You won your last game. Win one more and you're on fire!"
    assert words.streak_line(3) == "You won 3 games in a row. You're on fire: wins count double!"


def test_the_last_game_in_a_child_s_words():
    assert words.last_game_line(None) == ""
    assert words.last_game_line("win", 4, doubled=True) == "You won your last game: +4 points (double!)"
    assert words.last_game_line("win", 2) == "You won your last game: +2 points"
    assert words.last_game_line("draw", 1) == "Draw: +1 point"
    assert words.last_game_line("loss", 0) == "You lost your last game. Next one!"
    assert words.last_game_line("loss", 0, left=True) == "You left your last game, so it counted as a loss."


def test_without_points_the_last_game_has_no_number():
    line = words.last_game_line("win", 4, doubled=True, with_points=False)
    assert line == "You won your last game. Well done!" and "4" not in line


def test_best_score_invites_to_beat_it():
    assert words.best_score_line(None) == ""
    assert words.best_score_line(37) == "Your best score today is 37. Can you beat it?"


def test_the_state_words_for_each_moment():
    assert words.state_line("open", "waiting") == "Waiting for your teacher to start…"
    assert words.state_line("running", "waiting") == "Finding someone to play with…"
    assert words.state_line("paused", "waiting") == "Your teacher paused the arena. Games going on can finish."
    assert words.state_line("running", "resting") == "You're taking a break."
    assert words.state_line("running", "late") == "Your teacher will let you in soon."
    assert words.state_line("paused", "out") == "Your teacher has taken you out of this arena."
    assert words.state_line("finishing", "waiting") == "Time's up! The last games are finishing."


def test_the_summary_at_the_end():
    assert words.finished_line(games=7, wins=4, place=2, players=20, points=12, best=None,
                               with_points=True) == \
        "The arena is over! You played 7 games and won 4. You finished in 2nd place with 12 points."
    assert words.finished_line(games=3, wins=1, place=None, players=0, points=0, best=37,
                               with_points=False) == \
        "The arena is over! You played 3 games and won 1. Your best score was 37. Well played!"
    assert "didn't finish a game" in words.finished_line(games=0, wins=0, place=None, players=0,
                                                         points=0, best=None, with_points=True)
