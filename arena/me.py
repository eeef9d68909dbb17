"""A student's own arena box ("You"): what their arena page shows about them, and the fragment
their socket is sent whenever the arena changes for them (arena/consumers/player.py). The page
and the socket render the same template from the same context, so a reload and a push never
disagree; both in the child's language (the page's, or the one their socket chose at connect:
arena/words.py words each sentence when it is called).

Only the student's own row is read for the sentences (their place is counted from the
standings, but no other child's name or score goes into the context), and ratings never do:
they pair students; a child is not meant to compare them.
"""

from __future__ import annotations

from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import User
from arena import selectors, words
from arena.models import Arena, ArenaPlayer
from games.models import Game

ME_TEMPLATE = "arena/_me_live.html"


def table_url(player: ArenaPlayer) -> str:
    """Their running table's address ("" when they are not seated at a game in play)."""
    if player.status != ArenaPlayer.Status.PLAYING or player.game_id is None:
        return ""
    if player.game is None or player.game.status != Game.Status.ACTIVE:
        return ""
    return reverse("games:game", args=[player.game_id])


def me_context(player: ArenaPlayer) -> dict:
    arena = player.arena
    with_points = arena.with_points
    place, players, tied = None, 0, 0
    if with_points:
        # Counted, not read: the place in selectors.standings' order (points, then wins; level
        # players share a place) is 1 + the players strictly ahead; `tied` are level with them.
        counts = arena.players.aggregate(
            players=Count("id"),
            ahead=Count("id", filter=Q(points__gt=player.points)
                        | Q(points=player.points, wins__gt=player.wins)),
            tied=Count("id", filter=Q(points=player.points, wins=player.wins) & ~Q(pk=player.pk)))
        players, place, tied = counts["players"], counts["ahead"] + 1, counts["tied"]
    last = selectors.last_result(player=player)
    status, mine = arena.status, player.status
    # Taken out by the teacher: told so plainly, and nothing that no longer applies (no
    # "keep going", no place to climb, no streak to extend).
    out = mine == ArenaPlayer.Status.OUT
    table = table_url(player)
    # Seated with a classmate whose page still shows their last result: this page goes to the
    # table when theirs comes back to the arena, so neither plays before the other has sat down.
    opens_in = selectors.seconds_until_table_opens(player=player) if table else 0.0
    state = words.state_line(status, mine, ended_early=arena.ended_early)
    if mine == ArenaPlayer.Status.PLAYING and not table and status != Arena.Status.FINISHED:
        state = words.counting_line()  # their game just ended; the next round counts it
    over = status == Arena.Status.FINISHED
    return {
        "arena": arena,
        "player": player,
        "with_points": with_points,
        "table_url": table,
        "table_opens_in": f"{opens_in:.2f}" if opens_in > 0 else "",  # seconds (data-go-after)
        "state": state,
        "finding": status == Arena.Status.RUNNING and mine == ArenaPlayer.Status.WAITING,
        "may_rest": mine == ArenaPlayer.Status.WAITING and status in (
            Arena.Status.OPEN, Arena.Status.RUNNING, Arena.Status.PAUSED),
        "may_come_back": mine == ArenaPlayer.Status.RESTING and status in (
            Arena.Status.OPEN, Arena.Status.RUNNING, Arena.Status.PAUSED),
        "finished": over,
        "summary": words.finished_line(games=player.games, wins=player.wins, place=place,
                                       players=players, points=player.points,
                                       best=player.best_score, with_points=with_points,
                                       tied=tied, taken_out=out),
        # Once the arena is over the summary says it all: no "win a game to get 2!" left.
        "points": (words.points_line(player.points, player.games, out=out)
                   if with_points and not over else ""),
        "place": (words.place_line(place, players, player.games, tied=tied)
                  if with_points and not over and not out else ""),
        "streak": "" if out else words.streak_line(player.streak),
        "last_game": words.last_game_line(
            last.outcome if last else None, last.points if last else 0,
            doubled=bool(last and last.doubled), left=bool(last and last.left),
            taken_out=bool(last and last.taken_out), with_points=with_points),
        "games": "" if with_points else words.games_line(player.games, out=out),
        "best": "" if with_points else words.best_score_line(player.best_score, out=out),
    }


def render_me(*, user: User, arena_id: int) -> str | None:
    """The student's fragment now, or None when they are not (any more) a player here."""
    player = selectors.player_for_student(student=user, arena_id=arena_id)
    if player is None:
        return None
    return render_to_string(ME_TEMPLATE, me_context(player))
