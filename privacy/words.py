"""The words of the declarations (every app's privacy_data.py), in the reader's language.

The declarations are plain data in English, read only by privacy/: here is where they become
words people read (the erasure page's counts, the export's README.txt and its CSV headers), so
privacy's catalogue carries them. tests/privacy/test_declarations.py fails when a declaration
has a label, a description or a field with no entry here: add its words, then translate them.

The values in the files stay as they are (locale-neutral data); JSON keys stay English too:
they are data keys, not headings (README.txt says so).
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, npgettext_lazy, pgettext, pgettext_lazy

# A kind's `label` (one, many) -> "312 moves": a whole phrase, so that each language words its
# own plural forms (Arabic has six).
LABELS = {
    ('access log entry', 'access log entries'): npgettext_lazy(
        "data held about a student",
        '%(count)s access log entry', '%(count)s access log entries', "count"),
    ('arena game result', 'arena game results'): npgettext_lazy(
        "data held about a student",
        '%(count)s arena game result', '%(count)s arena game results', "count"),
    ('arena joined', 'arenas joined'): npgettext_lazy(
        "data held about a student",
        '%(count)s arena joined', '%(count)s arenas joined', "count"),
    ('arena they were chosen for', 'arenas they were chosen for'): npgettext_lazy(
        "data held about a student",
        '%(count)s arena they were chosen for', '%(count)s arenas they were chosen for', "count"),
    ('skill record', 'skill records'): npgettext_lazy(
        "data held about a student",
        '%(count)s skill record', '%(count)s skill records', "count"),
    ('skill total', 'skill totals'): npgettext_lazy(
        "data held about a student",
        '%(count)s skill total', '%(count)s skill totals', "count"),
    ("'needs help' flag", "'needs help' flags"): npgettext_lazy(
        "data held about a student",
        "%(count)s 'needs help' flag", "%(count)s 'needs help' flags", "count"),
    ('class report file that names them', 'class report files that name them'): npgettext_lazy(
        "data held about a student",
        '%(count)s class report file that names them',
        '%(count)s class report files that name them',
        "count"),
    ('assignment chosen for them', 'assignments chosen for them'): npgettext_lazy(
        "data held about a student",
        '%(count)s assignment chosen for them', '%(count)s assignments chosen for them', "count"),
    ('game played', 'games played'): npgettext_lazy(
        "data held about a student",
        '%(count)s game played', '%(count)s games played', "count"),
    ('move', 'moves'): npgettext_lazy("data held about a student", '%(count)s move', '%(count)s moves', "count"),
    ('game they started', 'games they started'): npgettext_lazy(
        "data held about a student",
        '%(count)s game they started', '%(count)s games they started', "count"),
    ('invitation to a table', 'invitations to a table'): npgettext_lazy(
        "data held about a student",
        '%(count)s invitation to a table', '%(count)s invitations to a table', "count"),
    ('invitation sent to classmates', 'invitations sent to classmates'): npgettext_lazy(
        "data held about a student",
        '%(count)s invitation sent to classmates', '%(count)s invitations sent to classmates', "count"),
    ('rating', 'ratings'): npgettext_lazy("data held about a student", '%(count)s rating', '%(count)s ratings', "count"),
    ('rating change', 'rating changes'): npgettext_lazy(
        "data held about a student",
        '%(count)s rating change', '%(count)s rating changes', "count"),
    ('account', 'accounts'): npgettext_lazy("data held about a student", '%(count)s account', '%(count)s accounts', "count"),
    ('class', 'classes'): npgettext_lazy("data held about a student", '%(count)s class', '%(count)s classes', "count"),
    ('class from the school\'s roster', 'classes from the school\'s roster'): npgettext_lazy(
        "data held about a student",
        "%(count)s class from the school's roster", "%(count)s classes from the school's roster", "count"),
    ('id in the school\'s roster', 'ids in the school\'s roster'): npgettext_lazy(
        "data held about a student",
        "%(count)s id in the school's roster", "%(count)s ids in the school's roster", "count"),
    ('learning platform link', 'learning platform links'): npgettext_lazy(
        "data held about a student",
        '%(count)s learning platform link', '%(count)s learning platform links', "count"),
    ('grade sent to a learning platform', 'grades sent to a learning platform'): npgettext_lazy(
        "data held about a student",
        '%(count)s grade sent to a learning platform', '%(count)s grades sent to a learning platform', "count"),
}

# Each kind's `about`, the sentence README.txt prints under its files.
ABOUTS = {
    gettext_noop("Each time a teacher or an administrator looked at or downloaded this student's "
                 "reports: who, what and when."),
    gettext_noop('What each arena game did for the student: won, drew or lost, and the points.'),
    gettext_noop("Each class arena the student joined: their points, wins, draws, losses and best "
                 "streak."),
    gettext_noop("Arenas their teacher opened for chosen students only, with the student among "
                 "them."),
    gettext_noop("One row per chance the student had at a skill in a move (for example picking the"
                 " lowest card), and whether they took it: every number in a report is a count of "
                 "these."),
    gettext_noop("The student's skill records added up, all time and per week, as the reports show"
                 " them."),
    gettext_noop("Skills where the reports say the student needs help, with the numbers behind "
                 "each flag."),
    gettext_noop("Report files a teacher made for a whole class the student is or was in (the "
                 "files name every student of the class, so only the file's kind and date are "
                 "listed here)."),
    gettext_noop("Assignments (including 'Practise this' practice) their teacher set for chosen "
                 "students, with the student among them. Work set for the whole class is not "
                 "listed: it is the class's."),
    gettext_noop("One row per game the student sat in: which game, when, how it ended for them and"
                 " who won (the result every player saw)."),
    gettext_noop("Every move the student tried, accepted or not: the card or answer, how long they"
                 " thought, and what the game noted about the choice (their own hand only)."),
    gettext_noop('Games and tables the student started (how each went is in games.csv).'),
    gettext_noop("Invitations the student received to join a classmate's table."),
    gettext_noop("Invitations the student sent to classmates (who they invited is the classmates' "
                 "own data, so only the table and the time are shown)."),
    gettext_noop("The student's rating in each game (it finds opponents of the right level)."),
    gettext_noop("What each finished game did to the student's rating, and who the opponents at "
                 "the table were: another player, or a computer player of a level."),
    gettext_noop("The student's account: their name, username, and when they joined and last "
                 "played (their classes are in their own file). Their sign-in pictures and password "
                 "are not included: they are a way in, not information about the student."),
    gettext_noop("The classes the student is or was in: when they joined, and when they left "
                 "(a left class keeps its records of them)."),
    gettext_noop("Each class the school's system (OneRoster) placed the student in: the system's "
                 "name, the id of the enrollment and of the class there, the role, and when the "
                 "roster took it away."),
    gettext_noop("The id the school's system (OneRoster) gives the student, so that its next roster "
                 "finds the same account: the system's name and the id, and when it was linked."),
    gettext_noop("Which school learning platform opens Numberdeck for the student, and the "
                 "number that platform knows them by (Numberdeck keeps no name or e-mail "
                 "address from it), with the courses they opened it from."),
    gettext_noop("The last grade out of 100 Numberdeck sent (or tried to send) to the school's "
                 "learning platform for an assignment placed in a course there, and whether it "
                 "was taken."),
}

# A declared field -> its CSV heading. In English the heading is the field's own name, as it
# always was (scripts may read it); other languages give it a short heading.
COLUMNS = {
    'at': pgettext_lazy("column of a data export", 'at'),
    'viewer_name': pgettext_lazy("column of a data export", 'viewer_name'),
    'action': pgettext_lazy("column of a data export", 'action'),
    'what': pgettext_lazy("column of a data export", 'what'),
    'classroom_name': pgettext_lazy("column of a data export", 'classroom_name'),
    'player arena title': pgettext_lazy("column of a data export", 'player arena title'),
    'table game': pgettext_lazy("column of a data export", 'table game'),
    'outcome': pgettext_lazy("column of a data export", 'outcome'),
    'points': pgettext_lazy("column of a data export", 'points'),
    'doubled': pgettext_lazy("column of a data export", 'doubled'),
    'left': pgettext_lazy("column of a data export", 'left'),
    'taken_out': pgettext_lazy("column of a data export", 'taken_out'),
    'game_score': pgettext_lazy("column of a data export", 'game_score'),
    'created_at': pgettext_lazy("column of a data export", 'created_at'),
    'arena title': pgettext_lazy("column of a data export", 'arena title'),
    'arena key': pgettext_lazy("column of a data export", 'arena key'),
    'arena created_at': pgettext_lazy("column of a data export", 'arena created_at'),
    'status': pgettext_lazy("column of a data export", 'status'),
    'rating_at_start': pgettext_lazy("column of a data export", 'rating_at_start'),
    'streak': pgettext_lazy("column of a data export", 'streak'),
    'best_streak': pgettext_lazy("column of a data export", 'best_streak'),
    'games': pgettext_lazy("column of a data export", 'games'),
    'wins': pgettext_lazy("column of a data export", 'wins'),
    'draws': pgettext_lazy("column of a data export", 'draws'),
    'losses': pgettext_lazy("column of a data export", 'losses'),
    'best_score': pgettext_lazy("column of a data export", 'best_score'),
    'joined_at': pgettext_lazy("column of a data export", 'joined_at'),
    'title': pgettext_lazy("column of a data export", 'title'),
    'key': pgettext_lazy("column of a data export", 'key'),
    'game_id': pgettext_lazy("column of a data export", 'game_id'),
    'move_id': pgettext_lazy("column of a data export", 'move_id'),
    'classroom name': pgettext_lazy("column of a data export", 'classroom name'),
    'assignment title': pgettext_lazy("column of a data export", 'assignment title'),
    'measure': pgettext_lazy("column of a data export", 'measure'),
    'detail': pgettext_lazy("column of a data export", 'detail'),
    'missed': pgettext_lazy("column of a data export", 'missed'),
    'amount': pgettext_lazy("column of a data export", 'amount'),
    'turn': pgettext_lazy("column of a data export", 'turn'),
    'played_at': pgettext_lazy("column of a data export", 'played_at'),
    'week': pgettext_lazy("column of a data export", 'week'),
    'scope': pgettext_lazy("column of a data export", 'scope'),
    'chances': pgettext_lazy("column of a data export", 'chances'),
    'misses': pgettext_lazy("column of a data export", 'misses'),
    'amount_total': pgettext_lazy("column of a data export", 'amount_total'),
    'amount_median': pgettext_lazy("column of a data export", 'amount_median'),
    'updated_at': pgettext_lazy("column of a data export", 'updated_at'),
    'reason': pgettext_lazy("column of a data export", 'reason'),
    'evidence': pgettext_lazy("column of a data export", 'evidence'),
    'export_format': pgettext_lazy("column of a data export", 'export_format'),
    'finished_at': pgettext_lazy("column of a data export", 'finished_at'),
    'game': pgettext_lazy("column of a data export", 'game'),
    'preset': pgettext_lazy("column of a data export", 'preset'),
    'focus': pgettext_lazy("column of a data export", 'focus'),
    'goal': pgettext_lazy("column of a data export", 'goal'),
    'goal_count': pgettext_lazy("column of a data export", 'goal_count'),
    'due_on': pgettext_lazy("column of a data export", 'due_on'),
    'closed_at': pgettext_lazy("column of a data export", 'closed_at'),
    'archived_at': pgettext_lazy("column of a data export", 'archived_at'),
    'game key': pgettext_lazy("column of a data export", 'game key'),
    'game status': pgettext_lazy("column of a data export", 'game status'),
    'game created_at': pgettext_lazy("column of a data export", 'game created_at'),
    'game finished_at': pgettext_lazy("column of a data export", 'game finished_at'),
    'position': pgettext_lazy("column of a data export", 'position'),
    'name': pgettext_lazy("column of a data export", 'name'),
    'is_winner': pgettext_lazy("column of a data export", 'is_winner'),
    'score': pgettext_lazy("column of a data export", 'score'),
    'left_at': pgettext_lazy("column of a data export", 'left_at'),
    'game state winners': pgettext_lazy("column of a data export", 'game state winners'),
    'sequence': pgettext_lazy("column of a data export", 'sequence'),
    'version_before': pgettext_lazy("column of a data export", 'version_before'),
    'accepted': pgettext_lazy("column of a data export", 'accepted'),
    'error_code': pgettext_lazy("column of a data export", 'error_code'),
    'think_ms': pgettext_lazy("column of a data export", 'think_ms'),
    'answer': pgettext_lazy("column of a data export", 'answer'),
    'analysis': pgettext_lazy("column of a data export", 'analysis'),
    'id': pgettext_lazy("column of a data export", 'id'),
    'rating': pgettext_lazy("column of a data export", 'rating'),
    'before': pgettext_lazy("column of a data export", 'before'),
    'after': pgettext_lazy("column of a data export", 'after'),
    'expected': pgettext_lazy("column of a data export", 'expected'),
    'opponents': pgettext_lazy("column of a data export", 'opponents'),
    'username': pgettext_lazy("column of a data export", 'username'),
    'display_name': pgettext_lazy("column of a data export", 'display_name'),
    'is_active': pgettext_lazy("column of a data export", 'is_active'),
    'date_joined': pgettext_lazy("column of a data export", 'date_joined'),
    'last_login': pgettext_lazy("column of a data export", 'last_login'),
    'last_seen_at': pgettext_lazy("column of a data export", 'last_seen_at'),
    'source name': pgettext_lazy("column of a data export", 'source name'),
    'sourced_id': pgettext_lazy("column of a data export", 'sourced_id'),
    'roster_class sourced_id': pgettext_lazy("column of a data export", 'roster_class sourced_id'),
    'role': pgettext_lazy("column of a data export", 'role'),
    'archived_at': pgettext_lazy("column of a data export", 'archived_at'),
    'registration name': pgettext_lazy("column of a data export", 'registration name'),
    'registration issuer': pgettext_lazy("column of a data export", 'registration issuer'),
    'sub': pgettext_lazy("column of a data export", 'sub'),
    'datetime_created': pgettext_lazy("column of a data export", 'datetime_created'),
    'placement assignment title': pgettext_lazy("column of a data export", 'placement assignment title'),
    'state': pgettext_lazy("column of a data export", 'state'),
    'error': pgettext_lazy("column of a data export", 'error'),
}


def english(text) -> str:
    """A declaration's words as written, in English: the key to their entry here. An app may
    declare them as lazy translations; those are read in English for the lookup."""
    with translation.override("en"):
        return str(text)


def count_in_words(label: tuple[str, str], n: int) -> str:
    """"312 moves", in the active language (the declared words for a label nobody listed here)."""
    phrase = LABELS.get((english(label[0]), english(label[1])))
    if phrase is None:
        return f"{n} {label[0] if n == 1 else label[1]}"
    return phrase % {"count": n}


def about_in_words(about) -> str:
    return gettext(english(about))


def column_heading(column: str) -> str:
    """A CSV heading for a column named after its field (`game key` for game__key)."""
    return str(COLUMNS[column]) if column in COLUMNS else column



def joined(items) -> str:
    """Items one after the other, with the reader's comma (Arabic writes "،")."""
    return pgettext("between the items of a list", ", ").join(str(item) for item in items)
