"""Ratings writes: each finished game moves its students' ratings once (games/ratings.py has
the figures and formulas).

`ratings_update_for_game` runs after the game's finish is committed (`finished_on_commit`,
games/services/after_commit.py), in its own transaction. It is idempotent: the RatingChange of
a game and student is the record that the game was counted, so running it twice (a second
call, a sweep, two workers at once) changes nothing the second time. Two runs at once are
serialised by the students' PlayerRating rows, locked in user-id order (one lock order, so two
games of the same classmates finishing together cannot deadlock); the unique constraint on
(game, user) is the backstop.
"""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction

from games import ratings, registry
from games.models import Game, PlayerRating, RatingChange, Seat

log = logging.getLogger(__name__)


def rated(spec, seats: list[Seat]) -> bool:
    """A game moves ratings when it is played by more than one seat and a student sat at it."""
    return spec is not None and spec.multiplayer and len(seats) > 1 and any(s.user_id for s in seats)


def _ratings_locked(*, user_ids: list[int], key: str) -> dict[int, PlayerRating]:
    """The students' PlayerRatings for `key` (new ones at the default), locked in id order."""
    existing = set(PlayerRating.objects.filter(user_id__in=user_ids, key=key)
                   .values_list("user_id", flat=True))
    start = ratings.default_rating(key)
    for user_id in sorted(set(user_ids) - existing):
        PlayerRating.objects.get_or_create(user_id=user_id, key=key, defaults={"rating": start})
    locked = (PlayerRating.objects.select_for_update().filter(user_id__in=user_ids, key=key)
              .order_by("user_id"))
    return {r.user_id: r for r in locked}


def ratings_update_for_game(*, game_id: int) -> list[RatingChange]:
    """Move the ratings of the students at a finished game; returns the changes made now
    (empty when the game was counted already, is not finished, or is not rated)."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return []
    spec = registry.get(game.key)
    seats = list(game.seats.all())
    if not rated(spec, seats):
        return []
    students = [s for s in seats if s.user_id]
    try:
        with transaction.atomic():
            mine = _ratings_locked(user_ids=[s.user_id for s in students], key=game.key)
            done = dict(RatingChange.objects.filter(game=game).values_list("user_id", "before"))
            if len(done) == len({s.user_id for s in students}):
                return []
            # Everybody's rating before this game: a student counted already keeps the rating
            # the first run used, so a second run computes exactly what the first did.
            before = [done.get(s.user_id, mine[s.user_id].rating) if s.user_id
                      else ratings.bot_rating(game.key, s.bot_level) for s in seats]
            expected = ratings.expected_scores(before)
            scores = ratings.actual_scores([s.is_winner for s in seats])
            changes = []
            for i, seat in enumerate(seats):
                if not seat.user_id or seat.user_id in done:
                    continue
                row = mine[seat.user_id]
                after, k = ratings.updated(before[i], expected=expected[i], score=scores[i],
                                           games=row.games)
                changes.append(RatingChange(
                    game=game, user_id=seat.user_id, key=game.key, before=before[i], after=after,
                    expected=expected[i], score=scores[i], k=k, played_at=game.finished_at or game.updated_at,
                    opponents=[{"name": s.name, "level": s.bot_level, "rating": round(before[j], 1)}
                               for j, s in enumerate(seats) if j != i]))
                row.rating, row.games = after, row.games + 1
                row.save(update_fields=["rating", "games", "updated_at"])
                done[seat.user_id] = before[i]
            RatingChange.objects.bulk_create(changes)
    except IntegrityError:  # counted meanwhile by another run: nothing more to do
        log.info("game %s: ratings were updated by another run", game_id)
        return []
    return changes


def student_rating(*, student, key: str) -> float:
    """The student's current rating in a game (the default before their first rated game)."""
    row = PlayerRating.objects.filter(user=student, key=key).values_list("rating", flat=True).first()
    return row if row is not None else ratings.default_rating(key)


def just_right_level(*, student, key: str, bots: int = 1) -> str:
    """The level ("mix:0.42") of `bots` computer players that give `student` an even chance
    of winning their next game of `key`, from their rating now."""
    return ratings.just_right_level(key, student_rating(student=student, key=key), bots)


def ratings_update_all(*, game_ids: list[int] | None = None) -> int:
    """Rate finished games not rated yet (all, or those of `game_ids`), oldest finish first,
    as they would have been rated one by one: for games finished before ratings existed, or
    a finish whose rating failed after commit (logged). Returns how many rating changes were
    made. Idempotent."""
    games = Game.objects.filter(status=Game.Status.FINISHED).exclude(rating_changes__isnull=False)
    if game_ids is not None:
        games = games.filter(pk__in=game_ids)
    made = 0
    for game_id in games.order_by("finished_at", "id").values_list("pk", flat=True).iterator():
        made += len(ratings_update_for_game(game_id=game_id))
    return made
