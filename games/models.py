"""Games as stored: the engine's state as JSON plus who sits where, and every decision made.

A Game's `state` is the engine state (games/engine); `version` counts accepted moves and is
what clients send back as `expected_version`, so a stale or duplicated submission is
recognised. Moves are append-only: accepted ones and rejected attempts alike (rejections are
skill evidence).
"""

from django.conf import settings
from django.db import models


RECENT_EVENTS = 8  # moves in a table's "What just happened" list


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", "Waiting for players"
        ACTIVE = "active", "Playing"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Stopped"

    key = models.CharField(max_length=30)  # a registered game key (games/registry.py)
    options = models.JSONField(default=dict)
    seed = models.BigIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)
    # The events of the last accepted moves (at most RECENT_EVENTS, newest last): the table's
    # "What just happened" list. Kept with the game, written in the move's own UPDATE, so a
    # push reads no moves (games/services/moves.py `_store_state`).
    recent_events = models.JSONField(default=list, blank=True)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE, related_name="games")
    assignment = models.ForeignKey("classroom.Assignment", null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="games")
    table_code = models.CharField(max_length=6, blank=True, db_index=True)
    # A game that is one of a series (a class arena, arena/): where its players go once it is
    # over (its results link there, and a page that saw it finish goes there by itself), and
    # whether a student who leaves it forfeits it (the game stops: arena/ counts a loss for
    # the leaver and a win for the classmates) instead of handing the seat to a computer player.
    series_url = models.CharField(max_length=200, blank=True)
    forfeit_on_leave = models.BooleanField(default=False)
    # How long a page that saw a game of a series end shows its result before it goes back to
    # the series by itself (data-go-after: templates/games/_results.html, static/js/app.js).
    # The arena holds a classmate seated with that player at their next table until that page
    # is back, so both sit down together (arena/selectors.py `seconds_until_table_opens`).
    SERIES_RESULT_SECONDS = 3
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # When the current version was reached: think time counts from here.
    turn_started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["classroom", "status"]),
                   models.Index(fields=["assignment", "status"])]

    def __str__(self) -> str:
        return f"{self.key} #{self.pk}"


class Seat(models.Model):
    """A place at the table: a student, or a bot of a level. `name` is the engine's player name."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="seats")
    # "", "beginner", "player", "expert", or a mixed bot "mix:0.35" (a "just right" opponent)
    bot_level = models.CharField(max_length=10, blank=True)
    name = models.CharField(max_length=60)
    is_winner = models.BooleanField(default=False)
    score = models.IntegerField(null=True, blank=True)
    # When the student walked away from a game that forfeits on leave (Game.forfeit_on_leave).
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_seat_per_position"),
            models.UniqueConstraint(fields=["game", "name"], name="unique_seat_name_per_game"),
        ]

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="moves")
    sequence = models.PositiveIntegerField()  # order of all attempts in the game
    version_before = models.PositiveIntegerField()
    action = models.JSONField(null=True)  # null: a malformed submission with no action at all
    accepted = models.BooleanField()
    error_code = models.CharField(max_length=40, blank=True)
    events = models.JSONField(default=list)
    analysis = models.JSONField(default=dict)
    think_ms = models.PositiveIntegerField(null=True, blank=True)
    answer = models.IntegerField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="one_move_per_sequence"),
            models.UniqueConstraint(fields=["game", "idempotency_key"],
                                    condition=~models.Q(idempotency_key=""),
                                    name="idempotent_move_submission"),
        ]


class TableInvite(models.Model):
    """A classmate asked to a table still gathering players (shown on their home page)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invites")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="table_invites")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "student"], name="one_invite_per_student")]


class PlayerRating(models.Model):
    """A student's rating in one game (Elo; games/ratings.py has the figures and formulas).
    Moved only by `games.services.ratings.ratings_update_for_game`, once per finished game."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    key = models.CharField(max_length=30)  # a game key (games/registry.py)
    rating = models.FloatField()
    games = models.PositiveIntegerField(default=0)  # rated games so far (the K factor reads it)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_rating_per_game")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.key} {self.rating:.0f}"


class RatingChange(models.Model):
    """What one finished game did to one student's rating. At most one per game and student:
    the record that the game was counted (running the update again changes nothing)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    key = models.CharField(max_length=30)
    before = models.FloatField()
    after = models.FloatField()
    expected = models.FloatField()  # the chance of winning the ratings gave before the game
    score = models.FloatField()     # 1 a win (1/n when n players won), 0 otherwise
    k = models.FloatField()
    # Who was at the table: [{"name", "level" ("" for a classmate), "rating"}].
    opponents = models.JSONField(default=list)
    played_at = models.DateTimeField()  # the game's finish
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["played_at", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_game")]
        indexes = [models.Index(fields=["user", "key", "played_at"])]

    @property
    def delta(self) -> float:
        return self.after - self.before
