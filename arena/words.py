"""The sentences a child reads about their own arena: their points, their streak, their place,
their last game, their best score. Functions of plain numbers, in the language active when they
are called (the page's, or the one the child's socket renders in: arena/consumers/player.py),
so the words can be tested and changed in one place.

Children aged 8 to 14 read these while a game waits for them: short sentences, words before
numbers for the places that matter ("1st place", "the top 5"), and never a rating (ratings
pair students; they are not a score to compare). Every sentence is whole, with named
placeholders, and counts go through ngettext (Arabic has six plural forms).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from arena.scoring import POINTS, Outcome, on_fire

__all__ = ["best_score_line", "counting_line", "finished_line", "games_line", "last_game_line",
           "ordinal", "place_line", "points_line", "state_line", "streak_line", "tie_line"]


def ordinal(n: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd" in English; each language writes its
    own ("1.º" in Spanish). The suffix is chosen by English's rule; a language whose ordinals
    follow another rule writes the same form for all four (as Spanish and Arabic do)."""
    if 10 <= n % 100 <= 20:
        # Translators: an ordinal number such as 4th, 11th, 12th, 13th, 20th, 100th.
        text = pgettext("ordinal number", "%(n)sth")
    elif n % 10 == 1:
        # Translators: an ordinal number ending in 1 (but not 11): 1st, 21st, 101st.
        text = pgettext("ordinal number ending in 1", "%(n)sst")
    elif n % 10 == 2:
        # Translators: an ordinal number ending in 2 (but not 12): 2nd, 22nd.
        text = pgettext("ordinal number ending in 2", "%(n)snd")
    elif n % 10 == 3:
        # Translators: an ordinal number ending in 3 (but not 13): 3rd, 23rd.
        text = pgettext("ordinal number ending in 3", "%(n)srd")
    else:
        # Translators: an ordinal number such as 4th, 11th, 12th, 13th, 20th, 100th.
        text = pgettext("ordinal number", "%(n)sth")
    return text % {"n": n}


def points_line(points: int, games: int = 0, *, out: bool = False) -> str:
    """Their points, with a word of encouragement while they can still win some (`out`: the
    teacher took them out, so only the number)."""
    if out:
        return ngettext("You have %(count)s point.", "You have %(count)s points.", points) % {"count": points}
    if points <= 0 and games == 0:
        return _("You have no points yet. Win a game to get %(points)s!") % {"points": POINTS[Outcome.WIN]}
    if points <= 0:
        return _("You have no points yet. Keep going: your next win counts!")
    return ngettext("You have %(count)s point.", "You have %(count)s points.", points) % {"count": points}


def streak_line(streak: int) -> str:
    """Wins in a row now ("" with none)."""
    if streak <= 0:
        return ""
    if on_fire(streak):
        return ngettext("You won %(count)s game in a row. You're on fire: wins count double!",
                        "You won %(count)s games in a row. You're on fire: wins count double!",
                        streak) % {"count": streak}
    # Below the fire there is one win (ON_FIRE_AFTER is 2: a test holds it), so one more lights it.
    return _("You won your last game. Win one more and you're on fire!")


def _top(place: int, players: int) -> int | None:
    """The "top 5" or "top 10" the child is in, when saying so means something: only in an
    arena of more players than that (in an arena of 8, 7th is 7th of 8, not "the top 10")."""
    for top in (5, 10):
        if place <= top < players:
            return top
    return None


def tie_line(tied: int) -> str:
    """Classmates level with the child (same points and wins: the same place), said as a tie."""
    if tied <= 0:
        return ""
    return ngettext("It's a tie: you share this place with %(count)s classmate.",
                    "It's a tie: you share this place with %(count)s classmates.",
                    tied) % {"count": tied}


def place_line(place: int | None, players: int, games: int = 0, tied: int = 0) -> str:
    """Where the child stands. Words for the top places; "12th of 30" further down; and a tie
    said as one where the place is named (`tied`: how many share it with the child)."""
    if not place or games == 0:
        return _("Play a game to get a place on the board!")
    if place == 1:
        line = _("You're in 1st place!") if players > 1 else _("You're in 1st place.")
    elif place == 2:
        line = _("You're in 2nd place!")
    elif place == 3:
        line = _("You're in 3rd place!")
    elif _top(place, players) == 5:
        return _("You're in the top 5!")
    elif _top(place, players) == 10:
        return _("You're in the top 10!")
    else:
        # Translators: the child's place among all players, e.g. "You're 12th of 30." %(place)s is
        # the place already written as an ordinal (12th).
        line = _("You're %(place)s of %(players)s.") % {"place": ordinal(place), "players": players}
    return " ".join(filter(None, [line, tie_line(tied)]))


def last_game_line(outcome: str | None, points: int = 0, *, doubled: bool = False,
                   left: bool = False, taken_out: bool = False, with_points: bool = True) -> str:
    """The last counted game ("" before the first)."""
    if outcome is None:
        return ""
    outcome = Outcome(outcome)
    if taken_out:
        return _("Your teacher took you out during your last game, so it counted as a loss.")
    if left:
        return _("You left your last game, so it counted as a loss.")
    values = {"count": points}
    if outcome is Outcome.WIN:
        if not with_points:
            return _("You won your last game. Well done!")
        if doubled:
            return ngettext("You won your last game: +%(count)s point (double!)",
                            "You won your last game: +%(count)s points (double!)", points) % values
        return ngettext("You won your last game: +%(count)s point",
                        "You won your last game: +%(count)s points", points) % values
    if outcome is Outcome.DRAW:
        if not with_points:
            return _("Your last game was a draw.")
        if doubled:
            return ngettext("Draw: +%(count)s point (double!)", "Draw: +%(count)s points (double!)",
                            points) % values
        return ngettext("Draw: +%(count)s point", "Draw: +%(count)s points", points) % values
    return _("You lost your last game. Next one!")


def games_line(games: int, *, out: bool = False) -> str:
    if games == 0 and out:
        return ""
    if games == 0:
        return _("You haven't finished a game yet. Your first one is coming!")
    return ngettext("You've played %(count)s game so far.", "You've played %(count)s games so far.",
                    games) % {"count": games}


def best_score_line(best: int | None, *, out: bool = False) -> str:
    """No-points mode: the child races their own best, not the class (`out`: taken out, so no
    more games to beat it in)."""
    if best is None:
        return ""
    if out:
        return _("Your best score today was %(best)s.") % {"best": best}
    return _("Your best score today is %(best)s. Can you beat it?") % {"best": best}


def _finished_where(place: int, players: int, points: int) -> str:
    """Where the child finished and with how many points: a whole sentence for each place."""
    values = {"count": points, "place": ordinal(place), "players": players}
    if place == 1:
        return ngettext("You finished in 1st place with %(count)s point.",
                        "You finished in 1st place with %(count)s points.", points) % values
    if place == 2:
        return ngettext("You finished in 2nd place with %(count)s point.",
                        "You finished in 2nd place with %(count)s points.", points) % values
    if place == 3:
        return ngettext("You finished in 3rd place with %(count)s point.",
                        "You finished in 3rd place with %(count)s points.", points) % values
    if _top(place, players) == 5:
        return ngettext("You finished in the top 5 with %(count)s point.",
                        "You finished in the top 5 with %(count)s points.", points) % values
    if _top(place, players) == 10:
        return ngettext("You finished in the top 10 with %(count)s point.",
                        "You finished in the top 10 with %(count)s points.", points) % values
    # Translators: %(place)s is the place written as an ordinal (12th), %(players)s how many played.
    return ngettext("You finished %(place)s of %(players)s with %(count)s point.",
                    "You finished %(place)s of %(players)s with %(count)s points.", points) % values


def finished_line(*, games: int, wins: int, place: int | None, players: int, points: int,
                  best: int | None, with_points: bool, tied: int = 0, taken_out: bool = False) -> str:
    """The summary when the arena is over: up to three short sentences, each whole. A child the
    teacher took out is told so, and given no place (the podium leaves them out too)."""
    if taken_out:
        out = _("Your teacher took you out of this arena before the end.")
        if games == 0:
            return out
        return ngettext("The arena is over. You played %(count)s game and won %(wins)s.",
                        "The arena is over. You played %(count)s games and won %(wins)s.",
                        games) % {"count": games, "wins": wins} + f" {out}"
    if games == 0:
        return _("The arena is over. You didn't finish a game this time: next time!")
    played = ngettext("The arena is over! You played %(count)s game and won %(wins)s.",
                      "The arena is over! You played %(count)s games and won %(wins)s.",
                      games) % {"count": games, "wins": wins}
    if with_points and place:
        where = _finished_where(place, players, points)
        tie = tie_line(tied) if _top(place, players) is None or place <= 3 else ""
        return " ".join(filter(None, [played, where, tie]))
    if best is not None:
        return f"{played} " + _("Your best score was %(best)s. Well played!") % {"best": best}
    return f"{played} " + _("Well played!")


def counting_line() -> str:
    return _("Your game is over. Adding up the points…")


def _state_words(arena_status: str, ended_early: bool = False) -> str:
    """What the page says about the arena's own state."""
    if arena_status == "finishing" and ended_early:
        return _("Your teacher ended the arena. The last games are finishing.")
    return {
        "open": _("Waiting for your teacher to start…"),
        "paused": _("Your teacher paused the arena. Games going on can finish."),
        "finishing": _("Time's up! The last games are finishing."),
        "finished": _("The arena is over."),
    }.get(arena_status, "")


def _player_words(player_status: str) -> str:
    """What the page says about where the child is now."""
    return {
        "waiting": _("Finding someone to play with…"),
        "playing": _("Your game is ready: go to your table."),
        "resting": _("You're taking a break."),
        "late": _("Your teacher will let you in soon."),
        "out": _("Your teacher has taken you out of this arena."),
    }.get(player_status, "")


def state_line(arena_status: str, player_status: str, *, ended_early: bool = False) -> str:
    """One sentence for the state the child is in. Being taken out, or let in late, matters
    more than the arena's clock; otherwise the arena's state comes first, then the child's.
    `ended_early`: the teacher ended the arena (its clock had not run out)."""
    if player_status in ("out", "late"):
        return _player_words(player_status)
    if arena_status == "running":
        return _player_words(player_status)
    if arena_status in ("paused", "finishing") and player_status == "playing":
        return _player_words("playing")
    if arena_status == "open" and player_status == "resting":
        return _player_words("resting")
    return _state_words(arena_status, ended_early)
