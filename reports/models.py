"""What the skill reports are made of (measures defined in docs/reports.md, "The measures").

- `SkillEvidence`: one chance at one measure, taken from one recorded Move. Every number in a
  report is a count of these rows, so every number can list the moves behind it (each row
  knows its game and the turn to open the replay at).
- `GameReport`: the marker that a game's moves were turned into evidence at a given game
  version. The analysis task upserts by (game, version): run twice, it changes nothing.
- `SkillRollup`: counts per student / class / assignment, all time or per week, rebuilt by
  the periodic roll-up task from the evidence (so it can always be recomputed).
- `NeedsHelpFlag`: a student who needs help on a measure (or on one fact, operation or family
  of it), with the evidence that says so.

Privacy: evidence, roll-ups and flags of a student are deleted when the student is removed
from the class (see services), and class roll-ups are recomputed without them.
"""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _


class GameReport(models.Model):
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="report")
    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE,
                                  related_name="game_reports")
    version = models.PositiveIntegerField()  # the game version the evidence was computed from
    decisions = models.PositiveIntegerField(default=0)  # moves looked at
    # measures.MEASURES_REVISION of the measures the evidence was counted by: an older one is
    # recomputed (by the minute's sweep, or a teacher's Recompute) with the current measures.
    revision = models.PositiveSmallIntegerField(default=1)
    computed_at = models.DateTimeField(auto_now=True)


class SkillEvidence(models.Model):
    # Evidence is derived data, written a million rows at a time and always rebuilt from the
    # moves, so its write path is kept lean (see docs/reports.md, "Why evidence is lean"):
    # - no database foreign-key constraints: each one is a deferred trigger per row, checked at
    #   commit (about a third of the write time). Django still cascades deletes of games,
    #   moves, students and classes, and removed students are forgotten by the services;
    # - no unique key: a game's rows are replaced (delete, then insert) while the game row is
    #   locked, so a second run of the same game writes the same rows, never extra ones;
    # - indexes only for the reads: by game (replace), by class + measure + student (every
    #   report read, drill-down, roll-up and flag), by student (forgetting a student) and by
    #   assignment (set to null when an assignment is deleted): only the rows that have one
    #   (a free game's rows are not in it: each index is about a sixth of the write time).
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="skill_evidence",
                             db_constraint=False)
    move = models.ForeignKey("games.Move", on_delete=models.CASCADE, related_name="skill_evidence",
                             db_index=False, db_constraint=False)
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="skill_evidence", db_constraint=False)
    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE,
                                  related_name="skill_evidence", db_index=False, db_constraint=False)
    assignment = models.ForeignKey("classroom.Assignment", null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="skill_evidence",
                                   db_index=False, db_constraint=False)
    measure = models.CharField(max_length=30)  # e.g. "so.lowest_operator"
    # A sub-key: the fact "7x8" for mg.facts, the error code for all.rule_errors, the decision
    # kind for all.think_time; "" when the measure has none. At most one row per
    # (move, measure, detail).
    detail = models.CharField(max_length=40, blank=True, default="")
    missed = models.BooleanField(default=False)
    # A measure's amount: points given away above the lowest, cards left behind, seconds taken.
    amount = models.FloatField(null=True, blank=True)
    turn = models.PositiveIntegerField()  # the game version before the move: ?turn= of the replay
    played_at = models.DateTimeField()
    week = models.DateField()  # Monday of the week played, for trends

    class Meta:
        indexes = [models.Index(fields=["classroom", "measure", "student"]),
                   models.Index(fields=["assignment"], condition=models.Q(assignment__isnull=False),
                                name="reports_evidence_assignment")]


class SkillRollup(models.Model):
    class Scope(models.TextChoices):
        STUDENT = "student", "Student"
        CLASS = "class", "Class"
        ASSIGNMENT = "assignment", "Assignment"

    scope = models.CharField(max_length=10, choices=Scope.choices)
    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE,
                                  related_name="skill_rollups")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.CASCADE, related_name="skill_rollups")
    assignment = models.ForeignKey("classroom.Assignment", null=True, blank=True,
                                   on_delete=models.CASCADE, related_name="skill_rollups")
    week = models.DateField(null=True, blank=True)  # null: all time
    measure = models.CharField(max_length=30)
    detail = models.CharField(max_length=40, blank=True, default="")
    chances = models.PositiveIntegerField(default=0)
    misses = models.PositiveIntegerField(default=0)
    amount_total = models.FloatField(default=0)
    amount_median = models.FloatField(null=True, blank=True)  # all.think_time; seconds per fact
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(
            fields=["scope", "classroom", "student", "assignment", "week", "measure", "detail"],
            name="one_rollup_per_key", nulls_distinct=False)]
        indexes = [models.Index(fields=["classroom", "scope", "week"])]


class NeedsHelpFlag(models.Model):
    class Reason(models.TextChoices):
        MISS_RATE = "miss_rate", _("Misses this much more often than the class")
        RULE_ERRORS = "rule_errors", _("Many rule errors in one game")
        # A detail row whose own band is Practise or Needs help (reports/detail_flags.py).
        FACT = "fact", _("A times-table fact")
        OPERATION = "operation", _("An operation")
        FAMILY = "family", _("A family of skills")

    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE,
                                  related_name="needs_help_flags")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="needs_help_flags")
    measure = models.CharField(max_length=30)  # "" for a family's row
    reason = models.CharField(max_length=12, choices=Reason.choices)
    # The row of a detail flag: the fact "7x8", the operation "÷", the family "arithmetic".
    detail = models.CharField(max_length=40, blank=True, default="")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")  # the game, for rule errors
    evidence = models.JSONField(default=dict)  # numbers behind the flag, shown to the teacher
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["student", "measure", "reason", "detail", "game"],
                                               name="one_flag_per_student_row_reason_game",
                                               nulls_distinct=False)]


class RecomputeJob(models.Model):
    """A teacher's "recompute this class" or a large export, with progress for the page.

    A job a dead worker or a stopped Redis left behind never blocks anything (docs/reports.md,
    "When a worker dies or Redis stops"): `state` tells the page what really happened, and
    reports/job_queue.py hands jobs to the broker, lets one worker claim each, and gives up on
    jobs whose worker went silent.
    """

    class Kind(models.TextChoices):
        RECOMPUTE = "recompute", _("Recompute reports")
        EXPORT = "export", pgettext_lazy("a file made of the reports", "Export")

    QUEUED, RUNNING, READY, FAILED = "queued", "running", "ready", "failed"
    # What the page shows besides the four statuses: a queued job the broker could not take
    # yet (Redis down: it starts by itself when Redis is back), and a job whose worker died
    # (running with no heartbeat, or never started): shown as failed, with Try again.
    PAUSED, STOPPED = "paused", "stopped"
    # Stored in `message` in English (gettext_noop) and translated when shown (`problem`), so
    # each teacher reads them in their own language whoever's worker wrote them.
    STOPPED_RUNNING = gettext_noop("This stopped part-way (the server restarted). Nothing is lost: try again.")
    STOPPED_QUEUED = gettext_noop("This did not start (the server restarted). Nothing is lost: try again.")
    FAILED_RECOMPUTE = gettext_noop("The reports could not be recomputed. Please try again later.")
    FAILED_EXPORT = gettext_noop("Something went wrong while making this file. Please try again.")

    classroom = models.ForeignKey("classroom.Classroom", on_delete=models.CASCADE,
                                  related_name="report_jobs")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    export_format = models.CharField(max_length=20, blank=True)  # "csv", "raw_csv", "xlsx", "pdf"
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                     related_name="+")
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, default="queued")  # queued, running, ready, failed
    file = models.FileField(upload_to="exports/", blank=True)
    message = models.CharField(max_length=200, blank=True)
    # The language of the page that asked for an export: its file's words are in it when the
    # teacher has not chosen one of their own (a worker has no request to ask).
    language = models.CharField(max_length=10, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the job was first handed to the broker; null while it has not been (Redis was down).
    sent_at = models.DateTimeField(null=True, blank=True)
    # The worker's last sign of life: set when it claims the job and with every progress write.
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    def state_at(self, now=None) -> str:
        """queued, running, ready, failed as stored, and two more: paused (queued, but the
        broker could not take it yet) and stopped (its worker died: running with no heartbeat
        for REPORT_JOB_STALE_SECONDS, or handed to the broker REPORT_JOB_START_SECONDS ago and
        never started)."""
        now = now or timezone.now()
        if self.status == self.RUNNING:
            silent = now - (self.heartbeat_at or self.created_at)
            if silent > timedelta(seconds=settings.REPORT_JOB_STALE_SECONDS):
                return self.STOPPED
        elif self.status == self.QUEUED:
            if self.sent_at is None:
                return self.PAUSED
            if now - self.sent_at > timedelta(seconds=settings.REPORT_JOB_START_SECONDS):
                return self.STOPPED
        return self.status

    @property
    def state(self) -> str:
        return self.state_at()

    @property
    def problem(self) -> str:
        """What went wrong, in a teacher's words: the message of a failed job, or why a
        stopped one stopped; "" otherwise."""
        state = self.state
        if state == self.STOPPED:
            return gettext(self.STOPPED_RUNNING if self.status == self.RUNNING else self.STOPPED_QUEUED)
        if state == self.FAILED:
            # A stored message is one of the English sentences above: gettext finds its translation.
            return gettext(self.message) if self.message else gettext("Something went wrong. Please try again.")
        return ""
