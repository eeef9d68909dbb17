"""Reads for the skill reports, always for one class the caller has already fetched through
`classroom.selectors.classes_for_teacher` (views and the dashboard consumer do that), or for
a student's own rows.

The dashboard reads roll-ups, never evidence, in a fixed number of queries whatever the class
size; the drill-down reads the evidence rows behind one number. The exports read the same
selectors as the pages (the skill table, the fact grids, the trends), so a file and a page
never disagree.

One module per subject; every public name is re-exported here, so callers import
`reports.selectors` whatever module a read lives in:

- `skills`: the skill table (students × measures, per operation, totals given away);
- `trends`: weekly lines;
- `activity`: playing now, finished today, assignments' completion;
- `help_flags`: the "Needs help" flags;
- `teacher_dashboard`: everything the dashboard shows, read together;
- `lookups`: an assignment or a student of the class by an id from a URL;
- `moves_behind`: the evidence behind one number;
- `facts`: the times-table heat map;
- `student`: one student beside the class (the student page, the parents' PDF);
- `my_progress`: a student's own page;
- `jobs`: recompute and export jobs;
- `practice`: "Practise this", and before and after;
- `verdicts`: why each counted decision was judged as it was (the moves page, the replay).
"""

from .activity import (Activity, Completion, PlayingGroup, Today, assignment_completion,
                       playing_groups, playing_now, recent_games)
from .facts import (FactCell, FactGrid, MissedCard, fact_grid, fact_grids, fact_measure,
                    grid_of_rows, missed_cards)
from .help_flags import needs_help
from .jobs import class_job, recent_exports
from .lookups import class_assignment, class_student
from .moves_behind import DRILL_LIMIT, DrillDown, evidence_behind
from .my_progress import OwnMeasure, OwnProgress, by_family_own, own_progress
from .practice import (MIN_CHANCES_TO_PICK, FocusOutcome, PracticeTarget, best_target, flag_target,
                       focus_outcomes, focused_assignments, game_origin, nothing_to_practise,
                       pick_weakest, practice_origin, rank_weakest, weakest_details, weakest_target)
from .skills import (OperationRow, OperationTable, SkillRow, SkillTable, TotalRow, TotalsTable,
                     amount_measures, operation_measures, skill_table, totals_table)
from .student import (StudentMeasure, StudentSummary, measures_by_family, student_measures,
                      student_summary)
from .teacher_dashboard import HELP_SHOWN, Dashboard, HelpGroup, dashboard, help_groups
from .trends import (TREND_WEEKS, Trend, WeekChange, WeekPoint, class_trends, monday, recent_weeks,
                     trends_of, week_on_week)
from .verdicts import ReplayVerdict, replay_verdicts, verdict_of, with_verdicts

__all__ = [
    "DRILL_LIMIT", "HELP_SHOWN", "MIN_CHANCES_TO_PICK", "TREND_WEEKS",
    "Activity", "Completion", "Dashboard", "DrillDown", "FactCell", "FactGrid", "FocusOutcome",
    "HelpGroup", "MissedCard", "OperationRow", "OperationTable", "OwnMeasure", "OwnProgress",
    "PlayingGroup", "PracticeTarget", "SkillRow", "SkillTable", "StudentMeasure", "StudentSummary",
    "Today", "TotalRow", "TotalsTable", "Trend", "WeekChange", "WeekPoint",
    "best_target", "flag_target", "game_origin", "practice_origin", "weakest_target",
    "amount_measures", "assignment_completion", "by_family_own", "class_assignment", "class_job",
    "class_student", "class_trends", "dashboard", "evidence_behind", "fact_grid", "fact_grids",
    "fact_measure", "focus_outcomes", "focused_assignments", "grid_of_rows", "help_groups",
    "measures_by_family", "missed_cards", "monday", "needs_help", "nothing_to_practise",
    "operation_measures", "pick_weakest", "rank_weakest",
    "own_progress", "playing_groups", "playing_now", "recent_exports", "recent_games",
    "recent_weeks", "skill_table", "student_measures", "student_summary", "totals_table",
    "trends_of", "weakest_details", "week_on_week",
    "ReplayVerdict", "replay_verdicts", "verdict_of", "with_verdicts",
]
