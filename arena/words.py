"""The sentences a child reads about their own arena: their points, their streak, their place,
their last game, their best score. Pure functions of plain numbers (no Django), so the words
can be tested and changed in one place.

Children aged 8 to 14 read these while a game waits for them: short sentences, words before
numbers for the places that matter ("1st place", "the top 5"), and never a rating (ratings
pair students; they are not a score to compare).
"""

from __future__ import annotations

from arena.scoring import ON_FIRE_AFTER, POINTS, Outcome, on_fire

__all__ = ["COUNTING", "best_score_line", "finished_line", "games_line", "last_game_line", "ordinal",
           "place_line", "points_line", "state_line", "streak_line"]


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def points_line(points: int, games: int = 0) -> str:
    if points <= 0 and games == 0:
        return f"You have no points yet. Win a game to get {POINTS[Outcome.WIN]}!"
    if points <= 0:
        return "You have no points yet. Keep going: your next win counts!"
    return f"You have {_plural(points, 'point')}."


def streak_line(streak: int) -> str:
    """Wins in a row now ("" with none)."""
    if streak <= 0:
        return ""
    if on_fire(streak):
        return f"You won {streak} games in a row. You're on fire: wins count double!"
    more = ON_FIRE_AFTER - streak
    won = "You won your last game." if streak == 1 else f"You won {streak} games in a row."
    return f"{won} Win {'one' if more == 1 else more} more and you're on fire!"


def place_line(place: int | None, players: int, games: int = 0) -> str:
    """Where the child stands. Words for the top places; "12th of 30" further down."""
    if not place or games == 0:
        return "Play a game to get a place on the board!"
    if place == 1:
        return "You're in 1st place!" if players > 1 else "You're in 1st place."
    if place <= 3:
        return f"You're in {ordinal(place)} place!"
    if place <= 5:
        return "You're in the top 5!"
    if place <= 10:
        return "You're in the top 10!"
    return f"You're {ordinal(place)} of {players}."


def last_game_line(outcome: str | None, points: int = 0, *, doubled: bool = False,
                   left: bool = False, with_points: bool = True) -> str:
    """The last counted game ("" before the first)."""
    if outcome is None:
        return ""
    outcome = Outcome(outcome)
    if left:
        return "You left your last game, so it counted as a loss."
    double = " (double!)" if doubled else ""
    if outcome is Outcome.WIN:
        return f"You won your last game: +{_plural(points, 'point')}{double}" if with_points \
            else "You won your last game. Well done!"
    if outcome is Outcome.DRAW:
        return f"Draw: +{_plural(points, 'point')}{double}" if with_points \
            else "Your last game was a draw."
    return "You lost your last game. Next one!"


def games_line(games: int) -> str:
    if games == 0:
        return "You haven't finished a game yet. Your first one is coming!"
    return f"You've played {_plural(games, 'game')} so far."


def best_score_line(best: int | None) -> str:
    """No-points mode: the child races their own best, not the class."""
    if best is None:
        return ""
    return f"Your best score today is {best}. Can you beat it?"


def finished_line(*, games: int, wins: int, place: int | None, players: int, points: int,
                  best: int | None, with_points: bool) -> str:
    """The summary when the arena is over."""
    if games == 0:
        return "The arena is over. You didn't finish a game this time: next time!"
    played = f"The arena is over! You played {_plural(games, 'game')} and won {wins}."
    if with_points and place:
        where = "in 1st place" if place == 1 else (
            f"in {ordinal(place)} place" if place <= 3 else
            "in the top 5" if place <= 5 else "in the top 10" if place <= 10 else
            f"{ordinal(place)} of {players}")
        return f"{played} You finished {where} with {_plural(points, 'point')}."
    if best is not None:
        return f"{played} Your best score was {best}. Well played!"
    return f"{played} Well played!"


COUNTING = "Your game is over. Adding up the points…"

# What the page says about where the child is now: (arena status, player status) -> words.
_STATE = {
    "open": "Waiting for your teacher to start…",
    "paused": "Your teacher paused the arena. Games going on can finish.",
    "finishing": "Time's up! The last games are finishing.",
    "finished": "The arena is over.",
}
_PLAYER = {
    "waiting": "Finding someone to play with…",
    "playing": "Your game is ready: go to your table.",
    "resting": "You're taking a break.",
    "late": "Your teacher will let you in soon.",
    "out": "Your teacher has taken you out of this arena.",
}


def state_line(arena_status: str, player_status: str) -> str:
    """One sentence for the state the child is in. Being taken out, or let in late, matters
    more than the arena's clock; otherwise the arena's state comes first, then the child's."""
    if player_status in ("out", "late"):
        return _PLAYER[player_status]
    if arena_status == "running":
        return _PLAYER.get(player_status, "")
    if arena_status in ("paused", "finishing") and player_status == "playing":
        return _PLAYER["playing"]
    if arena_status == "open" and player_status == "resting":
        return _PLAYER["resting"]
    return _STATE.get(arena_status, "")
