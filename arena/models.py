"""A class arena as stored: everything about it lives in these rows, so restarting the web
processes or the worker in the middle of an arena loses no game, no score and no waiting
student (the ticker picks up from the rows; arena/ticker.py).

- `Arena`: the game and its options, the clock, the mode, who may join, the join code.
- `ArenaPlayer`: one student in one arena: waiting, playing (at `game`), resting, or taken
  out; their points and streak.
- `ArenaGame`: one table the arena dealt (an ordinary recorded `games.Game`, so its moves feed
  the skill reports as any other game's do), and whether its result is counted yet.
- `ArenaResult`: what one game did for one player (win, draw, loss; points; doubled). At most
  one per game and player: counting a game twice changes nothing.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.codes import new_join_code


class Arena(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open: students are joining")
        RUNNING = "running", pgettext_lazy("an arena's state", "Playing")
        PAUSED = "paused", pgettext_lazy("an arena's state", "Paused")
        FINISHING = "finishing", _("Finishing the last games")
        FINISHED = "finished", pgettext_lazy("an arena's state", "Finished")

    class Mode(models.TextChoices):
        POINTS = "points", _("Points and a ranking")
        NO_POINTS = "no_points", _("No points: personal bests and the class's totals")

    class Joining(models.TextChoices):
        EVERYONE = "everyone", _("Everyone in the chosen classes")
        CHOSEN = "chosen", _("Only the students I choose")

    title = models.CharField(max_length=100)
    # The class the arena was started from: its teachers run it. `classes` are every class
    # whose students may join (the host class among them).
    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE,
                                  related_name="arenas")
    classes = models.ManyToManyField("classroom.Classroom", related_name="+")
    students = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")
    joining = models.CharField(max_length=10, choices=Joining.choices, default=Joining.EVERYONE)
    key = models.CharField(max_length=30)  # a registered game key (games/registry.py)
    options = models.JSONField(default=dict)
    focus = models.JSONField(default=dict, blank=True)  # a practice focus, as an assignment's
    table_size = models.PositiveSmallIntegerField(default=2)
    minutes = models.PositiveSmallIntegerField(default=10)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.POINTS)
    join_code = models.CharField(max_length=6, unique=True, default=new_join_code)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # The clock: while running it ends at `ends_at`; paused, `remaining_seconds` is kept and
    # `ends_at` is set again on resume.
    ends_at = models.DateTimeField(null=True, blank=True)
    remaining_seconds = models.PositiveIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The teacher pressed "End early" (the clock did not run out): the pages say so.
    ended_early = models.BooleanField(default=False)
    # The last pairing round (the ticker runs one at most every ARENA_ROUND_SECONDS).
    last_round_at = models.DateTimeField(null=True, blank=True)
    rounds = models.PositiveIntegerField(default=0)
    # What the projector was last sent (arena/screen.py), so an unchanged screen is not sent.
    screen_digest = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return self.title

    @property
    def with_points(self) -> bool:
        return self.mode == self.Mode.POINTS

    @property
    def is_live(self) -> bool:
        """Students may be seated or are still playing."""
        return self.status in (self.Status.RUNNING, self.Status.PAUSED, self.Status.FINISHING)

    def seconds_left(self, now=None) -> int:
        if self.status == self.Status.PAUSED:
            return int(self.remaining_seconds or 0)
        if self.status == self.Status.OPEN:
            return self.minutes * 60
        if self.status != self.Status.RUNNING or self.ends_at is None:
            return 0
        return max(0, int((self.ends_at - (now or timezone.now())).total_seconds()))

    def length(self) -> timedelta:
        return timedelta(minutes=self.minutes)


class ArenaPlayer(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for a table")
        PLAYING = "playing", pgettext_lazy("a student's state in an arena", "Playing")
        RESTING = "resting", _("Taking a break")
        LATE = "late", _("Asking to join")
        OUT = "out", _("Taken out")

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="arena_players")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    waiting_since = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")  # the table they are at while playing
    rating_at_start = models.FloatField(default=0)
    points = models.IntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)   # wins in a row now
    best_streak = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    best_score = models.IntegerField(null=True, blank=True)  # best in-game score (no points mode)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-points", "-wins", "joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["arena", "user"], name="one_player_per_arena")]
        indexes = [models.Index(fields=["arena", "status"])]

    def __str__(self) -> str:
        return f"{self.user_id} in arena {self.arena_id}"


class ArenaGame(models.Model):
    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="tables")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="arena_table")
    round = models.PositiveIntegerField()
    with_bots = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    counted_at = models.DateTimeField(null=True, blank=True)  # its result is in the scores

    class Meta:
        ordering = ["created_at", "id"]


class ArenaResult(models.Model):
    class Outcome(models.TextChoices):
        WIN = "win", pgettext_lazy("a game's outcome", "Won")
        DRAW = "draw", pgettext_lazy("a game's outcome", "Draw")
        LOSS = "loss", pgettext_lazy("a game's outcome", "Lost")

    table = models.ForeignKey(ArenaGame, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(ArenaPlayer, on_delete=models.CASCADE, related_name="results")
    outcome = models.CharField(max_length=4, choices=Outcome.choices)
    points = models.IntegerField()
    doubled = models.BooleanField(default=False)
    left = models.BooleanField(default=False)  # the player walked away (a forfeit)
    # The teacher took the player out during this game (a forfeit too, not the child's choice).
    taken_out = models.BooleanField(default=False)
    game_score = models.IntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["table", "player"], name="one_result_per_table")]
